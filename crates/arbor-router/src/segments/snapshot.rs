//! The trie as plain numbers for a router's snapshot, and the checks that make a loaded one as safe to
//! walk as a built one.

use super::layout::{SegKey, SegNode, Segments, LINEAR, SEVERAL};
use crate::ids::NONE;
use crate::route::Matcher;

/// Numbers per node in a snapshot (see [`SegmentParts`]).
pub(crate) const NODE_WORDS: usize = 16;

/// The trie as plain numbers, for a router's snapshot (`router/snapshot/flat.rs`). A start from the
/// route cache loads the trie instead of building it from the flat tree: building it would be a large
/// part of a snapshot's load, in WebAssembly code that runs once, at its baseline speed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SegmentParts {
    pub(crate) nodes: Vec<[u32; NODE_WORDS]>,
    /// Each static child: its first word, then its length, where its rest is in `text`, its node.
    pub(crate) keys: Vec<(u64, [u32; 3])>,
    pub(crate) slots: Vec<u32>,
    pub(crate) text: Vec<u8>,
    /// Each constrained parameter's check, named by the matcher it is taken from.
    pub(crate) check_matchers: Vec<u32>,
    pub(crate) roots: Vec<u32>,
}

/// [`SegNode::words`] of a node as the build makes it: a snapshot stores only the words that differ
/// (most nodes have no leaf, no parameter child or no static child).
pub(crate) const DEFAULT_WORDS: [u32; NODE_WORDS] = [
    NONE, NONE, NONE, 0, 0, 0, 0, 0, 0, 0, NONE, NONE, NONE, NONE, NONE, NONE,
];

impl SegNode {
    fn words(&self) -> [u32; NODE_WORDS] {
        [
            self.min_rank,
            self.leaf_rank,
            self.leaf_route,
            self.layout_start,
            self.layout_len,
            u32::from(self.direct),
            // Where a node without static children would have them is never read.
            if self.n_keys == 0 { 0 } else { self.keys },
            self.n_keys,
            self.table,
            self.mask,
            self.param,
            self.param_rank,
            self.param_check,
            self.own_check,
            self.next_param,
            self.general_rank,
        ]
    }

    fn from_words(words: [u32; NODE_WORDS]) -> Option<SegNode> {
        let [min_rank, leaf_rank, leaf_route, layout_start, layout_len, direct, keys, n_keys, table, mask, param, param_rank, param_check, own_check, next_param, general_rank] =
            words;
        Some(SegNode {
            min_rank,
            leaf_rank,
            leaf_route,
            layout_start,
            layout_len,
            direct: match direct {
                0 => false,
                1 => true,
                _ => return None,
            },
            keys,
            n_keys,
            table,
            mask,
            param,
            param_rank,
            param_check,
            own_check,
            next_param,
            general_rank,
        })
    }
}

impl Segments {
    /// The trie as plain numbers (a snapshot's; [`Segments::from_parts`] reads them back).
    pub(crate) fn parts(&self) -> SegmentParts {
        SegmentParts {
            nodes: self.nodes.iter().map(SegNode::words).collect(),
            keys: self
                .keys
                .iter()
                .map(|k| (k.w0, [k.len, k.rest, k.child]))
                .collect(),
            slots: self.slots.clone(),
            text: self.text.clone(),
            check_matchers: self.check_matchers.clone(),
            roots: self.roots.clone(),
        }
    }

    /// The trie a snapshot stored, or `None` when its numbers could make the walk loop, read past
    /// its arrays or answer spans that disagree with a route (a forged snapshot; what the build
    /// guarantees is checked here). `matchers` are the router's; `leaf_fits(route, start, len)` says
    /// whether a leaf's layout in the flat tree's `layouts` fits that route.
    pub(crate) fn from_parts(
        parts: SegmentParts,
        matchers: &[Matcher],
        n_methods: usize,
        leaf_fits: impl Fn(u32, u32, u32) -> bool,
    ) -> Option<Segments> {
        let SegmentParts {
            nodes,
            keys,
            slots,
            text,
            check_matchers,
            roots,
        } = parts;
        let nodes = nodes
            .into_iter()
            .map(SegNode::from_words)
            .collect::<Option<Vec<_>>>()?;
        let n = nodes.len() as u64;
        let checks = check_matchers
            .iter()
            .map(|&m| match matchers.get(m as usize) {
                Some(Matcher::Segment(Some(check))) => Some(check.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let n_checks = checks.len() as u64;
        let index = |i: u32| i == NONE || u64::from(i) < n;
        let check = |c: u32| c == NONE || u64::from(c) < n_checks;
        if roots.len() > n_methods || !roots.iter().all(|&r| index(r)) {
            return None;
        }
        for (i, node) in (0u32..).zip(&nodes) {
            let tabled = node.n_keys > LINEAR;
            let table_ok = !tabled
                || (node.mask > 0
                    && (u64::from(node.mask) + 1).is_power_of_two()
                    && u64::from(node.table) + u64::from(node.mask) < slots.len() as u64);
            // A chain of parameter children is ordered by (rank, node): each link goes forward, so
            // trying them in turn ends.
            let next_ok = node.next_param == NONE
                || nodes
                    .get(node.next_param as usize)
                    .is_some_and(|next| (next.min_rank, node.next_param) > (node.min_rank, i));
            if u64::from(node.keys) + u64::from(node.n_keys) > keys.len() as u64
                || !table_ok
                || !next_ok
                || !index(node.param)
                || !(node.param_check == SEVERAL || check(node.param_check))
                || !check(node.own_check)
                || (node.leaf_route != NONE
                    && !leaf_fits(node.leaf_route, node.layout_start, node.layout_len))
            {
                return None;
            }
        }
        let keys = keys
            .into_iter()
            .map(|(w0, [len, rest, child])| {
                index(child).then_some(SegKey {
                    w0,
                    len,
                    rest,
                    child,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Segments {
            nodes,
            keys,
            slots,
            text,
            checks,
            check_matchers,
            roots,
        })
    }
}

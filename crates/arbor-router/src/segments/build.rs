//! The build: a builder of the segment trie's nodes, fed by `flat_to_segments.rs` (a walk of the flat
//! tree, once per change of the routes), and the layout of what it built.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use foldhash::HashMap;

use super::layout::{slot_of, to_u32, SegKey, SegNode, Segments, LINEAR, SEVERAL};
use crate::constraint::Check;
use crate::ids::NONE;
use crate::words::{mask_of, word_at};

/// The first 8 bytes of `bytes` from `at`, zero-padded.
fn word_of(bytes: &[u8], at: usize) -> u64 {
    word_at(bytes, at) & mask_of(bytes.len().saturating_sub(at))
}

/// The builder: the nodes in their final form (their static children are placed by `lay_out`),
/// and beside them what only the build needs. The trie has about as many nodes as the flat tree,
/// built while the registration tree and the flat tree are alive, and WebAssembly memory keeps its
/// peak: no second copy of the nodes.
pub(crate) struct Builder {
    nodes: Vec<SegNode>,
    /// Per node: its parent, and for a static child its segment in `text` (length 0 otherwise).
    parents: Vec<u32>,
    key_ranges: Vec<(u32, u32)>,
    /// The static children's segments, end to end.
    text: Vec<u8>,
    /// The checks of constrained parameter children, and the matcher each was taken from.
    checks: Vec<Check>,
    check_matchers: Vec<u32>,
    check_of_matcher: HashMap<u32, u32>,
    /// `(parent, 32 bits of the segment's hash)` → child: finding a static child is one probe (the
    /// segment compared, and on a hash collision every node searched).
    index: HashMap<(u32, u32), u32>,
    hasher: FixedState,
}

impl Builder {
    fn push(&mut self, parent: u32) -> u32 {
        self.nodes.push(SegNode {
            min_rank: NONE,
            leaf_rank: NONE,
            leaf_route: NONE,
            param: NONE,
            param_rank: NONE,
            param_check: NONE,
            own_check: NONE,
            next_param: NONE,
            general_rank: NONE,
            ..SegNode::default()
        });
        self.parents.push(parent);
        self.key_ranges.push((0, 0));
        to_u32(self.nodes.len() - 1)
    }

    fn key(&self, node: u32) -> &[u8] {
        let (start, len) = self
            .key_ranges
            .get(node as usize)
            .copied()
            .unwrap_or((0, 0));
        self.text
            .get(start as usize..(start + len) as usize)
            .unwrap_or_default()
    }

    fn is_key(&self, child: u32, parent: u32, segment: &[u8]) -> bool {
        self.parents.get(child as usize) == Some(&parent)
            && self.key_ranges.get(child as usize).is_some_and(|k| k.1 > 0)
            && self.key(child) == segment
    }

    pub(crate) fn static_child(&mut self, at: u32, segment: &[u8]) -> u32 {
        let hash = self.hasher.hash_one(segment) as u32;
        match self.index.get(&(at, hash)) {
            Some(&c) if self.is_key(c, at, segment) => return c,
            Some(_) => {
                let found = (0..self.nodes.len())
                    .map(to_u32)
                    .find(|&c| self.is_key(c, at, segment));
                if let Some(c) = found {
                    return c;
                }
            }
            None => {}
        }
        let c = self.push(at);
        let start = to_u32(self.text.len());
        self.text.extend_from_slice(segment);
        if let Some(range) = self.key_ranges.get_mut(c as usize) {
            *range = (start, to_u32(segment.len()));
        }
        self.index.entry((at, hash)).or_insert(c);
        c
    }

    /// The parameter child of `at` with the constraint of `matcher` (`check`: `None` for a plain
    /// parameter). While building, `at`'s parameter children are chained by `next_param` in the
    /// order made, each with its `own_check`; `lay_out` orders them.
    pub(crate) fn param_child(
        &mut self,
        at: u32,
        matcher: u32,
        check: Option<&Check>,
    ) -> Option<u32> {
        let check = match check {
            None => NONE,
            Some(check) => *self.check_of_matcher.entry(matcher).or_insert_with(|| {
                self.checks.push(check.clone());
                self.check_matchers.push(matcher);
                to_u32(self.checks.len() - 1)
            }),
        };
        let mut last = NONE;
        let mut c = self.nodes.get(at as usize)?.param;
        while c != NONE {
            let child = self.nodes.get(c as usize)?;
            if child.own_check == check {
                return Some(c);
            }
            (last, c) = (c, child.next_param);
        }
        let c = self.push(at);
        self.nodes.get_mut(c as usize)?.own_check = check;
        match self.nodes.get_mut(last as usize) {
            Some(last) => last.next_param = c,
            None => self.nodes.get_mut(at as usize)?.param = c,
        }
        Some(c)
    }
}

impl Builder {
    /// An empty builder with room for about `nodes` nodes (the trie has about as many as the flat
    /// tree it is made from).
    pub(crate) fn with_capacity(nodes: usize) -> Builder {
        Builder {
            nodes: Vec::with_capacity(nodes),
            parents: Vec::with_capacity(nodes),
            key_ranges: Vec::with_capacity(nodes),
            text: Vec::new(),
            checks: Vec::new(),
            check_matchers: Vec::new(),
            check_of_matcher: HashMap::default(),
            // About one static child per flat node: sized once instead of rehashed as it grows.
            index: HashMap::with_capacity_and_hasher(nodes, Default::default()),
            hasher: FixedState::default(),
        }
    }

    /// A new root node (one per method with dynamic routes).
    pub(crate) fn root(&mut self) -> u32 {
        self.push(NONE)
    }

    /// Records below `at` a child the lean walk does not hold, whose subtree's smallest rank is
    /// `rank`: the walk hands a lookup to the byte walk when that could beat its answer.
    pub(crate) fn leave_to_byte_walk(&mut self, at: u32, rank: u32) -> Option<()> {
        let slot = &mut self.nodes.get_mut(at as usize)?.general_rank;
        *slot = (*slot).min(rank);
        Some(())
    }

    /// Puts a leaf at `at`, unless it already holds one of smaller rank.
    pub(crate) fn offer_leaf(&mut self, at: u32, leaf: SegLeaf) -> Option<()> {
        let node = self.nodes.get_mut(at as usize)?;
        if leaf.rank < node.leaf_rank {
            node.leaf_rank = leaf.rank;
            node.leaf_route = leaf.route;
            node.layout_start = leaf.layout_start;
            node.layout_len = leaf.layout_len;
            node.direct = leaf.direct;
        }
        Some(())
    }

    /// The trie, laid out; `roots`: the root per method id (`NONE` for none).
    pub(crate) fn finish(mut self, roots: Vec<u32>) -> Segments {
        // What only the build needed is freed, so that the arrays laid out next can take its
        // memory.
        self.index = HashMap::default();
        self.check_of_matcher = HashMap::default();
        Segments::lay_out(self, roots)
    }
}

/// A route ending at a node: its rank, and its values' layout in the flat tree's `layouts`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SegLeaf {
    pub(crate) rank: u32,
    pub(crate) route: u32,
    pub(crate) layout_start: u32,
    pub(crate) layout_len: u32,
    pub(crate) direct: bool,
}

impl Segments {
    /// The builder's nodes completed: subtree minimums, and each node's static children side by
    /// side in `keys` (with a hash table beyond `LINEAR` of them).
    fn lay_out(b: Builder, roots: Vec<u32>) -> Segments {
        let Builder {
            mut nodes,
            parents,
            key_ranges,
            text,
            checks,
            check_matchers,
            ..
        } = b;
        // Children are created after their parent: a reverse pass computes the subtree minimums.
        for node in &mut nodes {
            node.min_rank = node.leaf_rank.min(node.general_rank);
        }
        for (idx, &parent) in parents.iter().enumerate().rev() {
            let m = nodes.get(idx).map_or(NONE, |n| n.min_rank);
            if let Some(parent) = nodes.get_mut(parent as usize) {
                parent.min_rank = parent.min_rank.min(m);
            }
        }
        let mut chain = Vec::new();
        for idx in 0..nodes.len() {
            Self::order_params(&mut nodes, idx, &mut chain);
        }
        // Static children grouped by parent: counts, then each parent's first slot.
        let is_key = |idx: usize| key_ranges.get(idx).is_some_and(|k| k.1 > 0);
        let mut first = vec![0u32; nodes.len() + 1];
        for (idx, &parent) in parents.iter().enumerate() {
            if is_key(idx) {
                if let Some(count) = first.get_mut(parent as usize + 1) {
                    *count += 1;
                }
            }
        }
        for k in 1..first.len() {
            let before = first.get(k - 1).copied().unwrap_or(0);
            if let Some(here) = first.get_mut(k) {
                *here += before;
            }
        }
        let count = |idx: usize| {
            first.get(idx + 1).copied().unwrap_or(0) - first.get(idx).copied().unwrap_or(0)
        };
        let table_slots: usize = (0..nodes.len())
            .map(count)
            .filter(|&n| n > LINEAR)
            .map(|n| (n as usize * 2).next_power_of_two())
            .sum();
        let long_bytes: usize = key_ranges
            .iter()
            .map(|k| (k.1 as usize).saturating_sub(8))
            .sum();
        let mut keys = vec![SegKey::default(); first.last().copied().unwrap_or(0) as usize];
        let mut long_text = Vec::with_capacity(long_bytes);
        // `first[p]` serves as the cursor of parent `p` while placing the keys; afterwards it holds
        // where `p`'s keys end, i.e. where `p + 1`'s begin.
        for (idx, (&parent, &(start, len))) in parents.iter().zip(&key_ranges).enumerate() {
            if len == 0 {
                continue;
            }
            let segment = text
                .get(start as usize..(start + len) as usize)
                .unwrap_or_default();
            let rest = to_u32(long_text.len());
            long_text.extend_from_slice(segment.get(8..).unwrap_or_default());
            let Some(at) = first.get_mut(parent as usize) else {
                continue;
            };
            if let Some(key) = keys.get_mut(*at as usize) {
                *key = SegKey {
                    w0: word_of(segment, 0),
                    len,
                    rest,
                    child: to_u32(idx),
                };
            }
            *at += 1;
        }
        drop(text);
        let mut slots = Vec::with_capacity(table_slots);
        for (idx, node) in nodes.iter_mut().enumerate() {
            node.keys = match idx.checked_sub(1) {
                Some(before) => first.get(before).copied().unwrap_or(0),
                None => 0,
            };
            node.n_keys = first.get(idx).copied().unwrap_or(node.keys) - node.keys;
            if node.n_keys <= LINEAR {
                continue;
            }
            let size = (node.n_keys as usize * 2).next_power_of_two();
            node.mask = to_u32(size - 1);
            node.table = to_u32(slots.len());
            slots.resize(slots.len() + size, NONE);
            for k in 0..node.n_keys {
                let Some(key) = keys.get((node.keys + k) as usize) else {
                    continue;
                };
                let mut s = slot_of(key.w0, key.len as usize, node.mask);
                // The table has twice the keys' room: a free slot is always found.
                for _ in 0..size {
                    match slots.get_mut(node.table as usize + s) {
                        Some(free) if *free == NONE => {
                            *free = k;
                            break;
                        }
                        _ => s = (s + 1) & node.mask as usize,
                    }
                }
            }
        }
        Segments {
            nodes,
            keys,
            slots,
            text: long_text,
            checks,
            check_matchers,
            roots,
        }
    }

    /// Orders node `idx`'s parameter children by their smallest rank (so that once one cannot win,
    /// neither can the ones after it), and sets the node's `param`, `param_rank` and `param_check`.
    /// A lone child's check moves to its parent, where the loop reads it.
    fn order_params(nodes: &mut [SegNode], idx: usize, chain: &mut Vec<(u32, u32)>) {
        chain.clear();
        let mut c = nodes.get(idx).map_or(NONE, |n| n.param);
        while let Some(child) = nodes.get(c as usize) {
            chain.push((child.min_rank, c));
            c = child.next_param;
        }
        chain.sort_unstable();
        let (first, rank, check) = match chain.as_slice() {
            [] => return,
            [(rank, only)] => {
                let Some(child) = nodes.get_mut(*only as usize) else {
                    return;
                };
                let check = std::mem::replace(&mut child.own_check, NONE);
                (*only, *rank, check)
            }
            [(rank, first), ..] => (*first, *rank, SEVERAL),
        };
        let nexts = chain.iter().skip(1).map(|&(_, c)| c).chain([NONE]);
        for (&(_, c), next) in chain.iter().zip(nexts) {
            if let Some(child) = nodes.get_mut(c as usize) {
                child.next_param = next;
            }
        }
        if let Some(node) = nodes.get_mut(idx) {
            (node.param, node.param_rank, node.param_check) = (first, rank, check);
        }
    }
}

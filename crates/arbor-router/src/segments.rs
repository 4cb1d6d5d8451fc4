//! The lean walk: the common case of either order, over a trie of whole path segments.
//!
//! The byte walk (`lookup.rs`) handles every pattern kind and both orders, and inside WebAssembly it
//! runs at about half its native speed: V8 compiles its large loop with many live values into code
//! that spills. A loop that knows only static segments and whole-segment parameters, with its
//! buffers in fixed arrays, runs there at nearly native speed (docs/PERFORMANCE.md). This is that
//! loop, in front of the byte walk: it answers a lookup unless a part of the trie it does not hold
//! could beat its answer, and hands the lookup to the byte walk then (`Lean::GENERAL`).
//!
//! A node is a position at the start of a segment (a `/`, or the start of the path). A static child
//! is keyed by the whole next segment, its `/` included: its first 8 bytes and length in one compare,
//! the rest of a longer one against `text`, and a hash table beyond `LINEAR` children. A node's
//! *parameter* children are parameters that are the whole segment after its `/`, plain or with a
//! constraint (`/:id<int>`; the check runs out of the loop). The common node has one, entered
//! straight from the loop; several (`/:id<int>` beside `/:slug`) are chained from the one of
//! smallest rank and tried in that order from the alternatives' stack. What else a node leads to (a
//! segment tail such as `:a.:b`, text before a parameter such as `/v:n`, a wildcard, a regex block)
//! is not built here: the node only records the smallest rank below such children
//! (`general_rank`); the walk keeps the smallest of those over the nodes it visits, and gives the
//! lookup to the byte walk when it is smaller than its answer's rank (or there is no answer).
//!
//! The answer is the same as the byte walk's: the winner is the matching route of smallest rank
//! whatever the tree's shape, and the lean walk explores every branch that could hold a smaller rank
//! than the best so far (a static child first, the parameter children after it). In definition order
//! a rank is the route's place in the definition; in specificity order, its leaf's place in the byte
//! walk's depth-first order (`Flat::rank_depth_first`), whose first match is then the smallest rank.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use foldhash::HashMap;

use crate::constraint::Check;
use crate::route::{Matcher, ABSENT};
use crate::tree::{Flat, KIND_SEGMENT};
use crate::words::{has_byte, label_at, mask_of, segment_end, word_at};
use crate::{Values, MAX_VALUES, NONE};

/// Up to this many static children are compared in turn; beyond, a hash table finds them. In
/// WebAssembly, comparing up to 16 keys (8 bytes and a length each) beat the probe (a multiply, a
/// slot in another array) on the 10,000-route table, and was level on GitHub (docs/PERFORMANCE.md).
const LINEAR: u32 = 16;

/// How many alternatives (a parameter child left for after a static child) the lean walk keeps;
/// a deeper lookup goes to the byte walk.
const LEAN_FRAMES: usize = 32;

/// `SegNode::param_check` of a node with several parameter children: each child holds its own
/// check (`own_check`), and they are tried from the alternatives' stack.
const SEVERAL: u32 = NONE - 1;

#[derive(Debug, Clone, Copy, Default)]
struct SegNode {
    /// Smallest leaf rank below (and at) this node, the children the byte walk alone handles
    /// included: the search skips what cannot win.
    min_rank: u32,
    leaf_rank: u32,
    leaf_route: u32,
    /// The leaf's value layout in the flat tree's `layouts`.
    layout_start: u32,
    layout_len: u32,
    direct: bool,
    /// Static children: `keys[keys..keys + n_keys]`.
    keys: u32,
    n_keys: u32,
    /// Beyond `LINEAR` static children: the node's open-addressed table at `slots[table..]`, of
    /// `mask + 1` entries (an index into the node's keys, `NONE` for empty).
    table: u32,
    mask: u32,
    /// The `/:param` child (`NONE` for none; of several, the one of smallest rank), the smallest
    /// rank below it, and its constraint's check in `Segments::checks` (`NONE` for a plain
    /// parameter, `SEVERAL` for several children).
    param: u32,
    param_rank: u32,
    param_check: u32,
    /// A parameter child of a node with several: its own check (`NONE`: plain) and the next child
    /// of the same node, by rank (`NONE`: the last). Unused (`NONE`) for a lone parameter child.
    own_check: u32,
    next_param: u32,
    /// The smallest rank below this node's other dynamic children (`NONE` for none).
    general_rank: u32,
}

/// A static child: a whole segment, its leading `/` included.
#[derive(Debug, Clone, Copy, Default)]
struct SegKey {
    /// Bytes 0..8 of the segment, zero-padded.
    w0: u64,
    len: u32,
    /// Where bytes 8.. are in `text` (segments longer than 8 bytes).
    rest: u32,
    child: u32,
}

/// The segment trie of a router's dynamic routes (definition order only).
#[derive(Debug, Clone, Default)]
pub(crate) struct Segments {
    nodes: Vec<SegNode>,
    keys: Vec<SegKey>,
    slots: Vec<u32>,
    text: Vec<u8>,
    /// The constrained parameter children's checks, and the matcher each was taken from (what a
    /// snapshot stores of them).
    checks: Vec<Check>,
    check_matchers: Vec<u32>,
    /// Root node per method id (`NONE` when the method has no dynamic routes).
    roots: Vec<u32>,
}

/// The lean walk's reusable buffers (in the caller's `Spans`: nothing allocated per lookup).
#[derive(Debug, Default)]
pub(crate) struct LeanBuffers {
    /// The best match's values, once the walk has to move on from them (see `Segments::search`).
    saved: Values,
    frames: [LeanFrame; LEAN_FRAMES],
}

/// A node whose parameter child is still to be tried, after its static child's subtree.
#[derive(Debug, Clone, Copy, Default)]
struct LeanFrame {
    node: u32,
    pos: u32,
    end: u32,
    depth: u32,
}

/// What the lean walk found: a route id (its values in the caller's buffer) or one of two codes, in
/// one `u32`: WebAssembly returns that in a register, where an enum with data comes back through
/// linear memory (a stack frame there, a store and a load on every lookup).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct Lean(u32);

impl Lean {
    pub(crate) const NOT_FOUND: Lean = Lean(NONE);
    /// A part of the trie the lean walk does not hold could beat its answer: walk the byte tree.
    pub(crate) const GENERAL: Lean = Lean(NONE - 1);

    #[inline(always)]
    pub(crate) const fn found(route: u32) -> Lean {
        Lean(route)
    }

    /// The route found, if any (route ids stay far below both codes).
    #[inline(always)]
    pub(crate) fn route(self) -> Option<u32> {
        (self.0 < NONE - 1).then_some(self.0)
    }
}

/// The slot of a key in a node's table of `mask + 1` entries: the top bits of a multiplicative
/// hash of its first word and length (the best-mixed bits).
#[inline(always)]
fn slot_of(w0: u64, len: usize, mask: u32) -> usize {
    let bits = mask.count_ones();
    ((w0 ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(NONE)
}

/// The first 8 bytes of `bytes` from `at`, zero-padded.
fn word_of(bytes: &[u8], at: usize) -> u64 {
    word_at(bytes, at) & mask_of(bytes.len().saturating_sub(at))
}

/// Numbers per node in a snapshot (see [`SegmentParts`]).
pub(crate) const NODE_WORDS: usize = 16;

/// The trie as plain numbers, for a router's snapshot (`router/snapshot/flat.rs`). A start from the
/// route cache loads the trie instead of building it from the flat tree: building it is a third of a
/// 10,000-route snapshot's load, in WebAssembly code that runs once, at its baseline speed.
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

/// The builder: the nodes in their final form (their static children are placed by `lay_out`),
/// and beside them what only the build needs. A table of 10,000 routes builds ~13,000 nodes while
/// the registration tree and the flat tree are alive, and WebAssembly memory keeps its peak: no
/// second copy of the nodes.
struct Builder {
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

    fn static_child(&mut self, at: u32, segment: &[u8]) -> u32 {
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
    fn param_child(&mut self, at: u32, matcher: u32, check: Option<&Check>) -> Option<u32> {
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

/// Where the conversion of a flat node starts: the trie's node, where its segment begins in the
/// text from the root (`Segments::build`'s `path`, cut back to `path_len`), and whether a parameter
/// ended just before (what follows must start a segment).
#[derive(Debug, Clone, Copy)]
struct Cursor {
    flat: u32,
    at: u32,
    path_len: usize,
    segment_start: usize,
    after_param: bool,
}

impl Segments {
    /// The segment trie of `flat`'s dynamic routes (`matchers`: the router's, by id), or `None` when
    /// the flat tree does not convert (a forged snapshot's, or static text right after a parameter):
    /// the byte walk then runs alone.
    pub(crate) fn build(flat: &Flat, matchers: &[Matcher]) -> Option<Self> {
        let mut b = Builder {
            nodes: Vec::with_capacity(flat.nodes.len()),
            parents: Vec::with_capacity(flat.nodes.len()),
            key_ranges: Vec::with_capacity(flat.nodes.len()),
            text: Vec::new(),
            checks: Vec::new(),
            check_matchers: Vec::new(),
            check_of_matcher: HashMap::default(),
            // About one static child per flat node: sized once instead of rehashed as it grows.
            index: HashMap::with_capacity_and_hasher(flat.nodes.len(), Default::default()),
            hasher: FixedState::default(),
        };
        let mut roots = Vec::with_capacity(flat.roots.len());
        let mut seen = vec![false; flat.nodes.len()];
        // The static text from the root to the node at hand (a parameter's place left empty).
        let mut path: Vec<u8> = Vec::new();
        for &root in &flat.roots {
            if root == NONE {
                roots.push(NONE);
                continue;
            }
            let at = b.push(NONE);
            roots.push(at);
            let mut stack = vec![Cursor {
                flat: root,
                at,
                path_len: 0,
                segment_start: 0,
                after_param: false,
            }];
            while let Some(mut cur) = stack.pop() {
                // A tree reaches each node once; a forged snapshot's might not.
                let seen = seen.get_mut(cur.flat as usize)?;
                if *seen {
                    return None;
                }
                *seen = true;
                path.truncate(cur.path_len);
                let node = flat.nodes.get(cur.flat as usize)?;
                if node.matcher != NONE {
                    let segment = path.get(cur.segment_start..).unwrap_or_default();
                    let child = match matchers.get(node.matcher as usize) {
                        _ if segment != b"/" => None,
                        _ if node.kind == KIND_SEGMENT => b.param_child(cur.at, node.matcher, None),
                        Some(Matcher::Segment(Some(check))) => {
                            b.param_child(cur.at, node.matcher, Some(check))
                        }
                        _ => None,
                    };
                    let Some(child) = child else {
                        // Not a parameter that is the whole segment: left to the byte walk, which
                        // the lean walk calls when this subtree could win.
                        let slot = &mut b.nodes.get_mut(cur.at as usize)?.general_rank;
                        *slot = (*slot).min(node.min_rank);
                        continue;
                    };
                    cur.at = child;
                    cur.segment_start = path.len();
                    cur.after_param = true;
                } else {
                    let start = node.label_start as usize;
                    let label = flat.labels.get(start..start + node.label_len as usize)?;
                    Self::feed(&mut b, &mut cur, &mut path, label)?;
                }
                if node.leaf_route != NONE {
                    let segment = path.get(cur.segment_start..).unwrap_or_default();
                    let at = if segment.is_empty() {
                        cur.at
                    } else {
                        b.static_child(cur.at, segment)
                    };
                    let leaf = b.nodes.get_mut(at as usize)?;
                    if node.leaf_rank < leaf.leaf_rank {
                        leaf.leaf_rank = node.leaf_rank;
                        leaf.leaf_route = node.leaf_route;
                        leaf.layout_start = node.layout_start;
                        leaf.layout_len = node.layout_len;
                        leaf.direct = node.direct;
                    }
                }
                if node.tail_len > 0 {
                    let tail = node.tail.to_le_bytes();
                    let tail = tail.get(..node.tail_len as usize)?;
                    Self::feed(&mut b, &mut cur, &mut path, tail)?;
                }
                if node.statics + node.n_statics != node.dynamics {
                    return None;
                }
                cur.path_len = path.len();
                for c in node.statics..node.dynamics + node.n_dynamics {
                    stack.push(Cursor { flat: c, ..cur });
                }
            }
        }
        // What only the build needed is freed, so that the arrays laid out next can take its
        // memory.
        drop(seen);
        drop(path);
        b.index = HashMap::default();
        b.check_of_matcher = HashMap::default();
        Some(Self::lay_out(b, roots))
    }

    /// Feeds static text: each `/` that does not start the segment at hand closes it, as a static
    /// child. Static text right after a parameter must start a segment.
    fn feed(b: &mut Builder, cur: &mut Cursor, path: &mut Vec<u8>, text: &[u8]) -> Option<()> {
        if text.is_empty() {
            return Some(());
        }
        if cur.after_param && text.first() != Some(&b'/') {
            return None;
        }
        cur.after_param = false;
        for &byte in text {
            if byte == b'/' && path.len() > cur.segment_start {
                let segment = path.get(cur.segment_start..).unwrap_or_default();
                cur.at = b.static_child(cur.at, segment);
                cur.segment_start = path.len();
            }
            path.push(byte);
        }
        Some(())
    }

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

    /// The root of a method's dynamic routes.
    #[inline(always)]
    pub(crate) fn root(&self, method_id: u32) -> Option<u32> {
        self.roots.get(method_id as usize).copied()
    }

    /// Whether `key` is the segment of `len` bytes at `pos` (`w0`: its first 8 bytes, masked).
    #[inline(always)]
    fn key_matches(&self, key: &SegKey, path: &[u8], pos: usize, len: usize, w0: u64) -> bool {
        key.w0 == w0 && key.len as usize == len && (len <= 8 || self.rest_matches(key, path, pos))
    }

    /// Bytes 8.. of a long key.
    #[inline(always)]
    fn rest_matches(&self, key: &SegKey, path: &[u8], pos: usize) -> bool {
        let (rest, n) = (key.rest as usize, key.len as usize - 8);
        match self.text.get(rest..rest + n) {
            Some(rest) => label_at(path, pos + 8, rest),
            None => false,
        }
    }

    /// The static child of `node` keyed by the segment `path[pos..end]` (`w`: `word_at(path, pos)`).
    #[inline(always)]
    fn static_child(
        &self,
        node: &SegNode,
        path: &[u8],
        pos: usize,
        end: usize,
        w: u64,
    ) -> Option<u32> {
        if node.n_keys == 0 {
            return None;
        }
        let len = end - pos;
        let w0 = w & mask_of(len);
        let keys = self
            .keys
            .get(node.keys as usize..(node.keys + node.n_keys) as usize)?;
        if node.n_keys <= LINEAR {
            return keys
                .iter()
                .find(|key| self.key_matches(key, path, pos, len, w0))
                .map(|key| key.child);
        }
        let mut s = slot_of(w0, len, node.mask);
        for _ in 0..=node.mask {
            let k = *self.slots.get(node.table as usize + s)?;
            let key = keys.get(k as usize)?;
            if self.key_matches(key, path, pos, len, w0) {
                return Some(key.child);
            }
            s = (s + 1) & node.mask as usize;
        }
        None
    }

    /// Whether `path[start..end]` satisfies check `check` (out of line: the loop stays small). A
    /// node with several parameter children passes: each child is checked when it is tried.
    #[inline(never)]
    fn passes(&self, check: u32, path: &[u8], start: usize, end: usize) -> bool {
        if check == SEVERAL {
            return true;
        }
        match (self.checks.get(check as usize), path.get(start..end)) {
            (Some(check), Some(value)) => check.matches(value),
            _ => false,
        }
    }

    /// Of the parameter children chained from `frame.node`, the first that can still beat
    /// `best_rank` and whose check the segment passes, and the child after it (`NONE`: none).
    #[inline(never)]
    fn pick_param(&self, frame: LeanFrame, path: &[u8], best_rank: u32) -> Option<(u32, u32)> {
        let mut c = frame.node;
        while let Some(child) = self.nodes.get(c as usize) {
            // The chain is ordered by rank: once one cannot win, neither can the rest.
            if child.min_rank >= best_rank {
                return None;
            }
            let (start, end) = (frame.pos as usize + 1, frame.end as usize);
            if child.own_check == NONE || self.passes(child.own_check, path, start, end) {
                return Some((c, child.next_param));
            }
            c = child.next_param;
        }
        None
    }

    /// Definition order's search from `root` (see the module's description). The values of the
    /// route found go to `out`, in the order of its layout in `layouts` (the flat tree's).
    ///
    /// One loop with its state in locals and its buffers in fixed arrays: no growth path, and no
    /// call on its common path (copying a best match aside is out of line and rare), which is what
    /// keeps it fast in WebAssembly.
    #[inline(never)]
    pub(crate) fn search(
        &self,
        root: u32,
        path: &[u8],
        buf: &mut LeanBuffers,
        out: &mut Values,
        layouts: &[u8],
    ) -> Lean {
        let Some(mut node) = self.nodes.get(root as usize) else {
            return Lean::NOT_FOUND;
        };
        // Positions, the frame count and the value count live in locals; the buffers are arrays.
        // The values are pushed straight into the answer, `out`: the best match's are usually
        // still in place when the walk ends, and copied aside (`saved`) only when resuming an
        // alternative is about to overwrite them. (A variable-length copy is a `memory.copy` in
        // WebAssembly, which V8 runs as a call out of the module: two per lookup cost ~10 ns.)
        let (mut pos, mut sp, mut nv) = (0usize, 0usize, 0usize);
        let (mut best_rank, mut best_nv) = (NONE, 0usize);
        let mut best_leaf = node;
        let mut best_saved = false;
        let mut general = NONE;
        let values = &mut out.slots;
        'outer: loop {
            if node.min_rank < best_rank {
                // What the byte walk alone handles below this node: the answer is final only if
                // none of it could beat it (checked at the end, when the best rank is known).
                general = general.min(node.general_rank);
                if pos >= path.len() {
                    // A parameter needs at least one byte: only the leaf can match here.
                    if node.leaf_rank < best_rank {
                        best_rank = node.leaf_rank;
                        best_leaf = node;
                        best_nv = nv;
                        best_saved = false;
                    }
                } else {
                    // The segment's end, from the word that also keys its static child: a `/`
                    // past the segment's first byte, else (8 bytes or more) the scan.
                    let w = word_at(path, pos);
                    let hit = has_byte(w & !0xff, b'/');
                    let end = if hit != 0 {
                        pos + (hit.trailing_zeros() / 8) as usize
                    } else if pos + 8 >= path.len() {
                        path.len()
                    } else {
                        segment_end(path, pos + 8)
                    };
                    let param = node.param != NONE
                        && node.param_rank < best_rank
                        && end > pos + 1
                        && path.get(pos) == Some(&b'/')
                        && (node.param_check == NONE
                            || self.passes(node.param_check, path, pos + 1, end));
                    let child = self
                        .static_child(node, path, pos, end, w)
                        .and_then(|c| self.nodes.get(c as usize));
                    // The parameter child waits on the alternatives' stack while a static child is
                    // walked; so do a node's several parameter children, tried in turn from there.
                    let several = node.param_check == SEVERAL;
                    if param && (child.is_some() || several) {
                        let Some(frame) = buf.frames.get_mut(sp) else {
                            return Lean::GENERAL;
                        };
                        *frame = LeanFrame {
                            node: node.param,
                            pos: pos as u32,
                            end: end as u32,
                            depth: nv as u32,
                        };
                        sp += 1;
                    }
                    if let Some(child) = child {
                        node = child;
                        pos = end;
                        continue;
                    }
                    if param && !several {
                        let Some(child) = self.nodes.get(node.param as usize) else {
                            return Lean::GENERAL;
                        };
                        let Some([s, e]) = values.get_mut(nv..nv + 2) else {
                            return Lean::GENERAL;
                        };
                        (*s, *e) = (pos as u32 + 1, end as u32);
                        nv += 2;
                        node = child;
                        pos = end;
                        continue;
                    }
                }
            }
            // Resume the newest alternative that can still win.
            while sp > 0 {
                sp -= 1;
                let Some(&frame) = buf.frames.get(sp) else {
                    return Lean::GENERAL;
                };
                let Some(mut child) = self.nodes.get(frame.node as usize) else {
                    return Lean::GENERAL;
                };
                if child.min_rank >= best_rank {
                    continue;
                }
                if child.own_check != NONE || child.next_param != NONE {
                    // One of several parameter children: the first from here that can still win
                    // and passes its check; the one after it is left as the next alternative.
                    let Some((found, next)) = self.pick_param(frame, path, best_rank) else {
                        continue;
                    };
                    let Some(found) = self.nodes.get(found as usize) else {
                        return Lean::GENERAL;
                    };
                    child = found;
                    if next != NONE {
                        let Some(slot) = buf.frames.get_mut(sp) else {
                            return Lean::GENERAL;
                        };
                        *slot = LeanFrame {
                            node: next,
                            ..frame
                        };
                        sp += 1;
                    }
                }
                nv = frame.depth as usize;
                if nv < best_nv && !best_saved {
                    save(&mut buf.saved, values, best_nv);
                    best_saved = true;
                }
                let Some([s, e]) = values.get_mut(nv..nv + 2) else {
                    return Lean::GENERAL;
                };
                (*s, *e) = (frame.pos + 1, frame.end);
                nv += 2;
                node = child;
                pos = frame.end as usize;
                continue 'outer;
            }
            break;
        }
        if general < best_rank {
            return Lean::GENERAL;
        }
        if best_rank == NONE {
            return Lean::NOT_FOUND;
        }
        let leaf = best_leaf;
        let start = leaf.layout_start as usize;
        let layout = layouts
            .get(start..start + leaf.layout_len as usize)
            .unwrap_or_default();
        if best_saved {
            out.copy_prefix(&buf.saved, best_nv);
        }
        if leaf.direct && best_nv >= 2 * layout.len() {
            out.len = 2 * layout.len();
        } else {
            out.len = best_nv;
            arrange(out, layout, &mut buf.saved);
        }
        Lean::found(leaf.leaf_route)
    }
}

/// Copies the best match's values aside (cold: only when a later alternative would overwrite them).
#[cold]
#[inline(never)]
fn save(saved: &mut Values, values: &[u32; 2 * MAX_VALUES], len: usize) {
    if let (Some(dst), Some(src)) = (saved.slots.get_mut(..len), values.get(..len)) {
        dst.copy_from_slice(src);
        saved.len = len;
    }
}

/// Rewrites `values` (a match's values, in push order) in the order of its leaf's `layout`, with
/// `NONE` pairs for absent ones (`scratch`: a buffer to copy them through). Cold: routes with an
/// optional parameter, or a regex block whose groups are not all named.
#[cold]
#[inline(never)]
fn arrange(values: &mut Values, layout: &[u8], scratch: &mut Values) {
    scratch.copy_prefix(values, values.len());
    values.clear();
    for &slot in layout {
        let at = 2 * slot as usize;
        let (s, e) = match scratch.as_slice().get(at..at + 2) {
            Some(&[s, e]) if slot != ABSENT => (s, e),
            _ => (NONE, NONE),
        };
        values.push_pair(s, e);
    }
}

/// The benchmarks' data loader, for the test below (one loader for the GitHub table).
#[cfg(test)]
#[path = "../benches/tables/mod.rs"]
mod bench_tables;

#[cfg(test)]
mod tests {
    use super::Lean;
    use crate::{Lookup, Order, RouteId, Router, RouterOptions, Spans, NONE};

    /// The lean walk's answer for `url` and the byte walk's, held to each other wherever the lean
    /// walk answers: the same route with the same spans, or no route.
    fn both_walks(router: &Router, method: &str, url: &str) -> (Lean, Option<RouteId>) {
        let flat = router.flat_for_tests();
        let segments = flat.segments.as_ref().expect("the table converts");
        let method_id = router.method_id(method).unwrap();
        let root = segments.root(method_id).unwrap();
        let (mut lean_spans, mut byte_spans) = (Spans::new(), Spans::new());
        let path = url.as_bytes();
        let lean = segments.search(
            root,
            path,
            &mut lean_spans.lean,
            &mut lean_spans.values,
            &flat.layouts,
        );
        let byte = router.walk_general(flat, method_id, path, &mut byte_spans);
        let byte = (byte != NONE).then_some(byte);
        if lean == Lean::NOT_FOUND {
            assert_eq!(byte, None, "{url}");
        } else if let Some(id) = lean.route() {
            assert_eq!(Some(id), byte, "{url}");
            assert_eq!(lean_spans.as_slice(), byte_spans.as_slice(), "{url}");
        }
        (lean, byte)
    }

    /// The lean walk answers every dynamic request of the GitHub table itself, with the byte walk's
    /// answers: the one route it does not hold, `compare/:base...:head` (a segment tail), is defined
    /// after the route that answers its request in definition order.
    /// `GET` routes registered in `order`, then each url's lean walk answer (held to the byte walk's
    /// by `both_walks`) against the table.
    fn expect_lean(order: Order, routes: &[&str], table: &[(&str, Lean)]) {
        let mut router = Router::new(RouterOptions {
            order,
            ..RouterOptions::default()
        });
        for pattern in routes {
            router.insert(&["GET"], pattern).unwrap();
        }
        for &(url, expected) in table {
            assert_eq!(both_walks(&router, "GET", url).0, expected, "{url}");
        }
    }

    /// Every dynamic request of the GitHub table in `order`, through both walks (held to each other
    /// by `both_walks`) and through the whole lookup (held to the byte walk): how many the lean walk
    /// answers, and the patterns of those it hands over.
    fn github_in(order: Order) -> (usize, Vec<String>) {
        let (routes, requests) = super::bench_tables::github();
        let mut router = Router::new(RouterOptions {
            order,
            ..RouterOptions::default()
        });
        for (method, pattern) in &routes {
            router.insert(&[method.as_str()], pattern).unwrap();
        }
        let mut spans = Spans::new();
        let (mut answered, mut handed_over) = (0, vec![]);
        for ((method, pattern), (_, url)) in routes.iter().zip(&requests) {
            if !pattern.contains(':') {
                continue;
            }
            let (lean, byte) = both_walks(&router, method, url);
            assert_ne!(
                lean,
                Lean::NOT_FOUND,
                "{url}: every request matches a route"
            );
            assert!(byte.is_some(), "{url}: every request matches a route");
            if lean.route().is_some() {
                answered += 1;
            } else {
                handed_over.push(pattern.clone());
            }
            let method_id = router.method_id(method).unwrap();
            let whole = router.lookup(method_id, url.as_bytes(), &mut spans);
            assert_eq!(whole, byte.map_or(Lookup::NotFound, Lookup::Found), "{url}");
        }
        (answered, handed_over)
    }

    /// The lean walk answers every dynamic request of the GitHub table itself, with the byte walk's
    /// answers: the one route it does not hold, `compare/:base...:head` (a segment tail), is defined
    /// after the route that answers its request in definition order.
    #[test]
    fn lean_walk_answers_github_like_the_byte_walk() {
        assert_eq!(github_in(Order::Definition), (454, vec![]));
    }

    /// A constrained parameter that is the whole segment is a parameter child: the lean walk checks
    /// the value, and tries a node's several parameter children (`/pages/:id<int>` and
    /// `/pages/:slug`) in definition order, each with its own check. What it does not hold sends a
    /// lookup to the byte walk only when it could beat the lean walk's answer.
    #[test]
    fn lean_walk_checks_a_constrained_parameter_child() {
        let routes = [
            "/posts/:id<int>",
            "/posts/:id<int>/archive/:year<year>",
            "/tags/:tag<[a-z]+>/posts",
            "/pages/:id<int>",
            "/pages/:slug",
            "/users/:name/profile",
            "/users/:id<int>/settings",
            "/v/:a<int>/x",
            "/v/:b<[a-f]+>/y",
            "/v/:c/z",
            "/w/:a<[a-z]+>/k",
            "/w/s/:t",
            "/w/:c/:d",
            "/f/:id<int>",
            "/f/*",
            "/f/:name/raw",
            "/g/:x",
            "/g/h*",
        ];
        let table: [(&str, Lean); 21] = [
            ("/posts/42", Lean::found(0)),
            ("/posts/42/archive/2024", Lean::found(1)),
            ("/posts/42/archive/2024x", Lean::NOT_FOUND),
            ("/posts/abc", Lean::NOT_FOUND),
            ("/tags/rust/posts", Lean::found(2)),
            ("/tags/Rust/posts", Lean::NOT_FOUND),
            ("/pages/42", Lean::found(3)),
            ("/pages/about", Lean::found(4)),
            // The first child's subtree has no `/settings`: the next child is tried.
            ("/users/42/settings", Lean::found(6)),
            ("/users/ann/settings", Lean::NOT_FOUND),
            ("/users/42/profile", Lean::found(5)),
            // Three children: a failed check skips to the next one, whose subtree is walked.
            ("/v/abc/z", Lean::found(9)),
            ("/v/ab/y", Lean::found(8)),
            ("/v/12/x", Lean::found(7)),
            ("/v/12/y", Lean::NOT_FOUND),
            // The static child answers first (11); of the parameter children, the one defined
            // earlier (10) still beats it, the later one (12) cannot.
            ("/w/s/k", Lean::found(10)),
            ("/w/s/z", Lean::found(11)),
            // What the byte walk alone handles (a wildcard, text before one in its segment) keeps
            // a lookup only when it could beat the lean walk's answer: `/f/:id<int>` is defined
            // before `/f/*`, `/g/:x` before `/g/h*`.
            ("/f/12", Lean::found(13)),
            ("/f/ab", Lean::GENERAL),
            ("/f/ab/raw", Lean::GENERAL),
            ("/g/hello", Lean::found(16)),
        ];
        expect_lean(Order::Definition, &routes, &table);
    }

    /// In specificity order the leaves are ranked in the byte walk's depth-first order, so the
    /// lean walk's smallest rank is the byte walk's first match: a static segment before a
    /// constrained parameter, before a plain one, whatever the definition order.
    #[test]
    fn lean_walk_follows_specificity_order() {
        let routes = [
            "/w/:a<[a-z]+>/k",
            "/w/s/:t",
            "/w/:c/:d",
            "/q/:any",
            "/q/:n<int>",
            "/q/:n<int>/x",
            "/users/:name/profile",
            "/users/:id<int>/settings",
            "/f/*",
            "/f/:name/raw",
            "/f/:id<int>",
            "/g/:x",
            "/g/h*",
            "/t/:id",
            "/t/:name.json",
            "/t/:name.:ext",
        ];
        let table: [(&str, Lean); 16] = [
            // The static segment first (defined after the constrained parameter).
            ("/w/s/k", Lean::found(1)),
            ("/w/s/z", Lean::found(1)),
            ("/w/b/k", Lean::found(0)),
            ("/w/b/z", Lean::found(2)),
            ("/w/B/k", Lean::found(2)),
            // The constrained parameter before the plain one (defined first).
            ("/q/5", Lean::found(4)),
            ("/q/five", Lean::found(3)),
            ("/q/5/x", Lean::found(5)),
            ("/q/five/x", Lean::NOT_FOUND),
            ("/users/42/settings", Lean::found(7)),
            ("/users/42/profile", Lean::found(6)),
            // A wildcard comes last: handed over only when nothing before it matched.
            ("/f/12", Lean::found(10)),
            ("/f/ab/raw", Lean::found(9)),
            ("/f/ab", Lean::GENERAL),
            // Static text before a wildcard (`h`) comes before a parameter: the byte walk's.
            ("/g/hello", Lean::GENERAL),
            // Segment tails (`:name.json`) come before a plain parameter, and only the byte walk
            // knows whether they match.
            ("/t/abc", Lean::GENERAL),
        ];
        expect_lean(Order::Specificity, &routes, &table);
    }

    /// The GitHub table in specificity order: the lean walk answers every dynamic request like the
    /// byte walk, but the one a segment tail answers.
    #[test]
    fn lean_walk_answers_github_in_specificity_order() {
        let compare = "/repos/:owner/:repo/compare/:base...:head".to_string();
        assert_eq!(github_in(Order::Specificity), (453, vec![compare]));
    }

    /// A router loaded from its snapshot walks the trie it was saved with: the same numbers, not a
    /// rebuilt one, in either order.
    #[test]
    fn a_snapshot_keeps_the_trie() {
        use super::Segments;
        let (routes, _) = super::bench_tables::github();
        for order in [Order::Definition, Order::Specificity] {
            let mut router = Router::new(RouterOptions {
                order,
                ..RouterOptions::default()
            });
            for (method, pattern) in &routes {
                router.insert(&[method.as_str()], pattern).unwrap();
            }
            let saved = router
                .flat_for_tests()
                .segments
                .as_ref()
                .map(Segments::parts);
            assert!(saved.is_some(), "the GitHub table converts");
            let loaded = Router::deserialize(&router.serialize()).unwrap();
            let parts = loaded
                .flat_for_tests()
                .segments
                .as_ref()
                .map(Segments::parts);
            assert_eq!(parts, saved);
        }
    }

    /// What `from_parts` refuses: numbers a build never makes, each of which could make a forged
    /// snapshot's walk loop, read past an array or answer spans that disagree with its route.
    #[test]
    fn from_parts_refuses_what_could_loop_or_lie() {
        use super::{SegmentParts, Segments, LINEAR, SEVERAL};
        let mut router = Router::new(RouterOptions::default());
        for pattern in [
            "/pages/:id<int>",
            "/pages/:slug",
            "/pages/:id<int>/x",
            "/a/b",
        ] {
            router.insert(&["GET"], pattern).unwrap();
        }
        let parts = router
            .flat_for_tests()
            .segments
            .as_ref()
            .map(Segments::parts)
            .expect("converts");
        let load = |parts: SegmentParts| {
            Segments::from_parts(parts, router.matchers_for_tests(), 1, |_, _, _| true).is_some()
        };
        assert!(load(parts.clone()), "the build's own numbers load");
        // The node with two parameter children, and its first child (the chain's head).
        let several = parts
            .nodes
            .iter()
            .position(|n| n[12] == SEVERAL)
            .expect("a node with several parameter children");
        let head = parts.nodes[several][10] as usize;
        let second = parts.nodes[head][14] as usize;
        type Forge = Box<dyn Fn(&mut SegmentParts)>;
        let refused: [(&str, Forge); 7] = [
            (
                "a chain that comes back",
                Box::new(move |p| p.nodes[second][14] = head as u32),
            ),
            (
                "a chain that links to itself",
                Box::new(move |p| p.nodes[head][14] = head as u32),
            ),
            ("a boolean that is not one", Box::new(|p| p.nodes[0][5] = 2)),
            ("keys past the end", Box::new(|p| p.nodes[0][7] = u32::MAX)),
            (
                "a check past the end",
                Box::new(move |p| p.nodes[head][13] = 99),
            ),
            ("a root past the end", Box::new(|p| p.roots[0] = 1 << 20)),
            (
                "a check taken from a plain matcher",
                Box::new(|p| p.check_matchers[0] = 99),
            ),
        ];
        for (what, change) in refused {
            let mut forged = parts.clone();
            change(&mut forged);
            assert!(!load(forged), "{what}");
        }
        let mut tabled = parts.clone();
        tabled.nodes[0][7] = LINEAR + 1;
        tabled.nodes[0][6] = 0;
        tabled.keys.resize(LINEAR as usize + 1, (0, [0, 0, 0]));
        tabled.nodes[0][9] = 0;
        assert!(!load(tabled), "a hash table of one slot");
        let refused_leaf =
            Segments::from_parts(parts, router.matchers_for_tests(), 1, |_, _, _| false);
        assert!(
            refused_leaf.is_none(),
            "a leaf whose layout does not fit its route"
        );
    }
}

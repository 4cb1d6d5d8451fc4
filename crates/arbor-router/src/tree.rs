//! The mutable radix tree built by `insert` (one root per method), and its flattening into the
//! immutable arrays that `lookup` walks (`Flat`).
//!
//! Static edges are compressed (a node's label is the text of its incoming edge) and siblings have
//! distinct first bytes, so at most one static child can match at any point. Dynamic children are
//! keyed by their matcher id, so routes with the same parameter shape share nodes.

use crate::route::Step;
use crate::segments::Segments;
use crate::statics::Statics;
use crate::words::mask_of;
use crate::{RouteId, NONE};

/// A route ending at a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Leaf {
    pub(crate) route: RouteId,
    /// `id` for static routes, `id | 1 << 31` for dynamic ones: an exact static route always wins
    /// (SPEC 3.2), then the smallest id (definition order).
    pub(crate) rank: u32,
    pub(crate) layout: Vec<u8>,
}

/// Rank of a route: the value the definition-order search minimises.
pub(crate) fn rank_of(id: RouteId, is_static: bool) -> u32 {
    if is_static {
        id
    } else {
        id | 1 << 31
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BNode {
    /// Incoming static edge text (empty for roots and dynamic nodes).
    pub(crate) label: Vec<u8>,
    /// Dynamic node: the matcher id.
    pub(crate) matcher: Option<u32>,
    pub(crate) statics: Vec<u32>,
    pub(crate) dynamics: Vec<u32>,
    pub(crate) leaf: Option<Leaf>,
}

/// The builder: an arena of nodes and one root per method id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<BNode>,
    pub(crate) roots: Vec<u32>,
}

/// A step with its dynamic matcher resolved to an id.
pub(crate) enum Key<'a> {
    Lit(&'a [u8]),
    Dyn(u32),
}

pub(crate) fn keys<'a>(steps: &'a [Step], ids: &[Option<u32>]) -> Option<Vec<Key<'a>>> {
    steps
        .iter()
        .zip(ids)
        .map(|(s, id)| match s {
            Step::Lit(b) => Some(Key::Lit(b)),
            Step::Dyn(..) => id.map(Key::Dyn),
        })
        .collect()
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl Tree {
    fn node(&self, idx: u32) -> Option<&BNode> {
        self.nodes.get(idx as usize)
    }

    /// `(method, full path, route)` of every static route (a leaf with a static rank), for the
    /// static table. Static routes have only static edges: a walk over static children finds them.
    fn static_routes(&self) -> Vec<(u32, Vec<u8>, RouteId)> {
        let mut found = Vec::new();
        for (method, &root) in self.roots.iter().enumerate() {
            let method = u32::try_from(method).unwrap_or(NONE);
            // Each entry's text already ends with its node's label, allocated at its final size.
            let with_label = |text: &[u8], idx: u32| {
                let label = self.node(idx).map_or(&[][..], |n| n.label.as_slice());
                let mut out = Vec::with_capacity(text.len() + label.len());
                out.extend_from_slice(text);
                out.extend_from_slice(label);
                out
            };
            let mut stack: Vec<(u32, Vec<u8>)> = vec![(root, with_label(&[], root))];
            while let Some((idx, text)) = stack.pop() {
                let Some(node) = self.node(idx) else {
                    continue;
                };
                stack.extend(node.statics.iter().map(|&c| (c, with_label(&text, c))));
                if let Some(leaf) = node.leaf.as_ref().filter(|l| l.rank < 1 << 31) {
                    found.push((method, text, leaf.route));
                }
            }
        }
        found
    }

    /// The root of a method, created on demand.
    pub(crate) fn root(&mut self, method: u32) -> u32 {
        while self.roots.len() <= method as usize {
            let root = self.push(BNode::default());
            self.roots.push(root);
        }
        self.roots.get(method as usize).copied().unwrap_or(NONE)
    }

    fn push(&mut self, node: BNode) -> u32 {
        self.nodes.push(node);
        u32::try_from(self.nodes.len() - 1).unwrap_or(NONE)
    }

    /// Creates the path of `keys` under a method's root and puts `leaf` at its end (the caller has
    /// checked for conflicts).
    pub(crate) fn insert(&mut self, method: u32, keys: &[Key<'_>], leaf: Leaf) {
        let mut at = self.root(method);
        for key in keys {
            match key {
                Key::Lit(mut text) => {
                    while let Some(&first) = text.first() {
                        at = self.static_step(at, first, &mut text);
                    }
                }
                Key::Dyn(m) => {
                    let existing = self.node(at).and_then(|node| {
                        node.dynamics
                            .iter()
                            .copied()
                            .find(|&c| self.node(c).and_then(|n| n.matcher) == Some(*m))
                    });
                    at = match existing {
                        Some(c) => c,
                        None => {
                            let c = self.push(BNode {
                                matcher: Some(*m),
                                ..BNode::default()
                            });
                            if let Some(node) = self.nodes.get_mut(at as usize) {
                                node.dynamics.push(c);
                            }
                            c
                        }
                    };
                }
            }
        }
        // Two routes can reach one leaf without conflicting (`/f/:a?` and `/f/:b`; a static route
        // and the variant of an optional one without it): the lower rank keeps it, i.e. a static
        // route, else the earlier one (SPEC §3 rules 2 and 3).
        if let Some(node) = self.nodes.get_mut(at as usize) {
            if node.leaf.as_ref().is_none_or(|old| leaf.rank < old.rank) {
                node.leaf = Some(leaf);
            }
        }
    }

    /// Follows (splitting or creating as needed) the static child of `at` that starts with `first`,
    /// consuming what it matched from `text`; returns the node reached.
    fn static_step(&mut self, at: u32, first: u8, text: &mut &[u8]) -> u32 {
        let found = self.node(at).and_then(|node| {
            node.statics
                .iter()
                .enumerate()
                .find(|(_, &c)| self.node(c).and_then(|n| n.label.first()) == Some(&first))
                .map(|(slot, &c)| (slot, c))
        });
        let Some((slot, child)) = found else {
            let c = self.push(BNode {
                label: text.to_vec(),
                ..BNode::default()
            });
            if let Some(node) = self.nodes.get_mut(at as usize) {
                node.statics.push(c);
            }
            *text = &[];
            return c;
        };
        let label = self
            .node(child)
            .map(|n| n.label.clone())
            .unwrap_or_default();
        let cp = common_prefix(&label, text);
        if cp < label.len() {
            // Split the edge: `mid` takes the common part, `child` keeps the rest.
            let mid = self.push(BNode {
                label: label.get(..cp).unwrap_or_default().to_vec(),
                statics: vec![child],
                ..BNode::default()
            });
            if let Some(node) = self.nodes.get_mut(child as usize) {
                node.label = label.get(cp..).unwrap_or_default().to_vec();
            }
            if let Some(s) = self
                .nodes
                .get_mut(at as usize)
                .and_then(|n| n.statics.get_mut(slot))
            {
                *s = mid;
            }
            *text = text.get(cp..).unwrap_or_default();
            return mid;
        }
        *text = text.get(cp..).unwrap_or_default();
        child
    }

    /// Nodes reachable from the roots, parents before children, each exactly once; `None` when the
    /// arena is not a forest (a node reached twice, which `insert` never builds).
    pub(crate) fn topological(&self) -> Option<Vec<u32>> {
        let mut seen = vec![false; self.nodes.len()];
        let mut order = Vec::with_capacity(self.nodes.len());
        for &root in &self.roots {
            let mut queue = vec![root];
            while let Some(idx) = queue.pop() {
                let flag = seen.get_mut(idx as usize)?;
                if *flag {
                    return None;
                }
                *flag = true;
                order.push(idx);
                let node = self.node(idx)?;
                queue.extend(node.statics.iter().chain(&node.dynamics));
            }
        }
        Some(order)
    }
}

/// A node of the flattened tree. Children are contiguous: static children at
/// `statics..statics + n_statics` (sorted by first byte), dynamic children at
/// `dynamics..dynamics + n_dynamics`, already in trial order.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FlatNode {
    /// The first (up to) 8 bytes of the label, little-endian, zero-padded: most labels fit, and
    /// one masked 8-byte compare replaces the slice compare (longer labels: the first 8 bytes, then
    /// the rest from `labels`).
    pub(crate) head: u64,
    /// Which bytes of `head` belong to the label (`0xff` per byte).
    pub(crate) head_mask: u64,
    /// Bytes 8..16 of the label and their mask (zero for labels up to 8 bytes): labels up to 16
    /// bytes are compared without reading `labels`.
    pub(crate) head2: u64,
    pub(crate) head2_mask: u64,
    /// The first bytes of up to 8 static children, in child order, padded with `0xff` (never a
    /// byte of a walked path, which is ASCII): one SWAR compare finds the child.
    pub(crate) firsts: u64,
    /// For more than 8 static children: the start of this node's 256-entry table in
    /// `Flat::fanout` (one load finds the child instead of a binary search's chain of loads).
    pub(crate) fanout: u32,
    pub(crate) label_start: u32,
    pub(crate) label_len: u32,
    pub(crate) statics: u32,
    pub(crate) n_statics: u32,
    pub(crate) dynamics: u32,
    pub(crate) n_dynamics: u32,
    pub(crate) matcher: u32,
    /// Static text that follows the node's own match before its children (up to 8 bytes, `tail_len`
    /// 0 for none), with its mask: the lone static child of a node with a leaf or a dynamic node,
    /// merged into it (`tree::flatten`). The children are matched after it; the leaf before it.
    pub(crate) tail: u64,
    pub(crate) tail_mask: u64,
    pub(crate) tail_len: u32,
    /// Smallest leaf rank in this subtree: the search skips a subtree that cannot beat its best.
    pub(crate) min_rank: u32,
    pub(crate) leaf_route: u32,
    pub(crate) leaf_rank: u32,
    pub(crate) layout_start: u32,
    pub(crate) layout_len: u32,
    /// `KIND_SEGMENT` for an unconstrained segment parameter (the common case, checked without
    /// looking at the matcher), `KIND_OTHER` otherwise.
    pub(crate) kind: u8,
    /// Whether the leaf's layout is `0..layout_len` (the values in push order: most routes), so
    /// `write_spans` copies them without reading the layout.
    pub(crate) direct: bool,
    /// Specificity order only: the class of the run of sibling segment tails of one class this node
    /// belongs to (0 for none). Such a run is tried in an order that depends on the path
    /// (`lookup::order_tails`); its first node has the kind `KIND_TAIL_RUN`.
    pub(crate) run: u8,
}

pub(crate) const KIND_OTHER: u8 = 0;
pub(crate) const KIND_SEGMENT: u8 = 1;
/// The first node of a run of at least two sibling segment tails of one class (specificity order).
pub(crate) const KIND_TAIL_RUN: u8 = 2;

/// The order of a dynamic child in specificity order: its class (`MatcherSpec::specificity_class`)
/// and whether it is a segment tail (`{f}oo`, `:a.:b`), whose siblings of the same class are
/// compared on the path itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Class {
    pub(crate) rank: u8,
    pub(crate) tail: bool,
}

/// The immutable, flattened tree walked by `lookup`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Flat {
    pub(crate) nodes: Vec<FlatNode>,
    /// 256-entry tables of large fan-outs: child offset + 1 by first byte, 0 for none.
    pub(crate) fanout: Vec<u16>,
    pub(crate) labels: Vec<u8>,
    pub(crate) layouts: Vec<u8>,
    /// Root node per method id (`NONE` when the method has no dynamic routes).
    pub(crate) roots: Vec<u32>,
    /// The static routes, looked up before the walk (their leaves are left out of `nodes`).
    pub(crate) statics: Statics,
    /// Per method id: whether some dynamic route can match a path ending in `/` (see
    /// [`slash_ends`]); when not, the trailing-slash retry that adds a slash skips the walk.
    pub(crate) slash_ends: Vec<bool>,
    /// The lean walk's trie of whole segments over the same dynamic routes, tried before `nodes`
    /// (`segments/`); `None` when the tree does not convert.
    pub(crate) segments: Option<Segments>,
}

impl Flat {
    /// Specificity order as ranks: each leaf's rank becomes its place in the order the byte walk
    /// tries the tree (depth first; at each node its leaf, then its static children, then its
    /// dynamic children in their specificity order), and each node's `min_rank` the smallest below
    /// it. The first match of that walk is then the matching leaf of smallest rank, which is what
    /// the lean walk finds (`segments/`). The one exception is a run of sibling segment tails,
    /// which the byte walk orders on the path itself: the lean walk never holds those, and the run's
    /// ranks are contiguous, so it still compares them rightly with everything else. (The byte walk
    /// itself only checks whether ranks are `NONE` in specificity order: it stops at the first
    /// match.) Returns `false`, ranks half rewritten, when a node is reached twice, which only a
    /// forged snapshot's tree can do.
    pub(crate) fn rank_depth_first(&mut self) -> bool {
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = Vec::new();
        for &root in &self.roots {
            if root == NONE {
                continue;
            }
            stack.push(root);
            while let Some(idx) = stack.pop() {
                match seen.get_mut(idx as usize) {
                    Some(flag) if !*flag => *flag = true,
                    _ => return false,
                }
                order.push(idx);
                let Some(node) = self.nodes.get(idx as usize) else {
                    return false;
                };
                // Pushed last-first, so that static children come off the stack first, then the
                // dynamic ones in their order.
                stack.extend((node.dynamics..node.dynamics + node.n_dynamics).rev());
                stack.extend((node.statics..node.statics + node.n_statics).rev());
            }
        }
        let mut rank = 0;
        for &idx in &order {
            if let Some(node) = self.nodes.get_mut(idx as usize) {
                if node.leaf_rank != NONE {
                    node.leaf_rank = rank;
                    rank += 1;
                }
            }
        }
        // Children come after their parent in `order`: a reverse pass computes the minimums.
        for &idx in order.iter().rev() {
            let Some(node) = self.nodes.get(idx as usize) else {
                continue;
            };
            let children = (node.statics..node.statics + node.n_statics)
                .chain(node.dynamics..node.dynamics + node.n_dynamics);
            let below = children
                .filter_map(|c| self.nodes.get(c as usize))
                .map(|child| child.min_rank)
                .fold(node.leaf_rank, u32::min);
            if let Some(node) = self.nodes.get_mut(idx as usize) {
                node.min_rank = below;
            }
        }
        true
    }
}

/// Per method: whether a dynamic leaf can end right after a `/`, i.e. its last piece is static
/// text ending in `/`, or a matcher that runs to the end of the path (`runs_to_end`: a wildcard or
/// a regex block). Parameters and segment tails stop before a `/`, so they never can.
pub(crate) fn slash_ends(tree: &Tree, runs_to_end: &dyn Fn(u32) -> bool) -> Vec<bool> {
    // `seen` guards against a node reached twice, which only a corrupt snapshot can hold.
    let mut seen = vec![false; tree.nodes.len()];
    tree.roots
        .iter()
        .map(|&root| {
            let mut stack = vec![root];
            while let Some(idx) = stack.pop() {
                match seen.get_mut(idx as usize) {
                    Some(flag) if !*flag => *flag = true,
                    _ => continue,
                }
                let Some(node) = tree.nodes.get(idx as usize) else {
                    continue;
                };
                let ends = match node.matcher {
                    Some(m) => runs_to_end(m),
                    None => node.label.last() == Some(&b'/'),
                };
                if ends && dynamic_leaf(node).is_some() {
                    return true;
                }
                stack.extend(node.statics.iter().chain(&node.dynamics));
            }
            false
        })
        .collect()
}

/// The leaf the flattened tree keeps: dynamic routes only (static ones are in `Flat::statics`).
fn dynamic_leaf(node: &BNode) -> Option<&Leaf> {
    node.leaf.as_ref().filter(|l| l.rank >= 1 << 31)
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(NONE)
}

/// Flattens the builder. `class` gives the specificity class of a matcher, or `None` in definition
/// order (dynamic children are then sorted by their subtree's smallest rank: most promising first,
/// and the search can stop at the first child that cannot win).
pub(crate) fn flatten(
    tree: &Tree,
    class: Option<&dyn Fn(u32) -> Class>,
    is_plain_segment: &dyn Fn(u32) -> bool,
) -> Flat {
    let Some(order) = tree.topological() else {
        return Flat::default();
    };
    let mut min_rank = vec![NONE; tree.nodes.len()];
    for &idx in order.iter().rev() {
        let Some(node) = tree.nodes.get(idx as usize) else {
            continue;
        };
        let mut m = dynamic_leaf(node).map_or(NONE, |l| l.rank);
        for &c in node.statics.iter().chain(&node.dynamics) {
            m = m.min(min_rank.get(c as usize).copied().unwrap_or(NONE));
        }
        if let Some(slot) = min_rank.get_mut(idx as usize) {
            *slot = m;
        }
    }
    let rank = |c: u32| min_rank.get(c as usize).copied().unwrap_or(NONE);
    // A static node with no leaf, no dynamic child and one static child (left by static routes,
    // which the flat tree does not hold, or by edge splits) is merged with that child: one node and
    // one label compare instead of a chain. Returns the last node of the chain starting at `c`.
    let chain_end = |mut c: u32| loop {
        let Some(node) = tree.nodes.get(c as usize) else {
            return c;
        };
        if node.matcher.is_some()
            || dynamic_leaf(node).is_some()
            || node.dynamics.iter().any(|&d| rank(d) != NONE)
        {
            return c;
        }
        let mut live = node.statics.iter().copied().filter(|&s| rank(s) != NONE);
        match (live.next(), live.next()) {
            (Some(only), None) => c = only,
            _ => return c,
        }
    };

    // The text of the chain `first..=last` (each node's first live static child down to `last`).
    let chain_label = |first: u32, last: u32, out: &mut Vec<u8>| {
        out.clear();
        let mut at = first;
        while let Some(n) = tree.nodes.get(at as usize) {
            out.extend_from_slice(&n.label);
            if at == last {
                break;
            }
            match n.statics.iter().copied().find(|&s| rank(s) != NONE) {
                Some(next) => at = next,
                None => break,
            }
        }
    };
    // A node that `chain_end` cannot merge with its lone static child because it has a leaf or is
    // dynamic (`:id` then `/`) keeps that child's chain as its tail when the chain has no leaf and
    // fits a word: one masked compare after the node instead of a node of its own. Returns the
    // chain's text and last node, whose children the node then takes.
    let tail_of = |c: u32| {
        let node = tree.nodes.get(c as usize)?;
        if node.dynamics.iter().any(|&d| rank(d) != NONE) {
            return None;
        }
        let mut live = node.statics.iter().copied().filter(|&s| rank(s) != NONE);
        let (Some(x), None) = (live.next(), live.next()) else {
            return None;
        };
        let last = chain_end(x);
        let mut text = Vec::new();
        chain_label(x, last, &mut text);
        let leafless = tree
            .nodes
            .get(last as usize)
            .is_some_and(|n| dynamic_leaf(n).is_none());
        (leafless && text.len() <= 8).then_some((text, last))
    };

    let mut flat = Flat {
        statics: Statics::build(tree.static_routes()),
        ..Flat::default()
    };
    // Breadth-first so that each node's children get contiguous indices.
    // Entries are chains (first node, last node): the label is theirs end to end, the rest is the
    // last node's.
    let mut queue: Vec<(u32, u32)> = Vec::with_capacity(tree.nodes.len());
    // Per queued node: the class of its run of segment tails (0 for none), and whether it starts one.
    let mut runs: Vec<(u8, bool)> = Vec::with_capacity(tree.nodes.len());
    let mut label: Vec<u8> = Vec::new();
    // Sized up front (chains merge nodes, so these are upper bounds): growing the arrays of a large
    // table by doubling was a quarter of the flattening's instructions.
    flat.nodes.reserve(tree.nodes.len());
    flat.labels
        .reserve(tree.nodes.iter().map(|n| n.label.len()).sum::<usize>());
    // The children of the node at hand, reused from node to node.
    let mut statics: Vec<u32> = Vec::new();
    let mut dynamics: Vec<u32> = Vec::new();
    for &root in &tree.roots {
        if rank(root) == NONE {
            flat.roots.push(NONE);
            continue;
        }
        flat.roots.push(to_u32(queue.len()));
        // The root is merged with a lone static child too (`/`): its label is checked at offset 0.
        queue.push((root, chain_end(root)));
        runs.push((0, false));
        let mut head = queue.len() - 1;
        while let Some(&(first, old)) = queue.get(head) {
            head += 1;
            let (run, starts_run) = runs.get(head - 1).copied().unwrap_or((0, false));
            let Some(node) = tree.nodes.get(old as usize) else {
                continue;
            };
            chain_label(first, old, &mut label);
            // The children are those of the tail's last node, when the node has a tail.
            let (tail_len, tail, tail_mask, kids) = match tail_of(old) {
                Some((text, last)) => {
                    let mut word = [0u8; 8];
                    for (dst, src) in word.iter_mut().zip(&text) {
                        *dst = *src;
                    }
                    (
                        to_u32(text.len()),
                        u64::from_le_bytes(word),
                        mask_of(text.len()),
                        last,
                    )
                }
                None => (0, 0, 0, old),
            };
            let Some(kids) = tree.nodes.get(kids as usize) else {
                continue;
            };
            statics.clear();
            statics.extend(kids.statics.iter().copied().filter(|&c| rank(c) != NONE));
            // Sorted by first byte (deterministic layout; large fan-outs also get a table).
            statics.sort_by_key(|&c| {
                tree.nodes
                    .get(c as usize)
                    .and_then(|n| n.label.first())
                    .copied()
            });
            dynamics.clear();
            dynamics.extend(kids.dynamics.iter().copied().filter(|&c| rank(c) != NONE));
            let class_of = |c: u32| {
                let m = tree.nodes.get(c as usize).and_then(|n| n.matcher);
                match (class, m) {
                    (Some(class), Some(m)) => class(m),
                    _ => Class {
                        rank: u8::MAX,
                        tail: false,
                    },
                }
            };
            match class {
                Some(_) => dynamics.sort_by_key(|&c| (class_of(c).rank, rank(c))),
                None => dynamics.sort_by_key(|&c| rank(c)),
            }
            let statics_at = to_u32(queue.len());
            queue.extend(statics.iter().map(|&c| (c, chain_end(c))));
            runs.extend(statics.iter().map(|_| (0, false)));
            queue.extend(dynamics.iter().map(|&c| (c, c)));
            // Runs of at least two segment tails of one class (specificity order only).
            for (k, &c) in dynamics.iter().enumerate() {
                let here = class_of(c);
                let same = |other: Option<&u32>| {
                    other.is_some_and(|&o| {
                        let there = class_of(o);
                        there.tail && there.rank == here.rank
                    })
                };
                let before = k.checked_sub(1).and_then(|b| dynamics.get(b));
                let run = here.tail && (same(before) || same(dynamics.get(k + 1)));
                let starts = run && !same(before);
                runs.push((if run { here.rank.max(1) } else { 0 }, starts));
            }
            let label_start = to_u32(flat.labels.len());
            flat.labels.extend_from_slice(&label);
            let layout_start = to_u32(flat.layouts.len());
            let direct = dynamic_leaf(node).is_some_and(|l| {
                l.layout
                    .iter()
                    .enumerate()
                    .all(|(k, &slot)| usize::from(slot) == k)
            });
            let (leaf_route, leaf_rank, layout_len) = match dynamic_leaf(node) {
                Some(leaf) => {
                    flat.layouts.extend_from_slice(&leaf.layout);
                    (leaf.route, leaf.rank, to_u32(leaf.layout.len()))
                }
                None => (NONE, NONE, 0),
            };
            let mut head = [0u8; 8];
            for (dst, src) in head.iter_mut().zip(&label) {
                *dst = *src;
            }
            let mut firsts = [0xffu8; 8];
            for (dst, &c) in firsts.iter_mut().zip(&statics) {
                *dst = tree
                    .nodes
                    .get(c as usize)
                    .and_then(|n| n.label.first())
                    .copied()
                    .unwrap_or(0xff);
            }
            let mut head2 = [0u8; 8];
            for (dst, src) in head2.iter_mut().zip(label.iter().skip(8)) {
                *dst = *src;
            }
            let mut fanout = NONE;
            if statics.len() > 8 {
                fanout = to_u32(flat.fanout.len());
                let mut table = [0u16; 256];
                for (k, &c) in statics.iter().enumerate() {
                    let first = tree.nodes.get(c as usize).and_then(|n| n.label.first());
                    if let Some(slot) = first.and_then(|&b| table.get_mut(b as usize)) {
                        *slot = u16::try_from(k + 1).unwrap_or(0);
                    }
                }
                flat.fanout.extend_from_slice(&table);
            }
            flat.nodes.push(FlatNode {
                head: u64::from_le_bytes(head),
                head_mask: mask_of(label.len()),
                head2: u64::from_le_bytes(head2),
                head2_mask: mask_of(label.len().saturating_sub(8)),
                firsts: u64::from_le_bytes(firsts),
                fanout,
                label_start,
                label_len: to_u32(label.len()),
                statics: statics_at,
                n_statics: to_u32(statics.len()),
                dynamics: statics_at + to_u32(statics.len()),
                n_dynamics: to_u32(dynamics.len()),
                matcher: node.matcher.unwrap_or(NONE),
                tail,
                tail_mask,
                tail_len,
                min_rank: rank(old),
                leaf_route,
                leaf_rank,
                layout_start,
                layout_len,
                kind: match node.matcher {
                    _ if starts_run => KIND_TAIL_RUN,
                    Some(m) if is_plain_segment(m) => KIND_SEGMENT,
                    _ => KIND_OTHER,
                },
                direct,
                run,
            });
        }
    }
    flat
}

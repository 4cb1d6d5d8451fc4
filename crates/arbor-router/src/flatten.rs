//! Flattening: the registration tree (`tree.rs`) compiled into the arrays the byte walk reads
//! (`flat.rs`), once per change of the routes.
//!
//! The flat tree keeps the dynamic routes only (the static ones go to the exact table, `statics.rs`),
//! breadth-first so that each node's children are contiguous. A chain of static nodes that leads
//! nowhere else is merged into one node, and short static text after a leaf or a parameter becomes
//! that node's tail: fewer nodes and fewer compares on the walk.

use crate::flat::{Flat, FlatNode, KIND_OTHER, KIND_SEGMENT, KIND_TAIL_RUN};
use crate::ids::NONE;
use crate::statics::Statics;
use crate::tree::{BNode, Leaf, Tree};
use crate::words::mask_of;

/// The order of a dynamic child in specificity order: its class (`MatcherSpec::specificity_class`)
/// and whether it is a segment tail (`{f}oo`, `:a.:b`), whose siblings of the same class are
/// compared on the path itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Class {
    pub(crate) rank: u8,
    pub(crate) tail: bool,
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

/// The first (up to) 8 bytes of `bytes`, little-endian, zero-padded.
fn word_of(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    for (dst, src) in word.iter_mut().zip(bytes) {
        *dst = *src;
    }
    u64::from_le_bytes(word)
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
    let source = Source {
        tree,
        min_rank: subtree_min_ranks(tree, &order),
        class,
    };
    let mut flattening = Flattening::new(source, is_plain_segment);
    for &root in &tree.roots {
        flattening.add_method(root);
    }
    flattening.flat
}

/// Per node (`order`: parents before children), the smallest rank of a dynamic leaf in its subtree;
/// `NONE` for a subtree without one, which the flat tree leaves out.
fn subtree_min_ranks(tree: &Tree, order: &[u32]) -> Vec<u32> {
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
    min_rank
}

/// The tree being flattened, with what the flattening reads of each node: its subtree's smallest
/// rank and its matcher's class.
struct Source<'a> {
    tree: &'a Tree,
    min_rank: Vec<u32>,
    class: Option<&'a dyn Fn(u32) -> Class>,
}

impl Source<'_> {
    fn rank(&self, c: u32) -> u32 {
        self.min_rank.get(c as usize).copied().unwrap_or(NONE)
    }

    /// Whether the flat tree keeps node `c`: a dynamic route ends in its subtree.
    fn is_live(&self, c: u32) -> bool {
        self.rank(c) != NONE
    }

    fn first_byte(&self, c: u32) -> Option<u8> {
        self.tree
            .nodes
            .get(c as usize)
            .and_then(|n| n.label.first())
            .copied()
    }

    /// The one live static child of `node`, if it has exactly one.
    fn lone_static_child(&self, node: &BNode) -> Option<u32> {
        let mut live = node.statics.iter().copied().filter(|&s| self.is_live(s));
        match (live.next(), live.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// A static node with no leaf, no dynamic child and one static child (left by static routes,
    /// which the flat tree does not hold, or by edge splits) is merged with that child: one node and
    /// one label compare instead of a chain. Returns the last node of the chain starting at `c`.
    fn chain_end(&self, mut c: u32) -> u32 {
        loop {
            let Some(node) = self.tree.nodes.get(c as usize) else {
                return c;
            };
            if node.matcher.is_some()
                || dynamic_leaf(node).is_some()
                || node.dynamics.iter().any(|&d| self.is_live(d))
            {
                return c;
            }
            match self.lone_static_child(node) {
                Some(only) => c = only,
                None => return c,
            }
        }
    }

    /// The text of the chain `first..=last` (each node's first live static child down to `last`).
    fn chain_label(&self, first: u32, last: u32, out: &mut Vec<u8>) {
        out.clear();
        let mut at = first;
        while let Some(n) = self.tree.nodes.get(at as usize) {
            out.extend_from_slice(&n.label);
            if at == last {
                break;
            }
            match n.statics.iter().copied().find(|&s| self.is_live(s)) {
                Some(next) => at = next,
                None => break,
            }
        }
    }

    /// A node that `chain_end` cannot merge with its lone static child because it has a leaf or is
    /// dynamic (`:id` then `/`) keeps that child's chain as its tail when the chain has no leaf and
    /// fits a word: one masked compare after the node instead of a node of its own. Returns the
    /// chain's text and last node, whose children the node then takes.
    fn tail_of(&self, c: u32) -> Option<(Vec<u8>, u32)> {
        let node = self.tree.nodes.get(c as usize)?;
        if node.dynamics.iter().any(|&d| self.is_live(d)) {
            return None;
        }
        let first = self.lone_static_child(node)?;
        let last = self.chain_end(first);
        let mut text = Vec::new();
        self.chain_label(first, last, &mut text);
        let leafless = self
            .tree
            .nodes
            .get(last as usize)
            .is_some_and(|n| dynamic_leaf(n).is_none());
        (leafless && text.len() <= 8).then_some((text, last))
    }

    /// The specificity class of dynamic node `c` (the lowest in definition order, where there are
    /// none).
    fn class_of(&self, c: u32) -> Class {
        let m = self.tree.nodes.get(c as usize).and_then(|n| n.matcher);
        match (self.class, m) {
            (Some(class), Some(m)) => class(m),
            _ => Class {
                rank: u8::MAX,
                tail: false,
            },
        }
    }

    /// The run of sibling segment tails of one class that `dynamics[k]` belongs to (specificity
    /// order only): the class (0 when it is in no run of at least two), and whether it starts the run.
    fn tail_run(&self, dynamics: &[u32], k: usize) -> (u8, bool) {
        let Some(&c) = dynamics.get(k) else {
            return (0, false);
        };
        let here = self.class_of(c);
        let same = |other: Option<&u32>| {
            other.is_some_and(|&o| {
                let there = self.class_of(o);
                there.tail && there.rank == here.rank
            })
        };
        let before = k.checked_sub(1).and_then(|b| dynamics.get(b));
        let run = here.tail && (same(before) || same(dynamics.get(k + 1)));
        let starts = run && !same(before);
        (if run { here.rank.max(1) } else { 0 }, starts)
    }
}

/// A node's tail (see [`FlatNode::tail`]): up to 8 bytes of static text and their mask.
#[derive(Default)]
struct Tail {
    word: u64,
    mask: u64,
    len: u32,
}

/// The leaf fields of a flat node.
struct LeafFields {
    route: u32,
    rank: u32,
    layout_start: u32,
    layout_len: u32,
    direct: bool,
}

/// The flattening under way: the flat tree so far, and the queue of nodes it is to lay out.
struct Flattening<'a> {
    source: Source<'a>,
    is_plain_segment: &'a dyn Fn(u32) -> bool,
    flat: Flat,
    /// Breadth-first so that each node's children get contiguous indices. Entries are chains (first
    /// node, last node): the label is theirs end to end, the rest is the last node's.
    queue: Vec<(u32, u32)>,
    /// Per queued node: the class of its run of segment tails (0 for none), and whether it starts one.
    runs: Vec<(u8, bool)>,
    /// The label and the live children of the node at hand, reused from node to node.
    label: Vec<u8>,
    statics: Vec<u32>,
    dynamics: Vec<u32>,
}

impl<'a> Flattening<'a> {
    fn new(source: Source<'a>, is_plain_segment: &'a dyn Fn(u32) -> bool) -> Self {
        let tree = source.tree;
        let mut flat = Flat {
            statics: Statics::build(tree.static_routes()),
            ..Flat::default()
        };
        // Sized up front (chains merge nodes, so these are upper bounds): a large table's arrays
        // are not regrown and copied as they fill.
        flat.nodes.reserve(tree.nodes.len());
        flat.labels
            .reserve(tree.nodes.iter().map(|n| n.label.len()).sum::<usize>());
        Flattening {
            source,
            is_plain_segment,
            flat,
            queue: Vec::with_capacity(tree.nodes.len()),
            runs: Vec::with_capacity(tree.nodes.len()),
            label: Vec::new(),
            statics: Vec::new(),
            dynamics: Vec::new(),
        }
    }

    /// The nodes of one method's routes, breadth-first from its root (`NONE` as the root when it has
    /// no dynamic route).
    fn add_method(&mut self, root: u32) {
        if !self.source.is_live(root) {
            self.flat.roots.push(NONE);
            return;
        }
        self.flat.roots.push(to_u32(self.queue.len()));
        // The root is merged with a lone static child too (`/`): its label is checked at offset 0.
        self.queue.push((root, self.source.chain_end(root)));
        self.runs.push((0, false));
        let mut head = self.queue.len() - 1;
        while let Some(&(first, last)) = self.queue.get(head) {
            let (run, starts_run) = self.runs.get(head).copied().unwrap_or((0, false));
            head += 1;
            self.add_node(first, last, run, starts_run);
        }
    }

    /// The flat node of the chain `first..=old`, its children queued.
    fn add_node(&mut self, first: u32, old: u32, run: u8, starts_run: bool) {
        let tree = self.source.tree;
        let Some(node) = tree.nodes.get(old as usize) else {
            return;
        };
        self.source.chain_label(first, old, &mut self.label);
        // The children are those of the tail's last node, when the node has a tail.
        let (tail, kids) = match self.source.tail_of(old) {
            Some((text, last)) => (
                Tail {
                    word: word_of(&text),
                    mask: mask_of(text.len()),
                    len: to_u32(text.len()),
                },
                last,
            ),
            None => (Tail::default(), old),
        };
        let Some(kids) = tree.nodes.get(kids as usize) else {
            return;
        };
        self.sort_children(kids);
        let statics_at = to_u32(self.queue.len());
        self.queue_children();
        let label_start = to_u32(self.flat.labels.len());
        self.flat.labels.extend_from_slice(&self.label);
        let leaf = self.add_leaf(node);
        let firsts = self.first_bytes();
        let fanout = self.add_fanout();
        let label = &self.label;
        let n_statics = to_u32(self.statics.len());
        self.flat.nodes.push(FlatNode {
            head: word_of(label),
            head_mask: mask_of(label.len()),
            head2: word_of(label.get(8..).unwrap_or_default()),
            head2_mask: mask_of(label.len().saturating_sub(8)),
            firsts,
            fanout,
            label_start,
            label_len: to_u32(label.len()),
            statics: statics_at,
            n_statics,
            dynamics: statics_at + n_statics,
            n_dynamics: to_u32(self.dynamics.len()),
            matcher: node.matcher.unwrap_or(NONE),
            tail: tail.word,
            tail_mask: tail.mask,
            tail_len: tail.len,
            min_rank: self.source.rank(old),
            leaf_route: leaf.route,
            leaf_rank: leaf.rank,
            layout_start: leaf.layout_start,
            layout_len: leaf.layout_len,
            kind: match node.matcher {
                _ if starts_run => KIND_TAIL_RUN,
                Some(m) if (self.is_plain_segment)(m) => KIND_SEGMENT,
                _ => KIND_OTHER,
            },
            direct: leaf.direct,
            run,
        });
    }

    /// `kids`'s live children in their flat order: static ones by first byte (a deterministic
    /// layout; large fan-outs also get a table), dynamic ones by class in specificity order, then by
    /// their subtree's smallest rank.
    fn sort_children(&mut self, kids: &BNode) {
        let source = &self.source;
        self.statics.clear();
        self.statics
            .extend(kids.statics.iter().copied().filter(|&c| source.is_live(c)));
        self.statics.sort_by_key(|&c| source.first_byte(c));
        self.dynamics.clear();
        self.dynamics
            .extend(kids.dynamics.iter().copied().filter(|&c| source.is_live(c)));
        match source.class {
            Some(_) => self
                .dynamics
                .sort_by_key(|&c| (source.class_of(c).rank, source.rank(c))),
            None => self.dynamics.sort_by_key(|&c| source.rank(c)),
        }
    }

    /// Queues the node's children (static ones as the chains they start), each with its run.
    fn queue_children(&mut self) {
        let source = &self.source;
        self.queue
            .extend(self.statics.iter().map(|&c| (c, source.chain_end(c))));
        self.runs.extend(self.statics.iter().map(|_| (0, false)));
        self.queue.extend(self.dynamics.iter().map(|&c| (c, c)));
        let dynamics = &self.dynamics;
        self.runs
            .extend((0..dynamics.len()).map(|k| source.tail_run(dynamics, k)));
    }

    /// Appends the layout of `node`'s dynamic leaf, if it has one, and returns the leaf's fields.
    fn add_leaf(&mut self, node: &BNode) -> LeafFields {
        let layout_start = to_u32(self.flat.layouts.len());
        let Some(leaf) = dynamic_leaf(node) else {
            return LeafFields {
                route: NONE,
                rank: NONE,
                layout_start,
                layout_len: 0,
                direct: false,
            };
        };
        self.flat.layouts.extend_from_slice(&leaf.layout);
        LeafFields {
            route: leaf.route,
            rank: leaf.rank,
            layout_start,
            layout_len: to_u32(leaf.layout.len()),
            direct: leaf
                .layout
                .iter()
                .enumerate()
                .all(|(k, &slot)| usize::from(slot) == k),
        }
    }

    /// The first bytes of up to 8 static children (see [`FlatNode::firsts`]).
    fn first_bytes(&self) -> u64 {
        let mut firsts = [0xffu8; 8];
        for (dst, &c) in firsts.iter_mut().zip(&self.statics) {
            *dst = self.source.first_byte(c).unwrap_or(0xff);
        }
        u64::from_le_bytes(firsts)
    }

    /// For more than 8 static children, appends their 256-entry table to `fanout` and returns where
    /// it starts (`NONE` otherwise).
    fn add_fanout(&mut self) -> u32 {
        if self.statics.len() <= 8 {
            return NONE;
        }
        let at = to_u32(self.flat.fanout.len());
        let mut table = [0u16; 256];
        for (k, &c) in self.statics.iter().enumerate() {
            let first = self.source.first_byte(c);
            if let Some(slot) = first.and_then(|b| table.get_mut(b as usize)) {
                *slot = u16::try_from(k + 1).unwrap_or(0);
            }
        }
        self.flat.fanout.extend_from_slice(&table);
        at
    }
}

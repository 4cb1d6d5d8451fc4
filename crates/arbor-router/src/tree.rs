//! The mutable radix tree built by `insert` (one root per method), which `flatten.rs` compiles into
//! the immutable arrays that `lookup` walks (`flat.rs`).
//!
//! Static edges are compressed (a node's label is the text of its incoming edge) and siblings have
//! distinct first bytes, so at most one static child can match at any point. Dynamic children are
//! keyed by their matcher id, so routes with the same parameter shape share nodes.

use crate::ids::{RouteId, NONE};
use crate::route::Step;

/// A route ending at a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Leaf {
    pub(crate) route: RouteId,
    /// `id` for static routes, `id | 1 << 31` for dynamic ones: an exact static route always wins
    /// (ROUTING.md §3.2), then the smallest id (definition order).
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
    pub(crate) fn static_routes(&self) -> Vec<(u32, Vec<u8>, RouteId)> {
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
        // route, else the earlier one (ROUTING.md §3 rules 2 and 3).
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

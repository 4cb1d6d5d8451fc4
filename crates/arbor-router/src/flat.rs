//! The flattened tree: the immutable arrays the byte walk (`lookup.rs`) reads, compiled from the
//! registration tree by `flatten.rs`.

use crate::ids::NONE;
use crate::segments::Segments;
use crate::statics::Statics;

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
    /// merged into it (`flatten.rs`). The children are matched after it; the leaf before it.
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
    /// `flatten::slash_ends`); when not, the trailing-slash retry that adds a slash skips the walk.
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

//! The trie's layout, which every phase shares: its nodes, their static children's keys, and the
//! trie that holds them.

use crate::constraint::Check;
use crate::ids::NONE;

/// Up to this many static children are compared in turn; beyond, a hash table finds them. In
/// WebAssembly, comparing up to 16 keys (8 bytes and a length each) beat the probe (a multiply, a
/// slot in another array) on the 10,000-route table, and was level on GitHub (docs/PERFORMANCE.md).
pub(super) const LINEAR: u32 = 16;

/// `SegNode::param_check` of a node with several parameter children: each child holds its own
/// check (`own_check`), and they are tried from the alternatives' stack.
pub(super) const SEVERAL: u32 = NONE - 1;

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SegNode {
    /// Smallest leaf rank below (and at) this node, the children the byte walk alone handles
    /// included: the search skips what cannot win.
    pub(super) min_rank: u32,
    pub(super) leaf_rank: u32,
    pub(super) leaf_route: u32,
    /// The leaf's value layout in the flat tree's `layouts`.
    pub(super) layout_start: u32,
    pub(super) layout_len: u32,
    pub(super) direct: bool,
    /// Static children: `keys[keys..keys + n_keys]`.
    pub(super) keys: u32,
    pub(super) n_keys: u32,
    /// Beyond `LINEAR` static children: the node's open-addressed table at `slots[table..]`, of
    /// `mask + 1` entries (an index into the node's keys, `NONE` for empty).
    pub(super) table: u32,
    pub(super) mask: u32,
    /// The `/:param` child (`NONE` for none; of several, the one of smallest rank), the smallest
    /// rank below it, and its constraint's check in `Segments::checks` (`NONE` for a plain
    /// parameter, `SEVERAL` for several children).
    pub(super) param: u32,
    pub(super) param_rank: u32,
    pub(super) param_check: u32,
    /// A parameter child of a node with several: its own check (`NONE`: plain) and the next child
    /// of the same node, by rank (`NONE`: the last). Unused (`NONE`) for a lone parameter child.
    pub(super) own_check: u32,
    pub(super) next_param: u32,
    /// The smallest rank below this node's other dynamic children (`NONE` for none).
    pub(super) general_rank: u32,
}

/// A static child: a whole segment, its leading `/` included.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SegKey {
    /// Bytes 0..8 of the segment, zero-padded.
    pub(super) w0: u64,
    pub(super) len: u32,
    /// Where bytes 8.. are in `text` (segments longer than 8 bytes).
    pub(super) rest: u32,
    pub(super) child: u32,
}

/// The segment trie of a router's dynamic routes (definition order only).
#[derive(Debug, Clone, Default)]
pub(crate) struct Segments {
    pub(super) nodes: Vec<SegNode>,
    pub(super) keys: Vec<SegKey>,
    pub(super) slots: Vec<u32>,
    pub(super) text: Vec<u8>,
    /// The constrained parameter children's checks, and the matcher each was taken from (what a
    /// snapshot stores of them).
    pub(super) checks: Vec<Check>,
    pub(super) check_matchers: Vec<u32>,
    /// Root node per method id (`NONE` when the method has no dynamic routes).
    pub(super) roots: Vec<u32>,
}

/// The slot of a key in a node's table of `mask + 1` entries: the top bits of a multiplicative
/// hash of its first word and length (the best-mixed bits).
#[inline(always)]
pub(super) fn slot_of(w0: u64, len: usize, mask: u32) -> usize {
    let bits = mask.count_ones();
    ((w0 ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

pub(super) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(NONE)
}

impl Segments {
    /// The root of a method's dynamic routes.
    #[inline(always)]
    pub(crate) fn root(&self, method_id: u32) -> Option<u32> {
        self.roots.get(method_id as usize).copied()
    }
}

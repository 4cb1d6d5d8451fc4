//! The lean walk itself: the search over the trie's nodes, and the buffers it reuses.

use super::layout::{slot_of, SegKey, SegNode, Segments, LINEAR, SEVERAL};
use crate::ids::NONE;
use crate::route::ABSENT;
use crate::values::{Values, MAX_VALUES};
use crate::words::{has_byte, label_at, mask_of, segment_end, word_at};

/// How many alternatives (a parameter child left for after a static child) the lean walk keeps;
/// a deeper lookup goes to the byte walk.
const LEAN_FRAMES: usize = 32;

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

impl Segments {
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
        // WebAssembly, which V8 runs as a call out of the module: too dear for every lookup.)
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

//! The hot path: a depth-first walk of the flattened tree.
//!
//! Definition order is a branch-and-bound search: every node knows the smallest rank (route id,
//! statics first) of the leaves below it, so the walk skips any subtree that cannot beat the best
//! match found so far, and tries dynamic children most promising first. Specificity order is the
//! same walk with children in specificity order, stopping at the first match. Each node is entered
//! at exactly one path position (static text, a segment and a segment regex each consume a fixed
//! amount), so the walk visits each node at most once: cost depends on the path and the tree shape,
//! never on a scan over routes. Nothing is allocated: values live in fixed arrays on the stack.

use regex::bytes::CaptureLocations;

use crate::route::{Matcher, ABSENT};
use crate::tree::{Flat, FlatNode, NONE};
use crate::MAX_VALUES;

/// Per-lookup state, on the Rust stack.
pub(crate) struct Walk<'a> {
    pub(crate) path: &'a [u8],
    pub(crate) best_rank: u32,
    pub(crate) best_node: u32,
    /// In specificity order the first match wins: the best rank drops to 0 so everything else prunes.
    first_wins: bool,
    depth: usize,
    values: [(u32, u32); MAX_VALUES],
    pub(crate) best: [(u32, u32); MAX_VALUES],
    locs: &'a mut Vec<Option<CaptureLocations>>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(
        path: &'a [u8],
        first_wins: bool,
        locs: &'a mut Vec<Option<CaptureLocations>>,
    ) -> Self {
        Walk {
            path,
            best_rank: NONE,
            best_node: NONE,
            first_wins,
            depth: 0,
            values: [(0, 0); MAX_VALUES],
            best: [(0, 0); MAX_VALUES],
            locs,
        }
    }

    #[inline]
    fn push(&mut self, start: usize, end: usize) -> bool {
        match self.values.get_mut(self.depth) {
            Some(slot) => {
                *slot = (start as u32, end as u32);
                self.depth += 1;
                true
            }
            None => false,
        }
    }
}

/// Whether `label` occurs in `path` at `pos`; compares 8 bytes at a time (labels are often long).
#[inline]
fn label_at(path: &[u8], pos: usize, label: &[u8]) -> bool {
    let Some(window) = path.get(pos..pos + label.len()) else {
        return false;
    };
    let mut a = window.chunks_exact(8);
    let mut b = label.chunks_exact(8);
    for (x, y) in a.by_ref().zip(b.by_ref()) {
        let x = u64::from_ne_bytes(<[u8; 8]>::try_from(x).unwrap_or([0; 8]));
        let y = u64::from_ne_bytes(<[u8; 8]>::try_from(y).unwrap_or([1; 8]));
        if x != y {
            return false;
        }
    }
    a.remainder() == b.remainder()
}

/// End of the segment starting at `pos`: the next `/` or the end of the path.
#[inline]
fn segment_end(path: &[u8], pos: usize) -> usize {
    match path.get(pos..) {
        Some(rest) => rest.iter().position(|&b| b == b'/').map_or(path.len(), |k| pos + k),
        None => path.len(),
    }
}

/// Matches `regex` anchored on `path[pos..end]` and pushes the spans of `groups` (absolute offsets).
fn push_groups(
    walk: &mut Walk<'_>,
    matcher: u32,
    regex: &regex::bytes::Regex,
    pos: usize,
    end: usize,
    groups: impl Iterator<Item = usize>,
) -> bool {
    let Some(hay) = walk.path.get(pos..end) else {
        return false;
    };
    // Capture slots are made once per matcher and reused: no allocation after warm-up. They are
    // taken out of the walk while the values are pushed, then put back.
    let Some(slot) = walk.locs.get_mut(matcher as usize) else {
        return false;
    };
    let mut locs = slot.take().unwrap_or_else(|| regex.capture_locations());
    let mut ok = regex.captures_read(&mut locs, hay).is_some();
    if ok {
        for g in groups {
            let (s, e) = match locs.get(g) {
                Some((s, e)) => (pos + s, pos + e),
                None => (NONE as usize, NONE as usize),
            };
            if !walk.push(s, e) {
                ok = false;
                break;
            }
        }
    }
    if let Some(slot) = walk.locs.get_mut(matcher as usize) {
        *slot = Some(locs);
    }
    ok
}

/// Cuts the path at `?` or `#` (not part of matching); `None` when a non-ASCII byte comes first.
/// Scans 8 bytes at a time: most paths have neither.
#[inline]
pub(crate) fn effective_len(path: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, b: u8| {
        let x = w ^ (LO * u64::from(b));
        x.wrapping_sub(LO) & !x & HI
    };
    let mut base = 0;
    for chunk in path.chunks_exact(8) {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0x80; 8]));
        if (w & HI) | has(w, b'?') | has(w, b'#') != 0 {
            break;
        }
        base += 8;
    }
    for (i, &b) in path.iter().enumerate().skip(base) {
        if b == b'?' || b == b'#' {
            return Some(i);
        }
        if b >= 0x80 {
            return None;
        }
    }
    Some(path.len())
}

impl Flat {
    #[inline]
    fn node(&self, idx: u32) -> Option<&FlatNode> {
        self.nodes.get(idx as usize)
    }

    /// Runs the search from `root`; the result is in `walk.best_node` / `walk.best`.
    pub(crate) fn search(&self, matchers: &[Matcher], walk: &mut Walk<'_>, root: u32) {
        self.visit(matchers, walk, root, 0);
    }

    fn visit(&self, matchers: &[Matcher], walk: &mut Walk<'_>, idx: u32, pos: usize) {
        let Some(node) = self.node(idx) else {
            return;
        };
        if node.min_rank >= walk.best_rank {
            return;
        }
        let path = walk.path;
        match path.get(pos) {
            None => {
                if node.leaf_rank < walk.best_rank {
                    walk.best_rank = if walk.first_wins { 0 } else { node.leaf_rank };
                    walk.best_node = idx;
                    let n = walk.depth;
                    if let (Some(dst), Some(src)) = (walk.best.get_mut(..n), walk.values.get(..n)) {
                        dst.copy_from_slice(src);
                    }
                }
            }
            Some(&byte) => {
                if node.n_statics > 0 {
                    let start = node.statics as usize;
                    let firsts = self
                        .first_bytes
                        .get(start..start + node.n_statics as usize)
                        .unwrap_or_default();
                    if let Some(k) = firsts.iter().position(|&b| b == byte) {
                        let child_idx = node.statics + k as u32;
                        if let Some(child) = self.node(child_idx) {
                            let ls = child.label_start as usize;
                            let label = self
                                .labels
                                .get(ls..ls + child.label_len as usize)
                                .unwrap_or_default();
                            if label_at(path, pos, label) {
                                self.visit(matchers, walk, child_idx, pos + label.len());
                            }
                        }
                    }
                }
            }
        }
        if node.n_dynamics == 0 {
            return;
        }
        let mut seg_end = usize::MAX;
        for child_idx in node.dynamics..node.dynamics + node.n_dynamics {
            let Some(child) = self.node(child_idx) else {
                return;
            };
            if child.min_rank >= walk.best_rank {
                // Definition order sorts children by min_rank, so none after this one can win either;
                // in specificity order the best rank is 0 once anything matched.
                return;
            }
            let depth = walk.depth;
            let next = match matchers.get(child.matcher as usize) {
                Some(Matcher::Segment(check)) => {
                    if seg_end == usize::MAX {
                        seg_end = segment_end(path, pos);
                    }
                    let end = seg_end;
                    if end <= pos {
                        continue;
                    }
                    if let Some(check) = check {
                        if !check.matches(path.get(pos..end).unwrap_or_default()) {
                            continue;
                        }
                    }
                    if !walk.push(pos, end) {
                        continue;
                    }
                    end
                }
                Some(Matcher::Complex { regex, groups }) => {
                    if seg_end == usize::MAX {
                        seg_end = segment_end(path, pos);
                    }
                    let end = seg_end;
                    if end <= pos
                        || !push_groups(
                            walk,
                            child.matcher,
                            regex,
                            pos,
                            end,
                            groups.iter().map(|&g| g as usize),
                        )
                    {
                        walk.depth = depth;
                        continue;
                    }
                    end
                }
                Some(Matcher::Wildcard) => {
                    if !walk.push(pos, path.len()) {
                        continue;
                    }
                    path.len()
                }
                Some(Matcher::Block { regex, captures }) => {
                    if !push_groups(walk, child.matcher, regex, pos, path.len(), 1..=*captures) {
                        walk.depth = depth;
                        continue;
                    }
                    path.len()
                }
                None => continue,
            };
            self.visit(matchers, walk, child_idx, next);
            walk.depth = depth;
        }
    }

    /// Writes the spans of the best match (per its leaf layout) into `out`.
    pub(crate) fn write_spans(&self, walk: &Walk<'_>, out: &mut Vec<u32>) {
        out.clear();
        let Some(node) = self.node(walk.best_node) else {
            return;
        };
        let start = node.layout_start as usize;
        let layout = self
            .layouts
            .get(start..start + node.layout_len as usize)
            .unwrap_or_default();
        for &slot in layout {
            let (s, e) = if slot == ABSENT {
                (NONE, NONE)
            } else {
                walk.best.get(slot as usize).copied().unwrap_or((NONE, NONE))
            };
            out.push(s);
            out.push(e);
        }
    }
}

//! The hot path: a depth-first walk of the flattened tree.
//!
//! Definition order is a branch-and-bound search: every node knows the smallest rank (route id,
//! statics first) of the leaves below it, so the walk skips any subtree that cannot beat the best
//! match found so far, and tries dynamic children most promising first. Specificity order is the
//! same walk with children in specificity order, stopping at the first match. Each node is entered
//! at exactly one path position (static text, a segment and a segment regex each consume a fixed
//! amount), so the walk visits each node at most once: cost depends on the path and the tree shape,
//! never on a scan over routes. Static routes are not in this tree: `statics` answers them before
//! the walk. Nothing is allocated: values go to the caller's reusable `Spans` buffers.

use regex::bytes::CaptureLocations;

use crate::route::{Matcher, ABSENT};
use crate::tree::{Flat, FlatNode, KIND_SEGMENT, NONE};
use crate::MAX_VALUES;

/// Per-lookup state, on the Rust stack.
pub(crate) struct Walk<'a> {
    pub(crate) path: &'a [u8],
    pub(crate) best_rank: u32,
    pub(crate) best_node: u32,
    /// In specificity order the first match wins: the best rank drops to 0 so everything else prunes.
    first_wins: bool,
    /// The values pushed along the current tree path, `(start, end)` flattened (the caller's
    /// reusable buffer: nothing to initialise per lookup, nothing allocated after warm-up).
    stack: &'a mut Vec<u32>,
    /// The caller's spans: rewritten on each better match (rare: usually once).
    out: &'a mut Vec<u32>,
    locs: &'a mut Vec<Option<CaptureLocations>>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(
        path: &'a [u8],
        first_wins: bool,
        stack: &'a mut Vec<u32>,
        out: &'a mut Vec<u32>,
        locs: &'a mut Vec<Option<CaptureLocations>>,
    ) -> Self {
        stack.clear();
        Walk {
            path,
            best_rank: NONE,
            best_node: NONE,
            first_wins,
            stack,
            out,
            locs,
        }
    }

    #[inline(always)]
    fn push(&mut self, start: usize, end: usize) -> bool {
        if self.stack.len() >= 2 * MAX_VALUES {
            return false;
        }
        self.stack.extend_from_slice(&[start as u32, end as u32]);
        true
    }

    /// How many values are pushed (to come back to after a branch).
    #[inline(always)]
    fn depth(&self) -> usize {
        self.stack.len()
    }

    #[inline(always)]
    fn backtrack(&mut self, depth: usize) {
        self.stack.truncate(depth);
    }
}

#[inline(always)]
pub(crate) fn load8(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(<[u8; 8]>::try_from(b).unwrap_or([0; 8])),
        None => 0,
    }
}

#[inline(always)]
pub(crate) fn load4(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..at + 4) {
        Some(b) => u32::from_le_bytes(<[u8; 4]>::try_from(b).unwrap_or([0; 4])),
        None => 0,
    }
}

/// Whether `label` occurs in `path` at `pos`. Compares 8 bytes at a time, the last word overlapping
/// the previous one, so no call to `memcmp` (which costs more than the compare for short labels).
#[inline]
pub(crate) fn label_at(path: &[u8], pos: usize, label: &[u8]) -> bool {
    let n = label.len();
    let Some(window) = path.get(pos..pos + n) else {
        return false;
    };
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if load8(window, i) != load8(label, i) {
                return false;
            }
            i += 8;
        }
        load8(window, n - 8) == load8(label, n - 8)
    } else if n >= 4 {
        load4(window, 0) == load4(label, 0) && load4(window, n - 4) == load4(label, n - 4)
    } else {
        window.iter().zip(label).all(|(a, b)| a == b)
    }
}

const LO: u64 = 0x0101_0101_0101_0101;
pub(crate) const HI: u64 = 0x8080_8080_8080_8080;

/// Non-zero where a byte of `w` equals `b` (the lowest such byte is exact).
#[inline(always)]
fn has_byte(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI
}

/// End of the segment starting at `pos`: the next `/` or the end of the path. 8 bytes at a time.
#[inline]
fn segment_end(path: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while i + 8 <= path.len() {
        let hit = has_byte(load8(path, i), b'/');
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    match path.get(i..) {
        Some(rest) => rest
            .iter()
            .position(|&b| b == b'/')
            .map_or(path.len(), |k| i + k),
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

impl Flat {
    #[inline]
    fn node(&self, idx: u32) -> Option<&FlatNode> {
        self.nodes.get(idx as usize)
    }

    /// Runs the search from `root`; the result is in `walk.best_node` / `walk.best`.
    pub(crate) fn search(&self, matchers: &[Matcher], walk: &mut Walk<'_>, root: u32) {
        self.visit(matchers, walk, root, 0);
    }

    /// Visits a node entered at `pos`. A static child alone is followed in a loop (no recursion:
    /// most of a walk is static text); dynamic children are tried in `visit_dynamics`.
    fn visit(&self, matchers: &[Matcher], walk: &mut Walk<'_>, mut idx: u32, mut pos: usize) {
        let path = walk.path;
        loop {
            let Some(node) = self.node(idx) else {
                return;
            };
            if node.min_rank >= walk.best_rank {
                return;
            }
            let Some(&byte) = path.get(pos) else {
                if node.leaf_rank < walk.best_rank {
                    walk.best_rank = if walk.first_wins { 0 } else { node.leaf_rank };
                    walk.best_node = idx;
                    self.write_spans(node, walk);
                }
                if node.n_dynamics == 0 {
                    return;
                }
                match self.visit_dynamics(matchers, walk, node, pos) {
                    Some((child_idx, child_pos)) => {
                        idx = child_idx;
                        pos = child_pos;
                        continue;
                    }
                    None => return,
                }
            };
            let mut next = None;
            if node.n_statics > 0 {
                if let Some(child_idx) = self.static_child(node, byte) {
                    if let Some(child) = self.node(child_idx) {
                        let n = child.label_len as usize;
                        let matched = if n <= 8 && pos + 8 <= path.len() {
                            // One masked compare: the label is in `head`.
                            let mask = if n == 0 {
                                0
                            } else {
                                u64::MAX >> (64 - 8 * n as u32)
                            };
                            load8(path, pos) & mask == child.head
                        } else {
                            let ls = child.label_start as usize;
                            let label = self.labels.get(ls..ls + n).unwrap_or_default();
                            label_at(path, pos, label)
                        };
                        if matched {
                            next = Some((child_idx, pos + n));
                        }
                    }
                }
            }
            if node.n_dynamics == 0 {
                match next {
                    Some((child_idx, child_pos)) => {
                        idx = child_idx;
                        pos = child_pos;
                        continue;
                    }
                    None => return,
                }
            }
            if let Some((child_idx, child_pos)) = next {
                let depth = walk.depth();
                self.visit(matchers, walk, child_idx, child_pos);
                walk.backtrack(depth);
            }
            match self.visit_dynamics(matchers, walk, node, pos) {
                Some((child_idx, child_pos)) => {
                    idx = child_idx;
                    pos = child_pos;
                }
                None => return,
            }
        }
    }

    /// Tries the dynamic children of `node` (entered at `pos`) in their order. The last child that
    /// matches is not visited here but returned, values pushed, for the caller's loop to continue
    /// with (a tail call: most parameters have no sibling, so a walk rarely recurses).
    #[inline(never)]
    fn visit_dynamics(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        node: &FlatNode,
        pos: usize,
    ) -> Option<(u32, usize)> {
        let path = walk.path;
        let mut seg_end = usize::MAX;
        if node.n_dynamics == 0 {
            return None;
        }
        let last = node.dynamics + node.n_dynamics - 1;
        for child_idx in node.dynamics..=last {
            let child = self.node(child_idx)?;
            if child.min_rank >= walk.best_rank {
                // Definition order sorts children by min_rank, so none after this one can win either;
                // in specificity order the best rank is 0 once anything matched.
                return None;
            }
            let depth = walk.depth();
            if child.kind == KIND_SEGMENT {
                if seg_end == usize::MAX {
                    seg_end = segment_end(path, pos);
                }
                if seg_end > pos && walk.push(pos, seg_end) {
                    if child_idx == last {
                        return Some((child_idx, seg_end));
                    }
                    self.visit(matchers, walk, child_idx, seg_end);
                    walk.backtrack(depth);
                }
                continue;
            }
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
                        walk.backtrack(depth);
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
                        walk.backtrack(depth);
                        continue;
                    }
                    path.len()
                }
                None => continue,
            };
            if child_idx == last {
                return Some((child_idx, next));
            }
            self.visit(matchers, walk, child_idx, next);
            walk.backtrack(depth);
        }
        None
    }

    /// The static child of `node` whose label starts with `byte`: a scan of the first bytes for up
    /// to 8 children, one load from the node's 256-entry table beyond (measured: a binary search
    /// there was the hottest spot of a GitHub walk, and a SWAR scan lost to the plain one below 8).
    #[inline]
    fn static_child(&self, node: &FlatNode, byte: u8) -> Option<u32> {
        if node.n_statics > 8 {
            let entry = *self.fanout.get(node.fanout as usize + byte as usize)?;
            return (entry != 0).then(|| node.statics + u32::from(entry) - 1);
        }
        let start = node.statics as usize;
        let firsts = self
            .first_bytes
            .get(start..start + node.n_statics as usize)?;
        // Most nodes have one or two static children: a plain scan beats anything clever there.
        let k = firsts.iter().position(|&b| b == byte)?;
        Some(node.statics + k as u32)
    }

    /// Writes the spans of a better match (per its leaf layout) into the caller's buffer.
    fn write_spans(&self, node: &FlatNode, walk: &mut Walk<'_>) {
        let start = node.layout_start as usize;
        let layout = self
            .layouts
            .get(start..start + node.layout_len as usize)
            .unwrap_or_default();
        walk.out.clear();
        for &slot in layout {
            let at = 2 * slot as usize;
            let pair = match walk.stack.get(at..at + 2) {
                Some(&[s, e]) if slot != ABSENT => [s, e],
                _ => [NONE, NONE],
            };
            walk.out.extend_from_slice(&pair);
        }
    }
}

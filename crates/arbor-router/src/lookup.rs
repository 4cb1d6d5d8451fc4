//! The hot path: a depth-first walk of the flattened tree.
//!
//! Definition order is a branch-and-bound search: every node knows the smallest rank (route id,
//! statics first) of the leaves below it, so the walk skips any subtree that cannot beat the best
//! match found so far, and tries dynamic children most promising first. Specificity order is the
//! same walk with children in specificity order, stopping at the first match; only a run of sibling
//! segment tails of one class is ordered on the path itself (`order_tails`). Each node is entered
//! at exactly one path position (static text, a segment and a segment regex each consume a fixed
//! amount), so the walk visits each node at most once: cost depends on the path and the tree shape,
//! never on a scan over routes. Static routes are not in this tree: `statics` answers them before
//! the walk. Nothing is allocated: values go to the caller's reusable `Spans` buffers.

use regex::bytes::CaptureLocations;

use crate::flat::{Flat, FlatNode, KIND_SEGMENT, KIND_TAIL_RUN};
use crate::ids::NONE;
use crate::route::{Matcher, ABSENT};
use crate::values::{Values, MAX_VALUES};
use crate::words::{has_byte, label_at, segment_end, word_at};

/// Per-lookup state, on the Rust stack.
pub(crate) struct Walk<'a> {
    pub(crate) path: &'a [u8],
    pub(crate) best_rank: u32,
    /// The route of the best match so far (`NONE` for none).
    pub(crate) best_route: u32,
    /// In specificity order the first match wins: the best rank drops to 0 so everything else prunes.
    first_wins: bool,
    /// The values pushed along the current tree path, `(start, end)` flattened (the caller's
    /// reusable buffer: nothing to initialise per lookup, nothing allocated after warm-up).
    stack: &'a mut Vec<u32>,
    /// The caller's spans: rewritten on each better match (rare: usually once).
    out: &'a mut Values,
    locs: &'a mut Vec<Option<CaptureLocations>>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(
        path: &'a [u8],
        first_wins: bool,
        stack: &'a mut Vec<u32>,
        out: &'a mut Values,
        locs: &'a mut Vec<Option<CaptureLocations>>,
    ) -> Self {
        stack.clear();
        Walk {
            path,
            best_rank: NONE,
            best_route: NONE,
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
    // taken out of the walk while the values are pushed, then put back. The buffer grows here, on
    // first use, rather than on every lookup.
    let m = matcher as usize;
    if walk.locs.len() <= m {
        walk.locs.resize_with(m + 1, || None);
    }
    let Some(slot) = walk.locs.get_mut(m) else {
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

/// A node whose dynamic children are still to be tried (after its static child's subtree):
/// the explicit backtrack stack of the walk.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Frame {
    /// Next dynamic child to try, and one past the last.
    next: u32,
    end: u32,
    /// Where the node was entered, and the end of the segment there (`NONE` until computed).
    pos: u32,
    seg_end: u32,
    /// Values pushed when the node was entered.
    depth: u32,
}

impl Frame {
    #[inline(always)]
    fn new(node: &FlatNode, pos: usize, depth: usize) -> Frame {
        Frame {
            next: node.dynamics,
            end: node.dynamics + node.n_dynamics,
            pos: pos as u32,
            seg_end: NONE,
            depth: depth as u32,
        }
    }
}

/// The end of the segment at `pos` (the frame's node was entered there), computed once per frame.
#[inline(always)]
fn seg_end(path: &[u8], pos: usize, f: &mut Frame) -> usize {
    if f.seg_end == NONE {
        f.seg_end = segment_end(path, pos) as u32;
    }
    f.seg_end as usize
}

impl Flat {
    #[inline]
    fn node(&self, idx: u32) -> Option<&FlatNode> {
        self.nodes.get(idx as usize)
    }

    /// Whether the label of `node` occurs in `path` at `pos` (`w`: `word_at(path, pos)`).
    #[inline(always)]
    fn label_matches(&self, node: &FlatNode, path: &[u8], pos: usize, w: u64) -> bool {
        let n = node.label_len as usize;
        if pos + n > path.len() || (w ^ node.head) & node.head_mask != 0 {
            return false;
        }
        if n <= 8 {
            return true;
        }
        if (word_at(path, pos + 8) ^ node.head2) & node.head2_mask != 0 {
            return false;
        }
        if n <= 16 {
            return true;
        }
        let ls = node.label_start as usize + 16;
        match self.labels.get(ls..ls + (n - 16)) {
            Some(rest) => label_at(path, pos + 16, rest),
            None => false,
        }
    }

    /// The static child of `node` whose label starts with `byte`: one SWAR compare of the packed
    /// first bytes for up to 8 children, one load from the node's 256-entry table beyond.
    #[inline(always)]
    fn static_child(&self, node: &FlatNode, byte: u8) -> Option<u32> {
        if node.n_statics <= 1 {
            // No scan for a lone child: its label compare checks the first byte anyway.
            return (node.n_statics == 1).then_some(node.statics);
        }
        if node.n_statics > 8 {
            let entry = *self.fanout.get(node.fanout as usize + byte as usize)?;
            return (entry != 0).then(|| node.statics + u32::from(entry) - 1);
        }
        let hit = has_byte(node.firsts, byte);
        if hit == 0 {
            return None;
        }
        let k = hit.trailing_zeros() / 8;
        (k < node.n_statics).then_some(node.statics + k)
    }

    /// Runs the search from `root`; the result is in `walk.best_route` / `walk.best_rank`.
    ///
    /// One loop: descend through static children (trying a node's static child before its dynamic
    /// ones), leaving a `Frame` for each node whose dynamic children are still to be tried; when a
    /// descent ends, resume the newest frame. Every node is entered at most once per position.
    #[inline(always)]
    pub(crate) fn search(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        frames: &mut Vec<Frame>,
        root: u32,
    ) {
        let path = walk.path;
        frames.clear();
        let Some(root_node) = self.node(root) else {
            return;
        };
        if !self.label_matches(root_node, path, 0, word_at(path, 0)) {
            return;
        }
        // The node being entered is carried as a reference: a child found by the descent is not
        // looked up again.
        let mut node = root_node;
        let mut pos = root_node.label_len as usize;
        'outer: loop {
            // Descend.
            let mut pending = None;
            loop {
                if node.min_rank >= walk.best_rank {
                    break;
                }
                if pos >= path.len() {
                    if node.leaf_rank < walk.best_rank {
                        walk.best_rank = if walk.first_wins { 0 } else { node.leaf_rank };
                        walk.best_route = node.leaf_route;
                        self.write_spans(node, walk);
                    }
                    // Children come after the tail, which needs at least one more byte.
                    if node.n_dynamics > 0 && node.tail_len == 0 {
                        pending = Some(Frame::new(node, pos, walk.depth()));
                    }
                    break;
                }
                if node.tail_len > 0 {
                    let n = node.tail_len as usize;
                    if pos + n > path.len()
                        || (word_at(path, pos) ^ node.tail) & node.tail_mask != 0
                    {
                        break;
                    }
                    pos += n;
                }
                if pos < path.len() {
                    let w = word_at(path, pos);
                    if let Some(c) = self.static_child(node, w as u8) {
                        if let Some(child) = self.node(c) {
                            if self.label_matches(child, path, pos, w) {
                                if node.n_dynamics > 0 {
                                    frames.push(Frame::new(node, pos, walk.depth()));
                                }
                                node = child;
                                pos += child.label_len as usize;
                                continue;
                            }
                        }
                    }
                }
                if node.n_dynamics == 1 {
                    // One dynamic child and no static child here: enter it directly. A frame would
                    // be taken at once and left empty; the values it would restore are restored by
                    // the frames below it, which all record a shallower depth.
                    let Some(child) = self.node(node.dynamics) else {
                        break;
                    };
                    if child.kind == KIND_SEGMENT {
                        if child.min_rank >= walk.best_rank {
                            break;
                        }
                        let end = segment_end(path, pos);
                        if end > pos && walk.push(pos, end) {
                            node = child;
                            pos = end;
                            continue;
                        }
                        break;
                    }
                }
                if node.n_dynamics > 0 {
                    pending = Some(Frame::new(node, pos, walk.depth()));
                }
                break;
            }
            // Try dynamic children: the node just left, else the newest frame.
            loop {
                let mut f = match pending.take() {
                    Some(f) => f,
                    None => match frames.pop() {
                        Some(f) => f,
                        None => break 'outer,
                    },
                };
                walk.backtrack(f.depth as usize);
                let at = f.pos as usize;
                while f.next < f.end {
                    let c = f.next;
                    f.next += 1;
                    let Some(child) = self.node(c) else {
                        break;
                    };
                    if child.min_rank >= walk.best_rank {
                        // Definition order sorts children by min_rank: none after this one can
                        // win either; in specificity order the best rank is 0 once anything matched.
                        break;
                    }
                    if let Some(next) =
                        self.enter_dynamic(matchers, walk, child, at, &mut f, frames)
                    {
                        if f.next < f.end {
                            frames.push(f);
                        }
                        node = child;
                        pos = next;
                        continue 'outer;
                    }
                    walk.backtrack(f.depth as usize);
                }
            }
        }
    }

    /// Matches the dynamic node `child` at `pos` and pushes its values; the position after it.
    #[inline(always)]
    fn enter_dynamic(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        child: &FlatNode,
        pos: usize,
        f: &mut Frame,
        frames: &mut Vec<Frame>,
    ) -> Option<usize> {
        if child.kind == KIND_SEGMENT {
            let end = seg_end(walk.path, pos, f);
            return (end > pos && walk.push(pos, end)).then_some(end);
        }
        self.enter_other(matchers, walk, child, pos, f, frames)
    }

    /// `enter_dynamic` for constrained segments, wildcards and regexes (out of line).
    #[inline(never)]
    fn enter_other(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        child: &FlatNode,
        pos: usize,
        f: &mut Frame,
        frames: &mut Vec<Frame>,
    ) -> Option<usize> {
        let path = walk.path;
        match matchers.get(child.matcher as usize)? {
            Matcher::Segment(check) => {
                let end = seg_end(path, pos, f);
                if end <= pos {
                    return None;
                }
                if let Some(check) = check {
                    if !check.matches(path.get(pos..end).unwrap_or_default()) {
                        return None;
                    }
                }
                walk.push(pos, end).then_some(end)
            }
            Matcher::Complex { regex, groups } => {
                // The first of a run of segment tails, reached from its parent's frame (not from a
                // frame of its own, which `order_tails` leaves with nothing after it): the run is
                // ordered on this path.
                if child.kind == KIND_TAIL_RUN && f.next < f.end {
                    self.order_tails(matchers, walk, f, frames);
                    return None;
                }
                let regex = regex.get()?;
                let end = seg_end(path, pos, f);
                (end > pos
                    && push_groups(
                        walk,
                        child.matcher,
                        regex,
                        pos,
                        end,
                        groups.iter().map(|&g| g as usize),
                    ))
                .then_some(end)
            }
            Matcher::Wildcard => walk.push(pos, path.len()).then_some(path.len()),
            Matcher::Block { regex } => {
                let regex = regex.get()?;
                let captures = regex.captures_len().saturating_sub(1);
                push_groups(walk, child.matcher, regex, pos, path.len(), 1..=captures)
                    .then_some(path.len())
            }
        }
    }

    /// Specificity order, a run of sibling segment tails of one class (`/{f}o/b`, `/{f}oo/b`, …)
    /// at `f.pos`: which comes first depends on the path, so the run is ordered here. Each tail that
    /// matches the segment gets a frame of its own, pushed so that the best is popped first, above a
    /// frame for the siblings after the run; `f` is then spent. A tail comes before another when, at
    /// the first character of the segment that one gives to static text and the other to a
    /// parameter, it has the static text (ROUTING.md §3.2); equal, the earlier sibling (definition order).
    /// A run is at most 64 tails (a bit set of those that match); any beyond are tried in sibling
    /// order after it.
    #[cold]
    #[inline(never)]
    fn order_tails(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        f: &mut Frame,
        frames: &mut Vec<Frame>,
    ) {
        let first = f.next - 1;
        let pos = f.pos as usize;
        let end = seg_end(walk.path, pos, f);
        let run = self.node(first).map_or(0, |n| n.run);
        let mut last = first;
        let mut matched = 0u64;
        while last < f.end && last - first < 64 {
            let Some(node) = self.node(last).filter(|n| n.run == run) else {
                break;
            };
            if end > pos && self.tail_spans(matchers, walk, node, pos, end) {
                matched |= 1 << (last - first);
            }
            last += 1;
        }
        if last < f.end {
            frames.push(Frame { next: last, ..*f });
        }
        // Worst first, so the best is on top of the stack.
        let mut left = matched;
        while left != 0 {
            let mut worst = left.trailing_zeros();
            let mut rest = left & (left - 1);
            while rest != 0 {
                let k = rest.trailing_zeros();
                rest &= rest - 1;
                if !self.tail_before(matchers, walk, first + k, first + worst) {
                    worst = k;
                }
            }
            left &= !(1 << worst);
            frames.push(Frame {
                next: first + worst,
                end: first + worst + 1,
                ..*f
            });
        }
        f.next = f.end;
    }

    /// Matches the segment tail `node` on `path[pos..end]`, leaving its spans in `walk.locs`.
    fn tail_spans(
        &self,
        matchers: &[Matcher],
        walk: &mut Walk<'_>,
        node: &FlatNode,
        pos: usize,
        end: usize,
    ) -> bool {
        let Some(Matcher::Complex { regex, .. }) = matchers.get(node.matcher as usize) else {
            return false;
        };
        let Some(regex) = regex.get() else {
            return false;
        };
        let (Some(hay), m) = (walk.path.get(pos..end), node.matcher as usize) else {
            return false;
        };
        if walk.locs.len() <= m {
            walk.locs.resize_with(m + 1, || None);
        }
        let Some(slot) = walk.locs.get_mut(m) else {
            return false;
        };
        let locs = slot.get_or_insert_with(|| regex.capture_locations());
        regex.captures_read(locs, hay).is_some()
    }

    /// Whether tail `a` comes before tail `b` (both matched by `tail_spans` on the same segment):
    /// strictly before on the characters, or equal and earlier among the siblings.
    fn tail_before(&self, matchers: &[Matcher], walk: &Walk<'_>, a: u32, b: u32) -> bool {
        let spans = |idx: u32| {
            let node = self.node(idx)?;
            let Some(Matcher::Complex { groups, .. }) = matchers.get(node.matcher as usize) else {
                return None;
            };
            let locs = walk.locs.get(node.matcher as usize)?.as_ref()?;
            Some((groups, locs))
        };
        let (Some((ga, la)), Some((gb, lb))) = (spans(a), spans(b)) else {
            return a < b;
        };
        let covered = |groups: &[u32], locs: &CaptureLocations, at: usize| {
            groups
                .iter()
                .any(|&g| locs.get(g as usize).is_some_and(|(s, e)| s <= at && at < e))
        };
        let reach = |groups: &[u32], locs: &CaptureLocations| {
            groups
                .iter()
                .filter_map(|&g| locs.get(g as usize).map(|(_, e)| e))
                .max()
                .unwrap_or(0)
        };
        let len = reach(ga, la).max(reach(gb, lb));
        for at in 0..len {
            let (pa, pb) = (covered(ga, la, at), covered(gb, lb, at));
            if pa != pb {
                return pb;
            }
        }
        a < b
    }

    /// Writes the spans of a better match (per its leaf layout) into the caller's buffer.
    #[inline(always)]
    fn write_spans(&self, node: &FlatNode, walk: &mut Walk<'_>) {
        let start = node.layout_start as usize;
        let layout = self
            .layouts
            .get(start..start + node.layout_len as usize)
            .unwrap_or_default();
        walk.out.clear();
        // Most routes take their values in push order: copied pair by pair, without reading the
        // layout (a `memcpy` call costs more for one or two pairs). The stack always holds them;
        // checked so that a short one still gets the general loop's `NONE` pairs.
        if node.direct && walk.stack.len() >= 2 * layout.len() {
            for pair in walk.stack.chunks_exact(2).take(layout.len()) {
                if let &[s, e] = pair {
                    walk.out.push_pair(s, e);
                }
            }
            return;
        }
        for &slot in layout {
            let at = 2 * slot as usize;
            let (s, e) = match walk.stack.get(at..at + 2) {
                Some(&[s, e]) if slot != ABSENT => (s, e),
                _ => (NONE, NONE),
            };
            walk.out.push_pair(s, e);
        }
    }
}

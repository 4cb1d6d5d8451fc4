//! The flattened tree in a snapshot, so that a loaded router answers its first lookup without
//! flattening the tree again (work that would otherwise be repeated, in WebAssembly, at every start
//! from the route cache).
//!
//! A forged snapshot with a valid checksum must not make the walk loop, revisit nodes or write spans
//! that disagree with the route metadata: [`read`] checks that the nodes form a forest laid out
//! breadth-first (every child after its parent, every node with at most one parent, fan-out tables
//! pointing at the node's own children), that every range lies inside its array, that every leaf's
//! layout fits its route, and that the static table has a free slot (its probe stops there).
//!
//! The lean walk's segment trie (`segments/`) follows, when the tree converts to one, so that a load
//! does not build it either; `Segments::from_parts` checks it once the router's matchers exist.

use crate::flat::{Flat, FlatNode, KIND_TAIL_RUN};
use crate::ids::NONE;
use crate::route::ABSENT;
use crate::segments::{SegmentParts, DEFAULT_WORDS};
use crate::shapes::RouteShapes;
use crate::statics::{Entry, Statics, EMPTY};
use crate::values::MAX_VALUES;

use crate::error::SnapshotError;
use crate::router::codec::{corrupt, u32_at, Reader, Writer};

/// Bytes of one node in the snapshot (the minimum a forged count is checked against).
const NODE_SIZE: usize = 7 * 8 + 14 * 4 + 3;

pub(super) fn write(flat: &Flat, w: &mut Writer) {
    w.len(flat.nodes.len());
    for n in &flat.nodes {
        for word in [
            n.head,
            n.head_mask,
            n.head2,
            n.head2_mask,
            n.firsts,
            n.tail,
            n.tail_mask,
        ] {
            w.u64(word);
        }
        for number in [
            n.fanout,
            n.label_start,
            n.label_len,
            n.statics,
            n.n_statics,
            n.dynamics,
            n.n_dynamics,
            n.matcher,
            n.tail_len,
            n.min_rank,
            n.leaf_route,
            n.leaf_rank,
            n.layout_start,
            n.layout_len,
        ] {
            w.u32(number);
        }
        w.u8(n.kind);
        w.u8(u8::from(n.direct));
        w.u8(n.run);
    }
    w.len(flat.fanout.len());
    for &entry in &flat.fanout {
        w.u32(u32::from(entry));
    }
    w.bytes(&flat.labels);
    w.bytes(&flat.layouts);
    w.u32s(&flat.roots);
    w.len(flat.slash_ends.len());
    for &ends in &flat.slash_ends {
        w.u8(u8::from(ends));
    }
    let statics = &flat.statics;
    w.u32(statics.shift);
    w.u64(statics.lens);
    w.bytes(&statics.bytes);
    w.len(statics.slots.len());
    for e in &statics.slots {
        w.u64(e.hash);
        w.u64(e.tail);
        w.u64(e.meta);
        w.u32(e.start);
        w.u32(e.route);
    }
    // The lean walk's trie, so that a load does not build it again (`Segments::from_parts`).
    match &flat.segments {
        None => w.u8(0),
        Some(segments) => {
            w.u8(1);
            write_segments(&segments.parts(), w);
        }
    }
}

fn write_segments(parts: &SegmentParts, w: &mut Writer) {
    // Each node: a mask of the words that differ from a new node's, then those words.
    w.len(parts.nodes.len());
    for node in &parts.nodes {
        let mut mask = 0u16;
        for (bit, (word, default)) in node.iter().zip(DEFAULT_WORDS).enumerate() {
            if *word != default {
                mask |= 1 << bit;
            }
        }
        w.u16(mask);
        for (word, default) in node.iter().zip(DEFAULT_WORDS) {
            if *word != default {
                w.u32(*word);
            }
        }
    }
    w.len(parts.keys.len());
    for (w0, numbers) in &parts.keys {
        w.u64(*w0);
        for &number in numbers {
            w.u32(number);
        }
    }
    w.u32s(&parts.slots);
    w.bytes(&parts.text);
    w.u32s(&parts.check_matchers);
    w.u32s(&parts.roots);
}

/// Bytes of one static child of the trie in a snapshot: its first word and three numbers.
const KEY_SIZE: usize = 8 + 3 * 4;

/// The trie's numbers as [`write_segments`] wrote them, unchecked: `Segments::from_parts` checks them
/// once the router's matchers exist.
fn read_segments(r: &mut Reader<'_>) -> Result<SegmentParts, SnapshotError> {
    // Two reads per node (its mask, then its words) and the keys in one block, not one read per
    // number: a start reads tens of thousands of nodes in code that runs once (at WebAssembly's
    // baseline speed), where a bounds check and an error path per number cost more than the
    // decoding.
    let n = r.count(2)?;
    let mut nodes = Vec::with_capacity(n);
    for _ in 0..n {
        let mask = r.u16()?;
        let mut stored = r.take(mask.count_ones() as usize * 4)?.chunks_exact(4);
        let mut node = DEFAULT_WORDS;
        for (bit, word) in node.iter_mut().enumerate() {
            if mask & (1 << bit) != 0 {
                *word = stored.next().map_or(0, u32_at);
            }
        }
        nodes.push(node);
    }
    let n_keys = r.count(KEY_SIZE)?;
    let keys = r
        .take(n_keys * KEY_SIZE)?
        .chunks_exact(KEY_SIZE)
        .map(|raw| {
            let (w0, numbers) = raw.split_at(8);
            let mut rest = numbers.chunks_exact(4).map(u32_at);
            let w0 = <[u8; 8]>::try_from(w0).map_or(0, u64::from_le_bytes);
            (w0, [(); 3].map(|()| rest.next().unwrap_or(0)))
        })
        .collect();
    Ok(SegmentParts {
        nodes,
        keys,
        slots: r.u32s()?,
        text: r.bytes()?,
        check_matchers: r.u32s()?,
        roots: r.u32s()?,
    })
}

/// One node from its `NODE_SIZE` bytes, in [`write`]'s order: seven words, fourteen numbers, three
/// bytes.
fn node_at(raw: &[u8]) -> Result<FlatNode, SnapshotError> {
    let word = |i: usize| {
        raw.get(i * 8..i * 8 + 8)
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let number = |i: usize| raw.get(7 * 8 + i * 4..7 * 8 + i * 4 + 4).map_or(0, u32_at);
    let byte = |i: usize| raw.get(7 * 8 + 14 * 4 + i).copied().unwrap_or(0);
    let direct = match byte(1) {
        0 => false,
        1 => true,
        _ => return Err(corrupt("invalid boolean")),
    };
    Ok(FlatNode {
        head: word(0),
        head_mask: word(1),
        head2: word(2),
        head2_mask: word(3),
        firsts: word(4),
        tail: word(5),
        tail_mask: word(6),
        fanout: number(0),
        label_start: number(1),
        label_len: number(2),
        statics: number(3),
        n_statics: number(4),
        dynamics: number(5),
        n_dynamics: number(6),
        matcher: number(7),
        tail_len: number(8),
        min_rank: number(9),
        leaf_route: number(10),
        leaf_rank: number(11),
        layout_start: number(12),
        layout_len: number(13),
        kind: byte(0),
        direct,
        run: byte(2),
    })
}

/// The flat tree (its `segments` left empty) and the lean walk's trie as stored, if it was.
pub(super) fn read(
    r: &mut Reader<'_>,
    shapes: &RouteShapes,
    n_matchers: usize,
    n_methods: usize,
) -> Result<(Flat, Option<SegmentParts>), SnapshotError> {
    let n = r.count(NODE_SIZE)?;
    // One block, decoded by position: see `read_segments`.
    let nodes = r
        .take(n * NODE_SIZE)?
        .chunks_exact(NODE_SIZE)
        .map(node_at)
        .collect::<Result<Vec<_>, _>>()?;
    let n_fanout = r.count(4)?;
    let mut fanout = Vec::with_capacity(n_fanout);
    for _ in 0..n_fanout {
        fanout.push(u16::try_from(r.u32()?).map_err(|_| corrupt("fan-out entry"))?);
    }
    let labels = r.bytes()?;
    let layouts = r.bytes()?;
    let roots = r.u32s()?;
    let n_ends = r.count(1)?;
    let slash_ends = (0..n_ends).map(|_| r.bool()).collect::<Result<_, _>>()?;
    let shift = r.u32()?;
    let lens = r.u64()?;
    let bytes = r.bytes()?;
    let n_slots = r.count(32)?;
    let mut slots = Vec::with_capacity(n_slots);
    for _ in 0..n_slots {
        slots.push(Entry {
            hash: r.u64()?,
            tail: r.u64()?,
            meta: r.u64()?,
            start: r.u32()?,
            route: r.u32()?,
        });
    }
    let segments = match r.u8()? {
        0 => None,
        1 => Some(read_segments(r)?),
        _ => return Err(corrupt("segment trie flag")),
    };
    let flat = Flat {
        nodes,
        fanout,
        labels,
        layouts,
        roots,
        statics: Statics {
            slots,
            shift,
            bytes,
            lens,
        },
        slash_ends,
        // Checked against the router's matchers once they exist (`Segments::from_parts`).
        segments: None,
    };
    validate(&flat, shapes, n_matchers, n_methods)?;
    Ok((flat, segments))
}

/// Whether a leaf's value layout (`layouts[start..start + len]`) fits its route: one slot per value the
/// route has, each slot a value's index or absent.
pub(super) fn leaf_fits(
    layouts: &[u8],
    shapes: &RouteShapes,
    route: u32,
    start: u32,
    len: u32,
) -> bool {
    let Some(values) = shapes.values(route as usize) else {
        return false;
    };
    let Some(layout) = layouts.get(start as usize..start as usize + len as usize) else {
        return false;
    };
    layout.len() == values
        && values <= MAX_VALUES
        && layout
            .iter()
            .all(|&s| s == ABSENT || (s as usize) < MAX_VALUES)
}

/// The checks of the module comment.
fn validate(
    flat: &Flat,
    shapes: &RouteShapes,
    n_matchers: usize,
    n_methods: usize,
) -> Result<(), SnapshotError> {
    let n = flat.nodes.len() as u64;
    let within =
        |start: u32, len: u32, size: usize| u64::from(start) + u64::from(len) <= size as u64;
    if flat.roots.len() > n_methods || flat.slash_ends.len() > n_methods {
        return Err(corrupt("flat tree: more roots than methods"));
    }
    // Every node has at most one parent; roots have none.
    let mut has_parent = vec![false; flat.nodes.len()];
    for &root in &flat.roots {
        if root == NONE {
            continue;
        }
        match has_parent.get_mut(root as usize) {
            Some(seen) if !*seen => *seen = true,
            _ => return Err(corrupt("flat tree: invalid root")),
        }
    }
    for (i, node) in flat.nodes.iter().enumerate() {
        let i = i as u64;
        for (first, count) in [
            (node.statics, node.n_statics),
            (node.dynamics, node.n_dynamics),
        ] {
            if count == 0 {
                continue;
            }
            if u64::from(first) <= i || u64::from(first) + u64::from(count) > n {
                return Err(corrupt("flat tree: child out of order"));
            }
            for child in first..first + count {
                match has_parent.get_mut(child as usize) {
                    Some(seen) if !*seen => *seen = true,
                    _ => return Err(corrupt("flat tree: node with two parents")),
                }
            }
        }
        if node.n_statics > 8 {
            let table = flat
                .fanout
                .get(node.fanout as usize..node.fanout as usize + 256)
                .ok_or_else(|| corrupt("flat tree: fan-out table"))?;
            if table.iter().any(|&e| u32::from(e) > node.n_statics) {
                return Err(corrupt("flat tree: fan-out entry"));
            }
        }
        if !within(node.label_start, node.label_len, flat.labels.len())
            || !within(node.layout_start, node.layout_len, flat.layouts.len())
            || node.tail_len > 8
            || node.kind > KIND_TAIL_RUN
            || (node.matcher != NONE && node.matcher as usize >= n_matchers)
        {
            return Err(corrupt("flat tree: node fields"));
        }
        if node.leaf_route != NONE
            && !leaf_fits(
                &flat.layouts,
                shapes,
                node.leaf_route,
                node.layout_start,
                node.layout_len,
            )
        {
            return Err(corrupt(
                "flat tree: leaf layout inconsistent with its route",
            ));
        }
    }
    let statics = &flat.statics;
    if statics.shift >= 64 {
        return Err(corrupt("static table"));
    }
    if !statics.slots.is_empty() {
        let size = 1u64.checked_shl(64 - statics.shift);
        if statics.shift == 0
            || size != Some(statics.slots.len() as u64)
            || !statics.slots.iter().any(|e| e.meta == EMPTY)
            || statics
                .slots
                .iter()
                .any(|e| e.meta != EMPTY && e.route as usize >= shapes.routes.len())
        {
            return Err(corrupt("static table"));
        }
    }
    Ok(())
}

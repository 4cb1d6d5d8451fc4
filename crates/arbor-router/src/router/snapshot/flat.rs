//! The flattened tree in a snapshot, so that a loaded router answers its first lookup without
//! flattening the tree again (a table of 10,000 routes: tens of milliseconds in WebAssembly, at every
//! start from the route cache).
//!
//! A forged snapshot with a valid checksum must not make the walk loop, revisit nodes or write spans
//! that disagree with the route metadata: [`read`] checks that the nodes form a forest laid out
//! breadth-first (every child after its parent, every node with at most one parent, fan-out tables
//! pointing at the node's own children), that every range lies inside its array, that every leaf's
//! layout fits its route, and that the static table has a free slot (its probe stops there).

use crate::route::ABSENT;
use crate::shapes::RouteShapes;
use crate::statics::{Entry, Statics, EMPTY};
use crate::tree::{Flat, FlatNode, KIND_TAIL_RUN};
use crate::{MAX_VALUES, NONE};

use super::{corrupt, Reader, Writer};
use crate::SnapshotError;

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
}

pub(super) fn read(
    r: &mut Reader<'_>,
    shapes: &RouteShapes,
    n_matchers: usize,
    n_methods: usize,
) -> Result<Flat, SnapshotError> {
    let n = r.count(NODE_SIZE)?;
    let mut nodes = Vec::with_capacity(n);
    for _ in 0..n {
        let mut words = [0u64; 7];
        for word in &mut words {
            *word = r.u64()?;
        }
        let mut numbers = [0u32; 14];
        for number in &mut numbers {
            *number = r.u32()?;
        }
        let [head, head_mask, head2, head2_mask, firsts, tail, tail_mask] = words;
        let [fanout, label_start, label_len, statics, n_statics, dynamics, n_dynamics, matcher, tail_len, min_rank, leaf_route, leaf_rank, layout_start, layout_len] =
            numbers;
        nodes.push(FlatNode {
            head,
            head_mask,
            head2,
            head2_mask,
            firsts,
            fanout,
            label_start,
            label_len,
            statics,
            n_statics,
            dynamics,
            n_dynamics,
            matcher,
            tail,
            tail_mask,
            tail_len,
            min_rank,
            leaf_route,
            leaf_rank,
            layout_start,
            layout_len,
            kind: r.u8()?,
            direct: r.bool()?,
            run: r.u8()?,
        });
    }
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
        // Built from these nodes once the matchers are known (`Router::with_segments`).
        segments: None,
    };
    validate(&flat, shapes, n_matchers, n_methods)?;
    Ok(flat)
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
        if node.leaf_route != NONE {
            let values = shapes
                .values(node.leaf_route as usize)
                .ok_or_else(|| corrupt("flat tree: leaf route out of range"))?;
            let layout = flat
                .layouts
                .get(
                    node.layout_start as usize
                        ..node.layout_start as usize + node.layout_len as usize,
                )
                .unwrap_or_default();
            if layout.len() != values
                || values > MAX_VALUES
                || layout
                    .iter()
                    .any(|&s| s != ABSENT && s as usize >= MAX_VALUES)
            {
                return Err(corrupt(
                    "flat tree: leaf layout inconsistent with its route",
                ));
            }
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

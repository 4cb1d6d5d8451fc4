//! The lean walk's segment trie (`segments/`) made from the flat tree (`flat.rs`): a walk of the flat
//! tree's nodes that feeds the trie's builder whole segments and whole-segment parameters, and
//! records below each node the smallest rank of what only the byte walk handles.
//!
//! It lives apart from both: the flat tree holds the trie it is converted to, and the trie knows
//! nothing of the flat tree it is made from.

use crate::flat::{Flat, FlatNode, KIND_SEGMENT};
use crate::ids::NONE;
use crate::route::Matcher;
use crate::segments::{Builder, SegLeaf, Segments};

/// Where the conversion of a flat node starts: the trie's node, where its segment begins in the
/// text from the root (`segment_trie`'s `path`, cut back to `path_len`), and whether a parameter
/// ended just before (what follows must start a segment).
#[derive(Debug, Clone, Copy)]
struct Cursor {
    flat: u32,
    at: u32,
    path_len: usize,
    segment_start: usize,
    after_param: bool,
}

/// The segment trie of `flat`'s dynamic routes (`matchers`: the router's, by id), or `None` when
/// the flat tree does not convert (a forged snapshot's, or static text right after a parameter):
/// the byte walk then runs alone.
pub(crate) fn segment_trie(flat: &Flat, matchers: &[Matcher]) -> Option<Segments> {
    let mut b = Builder::with_capacity(flat.nodes.len());
    let mut roots = Vec::with_capacity(flat.roots.len());
    let mut seen = vec![false; flat.nodes.len()];
    // The static text from the root to the node at hand (a parameter's place left empty).
    let mut path: Vec<u8> = Vec::new();
    for &root in &flat.roots {
        if root == NONE {
            roots.push(NONE);
            continue;
        }
        let at = b.root();
        roots.push(at);
        let mut stack = vec![Cursor {
            flat: root,
            at,
            path_len: 0,
            segment_start: 0,
            after_param: false,
        }];
        while let Some(mut cur) = stack.pop() {
            // A tree reaches each node once; a forged snapshot's might not.
            let seen = seen.get_mut(cur.flat as usize)?;
            if *seen {
                return None;
            }
            *seen = true;
            path.truncate(cur.path_len);
            let node = flat.nodes.get(cur.flat as usize)?;
            if node.matcher != NONE {
                if !enter_param(&mut b, &mut cur, &path, node, matchers)? {
                    continue;
                }
            } else {
                let start = node.label_start as usize;
                let label = flat.labels.get(start..start + node.label_len as usize)?;
                feed(&mut b, &mut cur, &mut path, label)?;
            }
            if node.leaf_route != NONE {
                add_leaf(&mut b, &cur, &path, node)?;
            }
            if node.tail_len > 0 {
                let tail = node.tail.to_le_bytes();
                let tail = tail.get(..node.tail_len as usize)?;
                feed(&mut b, &mut cur, &mut path, tail)?;
            }
            if node.statics + node.n_statics != node.dynamics {
                return None;
            }
            cur.path_len = path.len();
            for c in node.statics..node.dynamics + node.n_dynamics {
                stack.push(Cursor { flat: c, ..cur });
            }
        }
    }
    // What only the build needed is freed, so that the arrays laid out next can take its memory.
    drop(seen);
    drop(path);
    Some(b.finish(roots))
}

/// A dynamic flat node: when it is a parameter that is the whole segment, the cursor moves to its
/// parameter child (`true`); otherwise its subtree is left to the byte walk, which the lean walk
/// calls when that subtree could win (`false`: nothing below it is converted).
fn enter_param(
    b: &mut Builder,
    cur: &mut Cursor,
    path: &[u8],
    node: &FlatNode,
    matchers: &[Matcher],
) -> Option<bool> {
    let segment = path.get(cur.segment_start..).unwrap_or_default();
    let child = match matchers.get(node.matcher as usize) {
        _ if segment != b"/" => None,
        _ if node.kind == KIND_SEGMENT => b.param_child(cur.at, node.matcher, None),
        Some(Matcher::Segment(Some(check))) => b.param_child(cur.at, node.matcher, Some(check)),
        _ => None,
    };
    let Some(child) = child else {
        b.leave_to_byte_walk(cur.at, node.min_rank)?;
        return Some(false);
    };
    cur.at = child;
    cur.segment_start = path.len();
    cur.after_param = true;
    Some(true)
}

/// Feeds static text: each `/` that does not start the segment at hand closes it, as a static
/// child. Static text right after a parameter must start a segment.
fn feed(b: &mut Builder, cur: &mut Cursor, path: &mut Vec<u8>, text: &[u8]) -> Option<()> {
    if text.is_empty() {
        return Some(());
    }
    if cur.after_param && text.first() != Some(&b'/') {
        return None;
    }
    cur.after_param = false;
    for &byte in text {
        if byte == b'/' && path.len() > cur.segment_start {
            let segment = path.get(cur.segment_start..).unwrap_or_default();
            cur.at = b.static_child(cur.at, segment);
            cur.segment_start = path.len();
        }
        path.push(byte);
    }
    Some(())
}

/// The leaf of flat node `node`, at the end of the segment at hand (its own static child when the
/// segment has text).
fn add_leaf(b: &mut Builder, cur: &Cursor, path: &[u8], node: &FlatNode) -> Option<()> {
    let segment = path.get(cur.segment_start..).unwrap_or_default();
    let at = if segment.is_empty() {
        cur.at
    } else {
        b.static_child(cur.at, segment)
    };
    b.offer_leaf(
        at,
        SegLeaf {
            rank: node.leaf_rank,
            route: node.leaf_route,
            layout_start: node.layout_start,
            layout_len: node.layout_len,
            direct: node.direct,
        },
    )
}

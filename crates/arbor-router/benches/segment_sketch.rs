//! A sketch of a whole-segment walk, timed against `Router::lookup` on the GitHub table's dynamic
//! requests: a yardstick for the walk's speed, i.e. what a hot loop with few live values runs at
//! (docs/PERFORMANCE.md: the full segment-granular walk was built and measured no faster than the
//! byte walk; the sketch is fast for what it leaves out). Not the engine, and not a router: it knows
//! static segments and plain parameters only, takes the first match (a static child before the
//! parameter, with backtracking), and skips the static-route probe, the `?`/`#`/non-ASCII check and
//! the value layout that `Router::lookup` does. Both answer every request; their route ids are not
//! compared (the rules differ).
//!
//! ```text
//! cargo bench -p arbor-router --bench segment_sketch       # ns per lookup, both, three times
//! ```
//!
//! The wasm figures in the docs come from the same two loops built into a `cdylib` for
//! `wasm32-unknown-unknown` and called once per batch from Node (no crossing per lookup).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use arbor_router::{Lookup, Router, RouterOptions, Spans};

mod tables;

const NONE: u32 = u32::MAX;
/// Beyond this many static children, a node finds one through a small hash table, not a scan.
const SCAN_LIMIT: usize = 4;

/// One node: static children keyed by their whole segment, at most one parameter child, a leaf.
struct Node {
    /// (first 8 bytes, length, child) of segments up to 8 bytes: one compare of a word and a length.
    short: Vec<(u64, u32, u32)>,
    long: Vec<(Vec<u8>, u32)>,
    /// Open-addressed indices into `short` when it has more than `SCAN_LIMIT` entries.
    table: Vec<u32>,
    shift: u32,
    param: u32,
    leaf: u32,
}

struct SegmentTrie {
    nodes: Vec<Node>,
    roots: HashMap<String, u32>,
}

/// Up to 8 bytes as a little-endian word, zero-padded.
fn word(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .take(8)
        .enumerate()
        .fold(0, |w, (i, &b)| w | u64::from(b) << (8 * i))
}

fn slot(w: u64, len: usize, shift: u32) -> usize {
    ((w ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// The next `/` at or after `pos`, or the end: 8 bytes at a time.
fn segment_end(path: &[u8], pos: usize) -> usize {
    let mut i = pos;
    while i + 8 <= path.len() {
        let x = u64::from_le_bytes(path[i..i + 8].try_into().unwrap()) ^ 0x2f2f_2f2f_2f2f_2f2f;
        let hit = x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080;
        if hit != 0 {
            return i + (hit.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    path[i..]
        .iter()
        .position(|&b| b == b'/')
        .map_or(path.len(), |k| i + k)
}

impl SegmentTrie {
    fn new() -> Self {
        SegmentTrie {
            nodes: Vec::new(),
            roots: HashMap::new(),
        }
    }

    fn add_node(&mut self) -> u32 {
        self.nodes.push(Node {
            short: Vec::new(),
            long: Vec::new(),
            table: Vec::new(),
            shift: 0,
            param: NONE,
            leaf: NONE,
        });
        (self.nodes.len() - 1) as u32
    }

    fn insert(&mut self, method: &str, pattern: &str, id: u32) {
        let root = match self.roots.get(method) {
            Some(&r) => r,
            None => {
                let r = self.add_node();
                self.roots.insert(method.to_owned(), r);
                r
            }
        };
        let mut n = root as usize;
        for segment in pattern.split('/').skip(1) {
            let child = if segment.starts_with(':') {
                self.nodes[n].param
            } else {
                let b = segment.as_bytes();
                let node = &self.nodes[n];
                if b.len() <= 8 {
                    let key = (word(b), b.len() as u32);
                    node.short
                        .iter()
                        .find(|e| (e.0, e.1) == key)
                        .map_or(NONE, |e| e.2)
                } else {
                    node.long.iter().find(|e| e.0 == b).map_or(NONE, |e| e.1)
                }
            };
            let child = if child == NONE {
                let c = self.add_node();
                let b = segment.as_bytes();
                let node = &mut self.nodes[n];
                if segment.starts_with(':') {
                    node.param = c;
                } else if b.len() <= 8 {
                    node.short.push((word(b), b.len() as u32, c));
                } else {
                    node.long.push((b.to_vec(), c));
                }
                c
            } else {
                child
            };
            n = child as usize;
        }
        if self.nodes[n].leaf == NONE {
            self.nodes[n].leaf = id;
        }
    }

    /// Builds the hash tables of the nodes with many short static children.
    fn index(&mut self) {
        for node in &mut self.nodes {
            if node.short.len() > SCAN_LIMIT {
                let size = (node.short.len() * 2).next_power_of_two();
                node.shift = 64 - size.trailing_zeros();
                node.table = vec![NONE; size];
                for (i, &(w, len, _)) in node.short.iter().enumerate() {
                    let mut k = slot(w, len as usize, node.shift);
                    while node.table[k] != NONE {
                        k = (k + 1) & (size - 1);
                    }
                    node.table[k] = i as u32;
                }
            }
        }
    }

    fn static_child(node: &Node, segment: &[u8]) -> u32 {
        if segment.len() > 8 {
            return node
                .long
                .iter()
                .find(|e| e.0 == segment)
                .map_or(NONE, |e| e.1);
        }
        let key = (word(segment), segment.len() as u32);
        if node.table.is_empty() {
            return node
                .short
                .iter()
                .find(|e| (e.0, e.1) == key)
                .map_or(NONE, |e| e.2);
        }
        let mask = node.table.len() - 1;
        let mut k = slot(key.0, segment.len(), node.shift);
        loop {
            let i = node.table[k];
            if i == NONE {
                return NONE;
            }
            let e = node.short[i as usize];
            if (e.0, e.1) == key {
                return e.2;
            }
            k = (k + 1) & mask;
        }
    }

    /// The route of `path` (which starts with `/`), values as (start, end) pairs in `values`.
    /// Fixed arrays, as the engine's spans are: no capacity checks in the loop.
    #[inline(never)]
    fn lookup(
        &self,
        root: u32,
        path: &[u8],
        values: &mut [u32; 64],
        stack: &mut [(u32, u32, u32); 32],
    ) -> u32 {
        let (mut n, mut pos, mut nv, mut sp) = (root, 1usize, 0usize, 0usize);
        loop {
            let node = &self.nodes[n as usize];
            if pos > path.len() {
                if node.leaf != NONE {
                    return node.leaf;
                }
            } else {
                let end = segment_end(path, pos);
                let child = Self::static_child(node, &path[pos..end]);
                let param = node.param != NONE && end > pos && nv < 64;
                if child != NONE {
                    if param && sp < 32 {
                        stack[sp] = (n, pos as u32, nv as u32);
                        sp += 1;
                    }
                    (n, pos) = (child, end + 1);
                    continue;
                }
                if param {
                    (values[nv], values[nv + 1]) = (pos as u32, end as u32);
                    nv += 2;
                    (n, pos) = (node.param, end + 1);
                    continue;
                }
            }
            // Back to the newest node whose parameter child is still to try.
            if sp == 0 {
                return NONE;
            }
            sp -= 1;
            let (at, from, depth) = stack[sp];
            let from = from as usize;
            let end = segment_end(path, from);
            nv = depth as usize;
            (values[nv], values[nv + 1]) = (from as u32, end as u32);
            nv += 2;
            (n, pos) = (self.nodes[at as usize].param, end + 1);
        }
    }
}

fn main() {
    let (routes, requests) = tables::github();
    let mut trie = SegmentTrie::new();
    let mut router = Router::new(RouterOptions::default());
    for (id, (method, pattern)) in routes.iter().enumerate() {
        trie.insert(method, pattern, id as u32);
        router.insert(&[method.as_str()], pattern).unwrap();
    }
    trie.index();
    let dynamic: Vec<(&String, &[u8])> = routes
        .iter()
        .zip(&requests)
        .filter(|((_, pattern), _)| pattern.contains(':'))
        .map(|(_, (method, url))| (method, url.as_bytes()))
        .collect();
    let sketch: Vec<(u32, &[u8])> = dynamic
        .iter()
        .map(|(m, u)| (trie.roots[m.as_str()], *u))
        .collect();
    let engine: Vec<(u32, &[u8])> = dynamic
        .iter()
        .map(|(m, u)| (router.method_id(m).unwrap(), *u))
        .collect();

    let (mut values, mut stack, mut spans) = ([0u32; 64], [(0u32, 0u32, 0u32); 32], Spans::new());
    let run_sketch = |passes: usize, values: &mut [u32; 64], stack: &mut [(u32, u32, u32); 32]| {
        let mut sum = 0u32;
        for _ in 0..passes {
            for &(root, path) in &sketch {
                let id = trie.lookup(root, black_box(path), values, stack);
                assert_ne!(id, NONE);
                sum = sum
                    .wrapping_add(id)
                    .wrapping_add(values.first().copied().unwrap_or(0));
            }
        }
        sum
    };
    let run_engine = |passes: usize, spans: &mut Spans| {
        let mut sum = 0u32;
        for _ in 0..passes {
            for &(method, path) in &engine {
                let Lookup::Found(id) = router.lookup(method, black_box(path), spans) else {
                    panic!("{} not found", String::from_utf8_lossy(path));
                };
                sum = sum
                    .wrapping_add(id)
                    .wrapping_add(spans.as_slice().first().copied().unwrap_or(0));
            }
        }
        sum
    };
    black_box(run_sketch(200, &mut values, &mut stack));
    black_box(run_engine(200, &mut spans));
    let per_lookup =
        |t: Instant, passes: usize| t.elapsed().as_nanos() as f64 / (passes * dynamic.len()) as f64;
    println!("{} dynamic GitHub requests, ns per lookup:", dynamic.len());
    for _ in 0..3 {
        let t = Instant::now();
        black_box(run_sketch(2000, &mut values, &mut stack));
        let sketch_ns = per_lookup(t, 2000);
        let t = Instant::now();
        black_box(run_engine(2000, &mut spans));
        println!(
            "segment sketch {sketch_ns:.1}  Router::lookup {:.1}",
            per_lookup(t, 2000)
        );
    }
}

//! Exact static routes in one hash table, looked up before the tree: ROUTING.md §3 rule 2 makes an exact
//! static route beat any dynamic one (in both orders), so a whole-path hit is final and the walk is
//! skipped. The tree then only serves dynamic routes (the flattened tree leaves static leaves out).
//!
//! Most dynamic paths have a length no static route has (a bit set per length): they only get one
//! cheap pass that checks they are ASCII and hold no `?` or `#`. A path of a static route's length
//! is checked and hashed (FxHash-style: rotate, xor, multiply, 8 bytes at a time) in one pass, so a
//! static hit costs one scan of the path, one probe and one compare. Either pass also notes whether
//! the path holds a `%` ([`Probe::Dynamic`]'s `escaped`): only then may a value need decoding, and
//! the host learns it with the answer instead of searching the path again.

use crate::ids::{RouteId, NONE};
use crate::words::{label_at, load4, load8, HI, LO};

const K: u64 = 0x517c_c1b7_2722_0a95;

#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(K)
}

/// Non-zero where a byte of `w` is `?`, `#` or non-ASCII (cuts or refuses the path).
#[inline(always)]
fn suspicious(w: u64) -> u64 {
    let q = w ^ (LO * u64::from(b'?'));
    let s = w ^ (LO * u64::from(b'#'));
    (w & HI) | (q.wrapping_sub(LO) & !q & HI) | (s.wrapping_sub(LO) & !s & HI)
}

/// What the static table says about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Probe {
    /// The exact static route of the path: final.
    Static(RouteId),
    /// No static route: the walk takes the first `len` bytes (the part before any `?` or `#`);
    /// `escaped` when those bytes hold a `%`.
    Dynamic { len: usize, escaped: bool },
    /// A non-ASCII byte before any `?` / `#`.
    Refused,
}

/// High bits where a byte of `w` may be `?`, `#` or non-ASCII. `x - LO` sets the high bit of a
/// byte that is zero in `x` (or borrows from one, which only happens next to a zero byte) and of a
/// byte `>= 0x81`, which in `w ^ '?'` or `w ^ '#'` is a non-ASCII byte of `w`, flagged anyway: so
/// `& !x` of the exact test is not needed.
#[inline(always)]
fn refusing(w: u64) -> u64 {
    let q = w ^ (LO * u64::from(b'?'));
    let s = w ^ (LO * u64::from(b'#'));
    (w | q.wrapping_sub(LO) | s.wrapping_sub(LO)) & HI
}

/// High bits where a byte of `w` is `%`, exact when `w` is ASCII (what [`refusing`] lets
/// through): a borrow only comes from a `%` byte itself.
#[inline(always)]
fn percent(w: u64) -> u64 {
    (w ^ (LO * u64::from(b'%'))).wrapping_sub(LO) & HI
}

/// What one pass over a path found: whether it has no `?`, `#` or non-ASCII byte, and whether it
/// holds a `%` (meaningful only when it is clean).
#[derive(Clone, Copy)]
struct Scan {
    clean: bool,
    escaped: bool,
}

/// [`Scan`]s `path` 8 bytes at a time, one branch at the end.
#[inline(always)]
fn scan(path: &[u8]) -> Scan {
    let n = path.len();
    let mut refused = 0;
    let mut escaped = 0;
    let mut i = 0;
    while i + 8 < n {
        let w = load8(path, i);
        refused |= refusing(w);
        escaped |= percent(w);
        i += 8;
    }
    let w = last_word(path);
    Scan {
        clean: (refused | refusing(w)) == 0,
        escaped: (escaped | percent(w)) != 0,
    }
}

/// Whether `path` has no `?`, `#` or non-ASCII byte.
#[inline(always)]
fn clean(path: &[u8]) -> bool {
    scan(path).clean
}

/// The last word hashed: overlapping the previous one when the path is longer than 8 bytes; for a
/// shorter path two overlapping halves, or its bytes, so that it holds every byte (no zero byte
/// padding: [`scan`] must not see a zero as `?`, `#` or `%` after the subtraction, and it does not,
/// since `0 ^ '?'`, `0 ^ '#'` and `0 ^ '%'` are not zero).
#[inline(always)]
fn last_word(path: &[u8]) -> u64 {
    let n = path.len();
    if n >= 8 {
        load8(path, n - 8)
    } else if n >= 4 {
        u64::from(load4(path, 0)) | u64::from(load4(path, n - 4)) << 32
    } else {
        let byte = |k: usize| u64::from(path.get(k).copied().unwrap_or(0));
        byte(0) | byte(n / 2) << 8 | byte(n.saturating_sub(1)) << 16
    }
}

/// The hash and last word of a path, and whether it holds a `%` (see [`Scan`]).
#[derive(Clone, Copy)]
struct Hashed {
    hash: u64,
    tail: u64,
    escaped: bool,
}

/// [`Hashed`] of `path`; with `CHECK`, `None` as soon as a word holds a `?`, `#` or a non-ASCII
/// byte.
#[inline(always)]
fn hash<const CHECK: bool>(path: &[u8]) -> Option<Hashed> {
    let n = path.len();
    let mut h: u64 = 0;
    let mut escaped = 0;
    let mut i = 0;
    while i + 8 < n {
        let w = load8(path, i);
        if CHECK && suspicious(w) != 0 {
            return None;
        }
        h = mix(h, w);
        escaped |= percent(w);
        i += 8;
    }
    let w = last_word(path);
    if CHECK && suspicious(w) != 0 {
        return None;
    }
    Some(Hashed {
        hash: mix(mix(h, w), n as u64),
        tail: w,
        escaped: (escaped | percent(w)) != 0,
    })
}

/// Where the matched part of a path with a `?`, `#` or non-ASCII byte somewhere ends: at the first
/// `?` or `#`; `None` when a non-ASCII byte comes first.
fn cut(path: &[u8]) -> Option<usize> {
    for (i, &b) in path.iter().enumerate() {
        if b == b'?' || b == b'#' {
            return Some(i);
        }
        if b >= 0x80 {
            return None;
        }
    }
    Some(path.len())
}

/// One slot of the table. (Fields are the crate's for the snapshot, which stores the table as is.)
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    /// `mix(path hash, method)`.
    pub(crate) hash: u64,
    pub(crate) tail: u64,
    /// `len | method << 32`; `EMPTY` for a free slot.
    pub(crate) meta: u64,
    /// Where the route's text starts in `Statics::bytes` (only read for paths over 8 bytes).
    pub(crate) start: u32,
    pub(crate) route: RouteId,
}

pub(crate) const EMPTY: u64 = u64::MAX;

/// Open addressing with linear probing, entries in the slots; at most half full.
#[derive(Debug, Clone, Default)]
pub(crate) struct Statics {
    pub(crate) slots: Vec<Entry>,
    pub(crate) shift: u32,
    pub(crate) bytes: Vec<u8>,
    /// Bit `min(len, 63)` set for the length of every static route (any method): most dynamic
    /// paths have a length no static route has, and skip the probe.
    pub(crate) lens: u64,
}

impl Statics {
    /// The table of `found`: `(method, full path, route)` of every static route.
    pub(crate) fn build(found: Vec<(u32, Vec<u8>, RouteId)>) -> Statics {
        let mut statics = Statics::default();
        if found.is_empty() {
            return statics;
        }
        let bits = (found.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        statics.shift = 64 - bits;
        let empty = Entry {
            hash: 0,
            tail: 0,
            meta: EMPTY,
            start: 0,
            route: NONE,
        };
        statics.slots = vec![empty; 1 << bits];
        let mask = (1usize << bits) - 1;
        for (method, text, route) in found {
            // A route a walked path can never equal (non-ASCII, `?`, `#`) is left out.
            let Some(Hashed { hash, tail, .. }) = hash::<false>(&text).filter(|_| clean(&text))
            else {
                continue;
            };
            let hash = mix(hash, u64::from(method));
            let entry = Entry {
                hash,
                tail,
                meta: text.len() as u64 | u64::from(method) << 32,
                start: u32::try_from(statics.bytes.len()).unwrap_or(NONE),
                route,
            };
            statics.bytes.extend_from_slice(&text);
            statics.lens |= 1 << text.len().min(63);
            let mut i = (hash >> statics.shift) as usize;
            while let Some(slot) = statics.slots.get_mut(i) {
                if slot.meta == EMPTY {
                    *slot = entry;
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        statics
    }

    /// Looks `path` up: its exact static route, else the length the walk takes.
    ///
    /// Most dynamic paths have a length no static route has: they only get the cheap [`clean`]
    /// pass; the others are checked and hashed in one pass.
    #[inline(always)]
    pub(crate) fn probe(&self, method: u32, path: &[u8]) -> Probe {
        let len = path.len();
        if self.has_len(len) {
            let Some(hashed) = hash::<true>(path) else {
                return self.probe_cut(method, path);
            };
            return match self.get(method, path, hashed.hash, hashed.tail) {
                Some(id) => Probe::Static(id),
                None => Probe::Dynamic {
                    len,
                    escaped: hashed.escaped,
                },
            };
        }
        match scan(path) {
            Scan {
                clean: true,
                escaped,
            } => Probe::Dynamic { len, escaped },
            _ => self.probe_cut(method, path),
        }
    }

    /// [`Statics::probe`] for a path with a `?`, `#` or non-ASCII byte: cut it, then look up the rest.
    #[cold]
    #[inline(never)]
    fn probe_cut(&self, method: u32, path: &[u8]) -> Probe {
        let Some(len) = cut(path) else {
            return Probe::Refused;
        };
        let path = path.get(..len).unwrap_or_default();
        if self.has_len(len) {
            if let Some(id) =
                hash::<false>(path).and_then(|h| self.get(method, path, h.hash, h.tail))
            {
                return Probe::Static(id);
            }
        }
        Probe::Dynamic {
            len,
            escaped: path.contains(&b'%'),
        }
    }

    /// Whether some static route has this length (a path of another length cannot be one).
    #[inline(always)]
    pub(crate) fn has_len(&self, len: usize) -> bool {
        self.lens & 1 << len.min(63) != 0
    }

    /// The static route of `method` whose text is exactly `path` (`hash` and `tail` from [`hash`]).
    #[inline(always)]
    fn get(&self, method: u32, path: &[u8], hash: u64, tail: u64) -> Option<RouteId> {
        let hash = mix(hash, u64::from(method));
        let meta = path.len() as u64 | u64::from(method) << 32;
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = (hash >> self.shift) as usize;
        loop {
            let entry = self.slots.get(i)?;
            if entry.hash == hash && entry.tail == tail && entry.meta == meta {
                // Equal length and last word: only the bytes before the last 8 are left to compare.
                let n = path.len().saturating_sub(8);
                let start = entry.start as usize;
                if n == 0 || label_at(path, 0, self.bytes.get(start..start + n)?) {
                    return Some(entry.route);
                }
            }
            if entry.meta == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with a static route of every even length up to 40, so that paths of even length take
    /// the hashing pass and the others the scan.
    fn table() -> Statics {
        let found = (2..=40)
            .step_by(2)
            .map(|n: usize| (0, format!("/{}", "s".repeat(n - 1)).into_bytes(), n as u32))
            .collect();
        Statics::build(found)
    }

    #[test]
    fn a_dynamic_probe_notes_a_percent_before_any_cut() {
        let statics = table();
        for n in 1..=40usize {
            for place in 0..=n {
                // `%` at `place` (none when `place == n`), the rest plain; then the same path with a
                // query string holding a `%` after it, which must not count.
                let mut path = vec![b'x'; n];
                if let Some(first) = path.first_mut() {
                    *first = b'/';
                }
                if let Some(byte) = path.get_mut(place) {
                    *byte = b'%';
                }
                let escaped = path.contains(&b'%');
                let want = Probe::Dynamic { len: n, escaped };
                assert_eq!(
                    statics.probe(0, &path),
                    want,
                    "{:?}",
                    String::from_utf8_lossy(&path)
                );
                let mut queried = path.clone();
                queried.extend_from_slice(b"?q=%41");
                assert_eq!(
                    statics.probe(0, &queried),
                    want,
                    "{:?}",
                    String::from_utf8_lossy(&queried)
                );
            }
        }
    }

    #[test]
    fn a_static_route_with_a_percent_is_still_found() {
        let statics = Statics::build(vec![
            (0, b"/a%20b".to_vec(), 7),
            (0, b"/long/static%2Fpath".to_vec(), 8),
        ]);
        assert_eq!(statics.probe(0, b"/a%20b"), Probe::Static(7));
        assert_eq!(statics.probe(0, b"/long/static%2Fpath"), Probe::Static(8));
        assert_eq!(
            statics.probe(0, b"/long/static%2Fpatx"),
            Probe::Dynamic {
                len: 19,
                escaped: true
            }
        );
        assert_eq!(statics.probe(0, b"/a\xc3b"), Probe::Refused);
    }
}

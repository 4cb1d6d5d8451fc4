//! Arbor's routing core: pattern parser, constraints, radix tree, lookup, route metadata and
//! snapshots. It knows nothing about JavaScript or HTTP; `arbor-wasm` wraps it.
//!
//! ```
//! use arbor_router::{Lookup, Router, RouterOptions, Spans};
//!
//! let mut router = Router::new(RouterOptions::default());
//! let users = router.insert(&["GET"], "/users/:id<int>").unwrap().id;
//! let mut spans = Spans::new();
//! let get = router.method_id("GET").unwrap();
//! assert_eq!(router.lookup(get, b"/users/42", &mut spans), Lookup::Found(users));
//! assert_eq!(spans.as_slice(), &[7, 9]); // byte offsets of "42"
//! assert_eq!(router.lookup(get, b"/users/abc", &mut spans), Lookup::NotFound);
//! ```
//!
//! Matching rules: SPEC §2 and §3. Decisions this crate makes where the SPEC is silent are written
//! on the items they concern (see [`Router::insert`] and [`Router::lookup`]).

#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod constraint;
mod draft;
mod encode;
mod error;
mod flat;
mod flat_to_segments;
mod flatten;
mod index;
mod lookup;
mod metadata;
mod pattern;
mod route;
mod router;
mod segments;
mod shadow;
mod shapes;
mod statics;
mod tree;
mod words;

pub use encode::decode_param;
pub use error::{InsertError, MalformedEscape, SnapshotError};
pub use metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece, RouteInfo};
pub use router::Router;
pub use shapes::{RouteShape, RouteShapes};

use regex::bytes::CaptureLocations;

/// Parses and validates a pattern without registering it: the pieces a route with this pattern would
/// report, or the error its registration would raise. For tools that hold a pattern written elsewhere
/// (an `@api` tag) and must read it exactly as a route would.
///
/// ```
/// use arbor_router::{pattern_pieces, PatternPiece};
/// let pieces = pattern_pieces("/files/*").unwrap();
/// assert_eq!(pieces, [PatternPiece::Text("/files/".to_owned()), PatternPiece::Wildcard]);
/// assert!(pattern_pieces("/a/{id").is_err());
/// ```
pub fn pattern_pieces(pattern: &str) -> Result<Vec<PatternPiece>, InsertError> {
    let pieces = pattern::parse(pattern)?;
    Ok(draft::draft(pattern, &pieces)?.pieces)
}

/// Dense route id, `0..`, in definition order.
pub type RouteId = u32;

/// No node, no leaf, no route: the sentinel of every `u32` index of the tree and the lookup.
pub(crate) const NONE: u32 = u32::MAX;

/// Most parameters plus regex capture groups one route may have (bounds the fixed-size value
/// arrays of the lookup, which therefore never allocates).
pub const MAX_VALUES: usize = 32;

/// Which dynamic route wins when several match (SPEC 3.2). An exact static route always wins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// The first defined route that matches (the default; Laravel, Express, hono).
    #[default]
    Definition,
    /// At each point of the path static text is tried before a constrained parameter, before an
    /// unconstrained one, before a wildcard or regex block; among equals, definition order; with
    /// backtracking; the first match in that order wins (find-my-way, rou3). Exactly:
    ///
    /// A route is a sequence of steps: one per byte of static text, one per dynamic piece (a
    /// parameter ending its segment; a *segment tail*, i.e. a parameter followed by more text or
    /// parameters up to the next `/`, such as `:a.:b` or `{id}x`; a wildcard; a regex block). Of two
    /// routes matching a path, at their first differing step:
    /// 1. the one with no step left wins (it ends there; the other continues with empty pieces);
    /// 2. static text beats a dynamic piece;
    /// 3. dynamic pieces rank: segment tail starting with a constrained parameter, constrained
    ///    parameter, segment tail starting with an unconstrained parameter, unconstrained
    ///    parameter, wildcard or regex block;
    /// 4. two segment tails of one rank: at the first character of the segment that one gives to
    ///    static text and the other to a parameter (each tail cut as it matches alone), the static
    ///    text wins: `/foo/:bar.png.png` beats `/foo/:bar.png` on `/foo/value.png.png`;
    /// 5. otherwise equal ranks: the piece under which the earliest route (of that method) was
    ///    defined wins.
    ///
    /// Identical steps: the earlier route. The tree walk does this depth first (statics, then dynamic
    /// children sorted by rank and smallest route id below them, a run of segment tails of one rank
    /// ordered on the path); the TypeScript reference engine in the tests implements the same rule as
    /// a comparison (`tests/support/reference-engine/specificity.ts`).
    Specificity,
}

/// Options of a [`Router`].
///
/// ```
/// use arbor_router::{Order, RouterOptions};
/// let strict = RouterOptions { order: Order::Specificity, trailing_slash: false };
/// assert_eq!(RouterOptions::default().order, Order::Definition);
/// assert!(RouterOptions::default().trailing_slash);
/// # let _ = strict;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterOptions {
    /// How dynamic routes are ordered.
    pub order: Order,
    /// Whether a path that matches nothing is retried with one trailing slash toggled (SPEC 3.1).
    /// `false` is the framework's `strict` mode.
    pub trailing_slash: bool,
}

impl Default for RouterOptions {
    fn default() -> Self {
        RouterOptions {
            order: Order::Definition,
            trailing_slash: true,
        }
    }
}

/// What [`Router::insert`] registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inserted {
    /// The new route's id.
    pub id: RouteId,
    /// In definition order, the earlier route that takes every request this one could match
    /// (SPEC 3.2: a warning, never an error).
    pub shadowed_by: Option<RouteId>,
}

/// The answer of a lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// The route that matched; its spans are in the [`Spans`] passed in.
    Found(RouteId),
    /// No route of that method matches.
    NotFound,
}

/// Reusable output buffer of a lookup: after `Found(id)`, one `(start, end)` pair of byte offsets
/// per entry of `RouteInfo::params`, then one per capture group of the route's regex block;
/// `(u32::MAX, u32::MAX)` for an absent optional parameter or a group that did not participate.
/// Offsets are into the path given to `lookup` (they may point one past its end when the match
/// needed a trailing slash added). Keep one `Spans` and pass it to every lookup: after the first
/// uses nothing is allocated.
///
/// ```
/// use arbor_router::{Router, RouterOptions, Spans};
/// let mut router = Router::new(RouterOptions::default());
/// router.insert(&["GET"], "/files/*").unwrap();
/// let mut spans = Spans::new();
/// router.find("GET", "/files/a/b", &mut spans);
/// assert_eq!(spans.as_slice(), &[7, 10]);
/// assert_eq!(spans.len(), 2);
/// ```
#[derive(Debug, Default)]
pub struct Spans {
    values: Values,
    /// The values pushed along the tree path during a walk.
    stack: Vec<u32>,
    /// The backtrack stack of a walk.
    frames: Vec<lookup::Frame>,
    /// The lean walk's buffers (`segments/search.rs`).
    lean: segments::LeanBuffers,
    /// Capture slots of segment and block regexes, per matcher id of the router `owner`.
    locs: Vec<Option<CaptureLocations>>,
    owner: u64,
    /// The path with a slash added, for the trailing-slash retry.
    scratch: Vec<u8>,
    /// Whether the path of the last dynamic match holds a `%` (see [`Spans::escaped`]).
    escaped: bool,
}

impl Spans {
    /// An empty buffer, with room for the largest route.
    pub fn new() -> Spans {
        Spans {
            stack: Vec::with_capacity(2 * MAX_VALUES),
            ..Spans::default()
        }
    }

    /// The `u32` values written by the last `Found`.
    pub fn as_slice(&self) -> &[u32] {
        self.values.as_slice()
    }

    /// Where the values are: a fixed array inside this `Spans`, so the address stays valid for as
    /// long as the `Spans` itself does not move (a WebAssembly host reads them there, no copy).
    pub fn as_ptr(&self) -> *const u32 {
        self.values.slots.as_ptr()
    }

    /// How many `u32` values (twice the number of pairs).
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether the values of the last `Found` may need percent-decoding: they have been found in a
    /// path that holds a `%` before any `?` or `#` (found while the path was checked anyway, so a
    /// host need not search it again). `false` when there are no values.
    ///
    /// ```
    /// use arbor_router::{Router, RouterOptions, Spans};
    /// let mut router = Router::new(RouterOptions::default());
    /// router.insert(&["GET"], "/files/:name").unwrap();
    /// let mut spans = Spans::new();
    /// router.find("GET", "/files/a%20b", &mut spans);
    /// assert!(spans.escaped());
    /// router.find("GET", "/files/ab?q=%20", &mut spans);
    /// assert!(!spans.escaped());
    /// ```
    pub fn escaped(&self) -> bool {
        self.escaped && !self.values.is_empty()
    }

    /// The `(start, end)` pair `index`, if present.
    pub fn pair(&self, index: usize) -> Option<(u32, u32)> {
        let values = self.values.as_slice();
        Some((*values.get(2 * index)?, *values.get(2 * index + 1)?))
    }
}

/// The values of a match in a fixed array rather than a `Vec`: a route has at most
/// [`MAX_VALUES`] of them, and a fixed address lets a host read them in place.
#[derive(Debug)]
pub(crate) struct Values {
    slots: [u32; 2 * MAX_VALUES],
    len: usize,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            slots: [0; 2 * MAX_VALUES],
            len: 0,
        }
    }
}

impl Values {
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a `(start, end)` pair; a pair past the capacity is dropped (a route never has
    /// that many values: registration refuses it).
    #[inline(always)]
    pub(crate) fn push_pair(&mut self, start: u32, end: u32) {
        if let Some([s, e]) = self.slots.get_mut(self.len..self.len + 2) {
            *s = start;
            *e = end;
            self.len += 2;
        }
    }

    /// Replaces the values with the first `len` of `other` (all of them if it has fewer).
    #[inline(always)]
    pub(crate) fn copy_prefix(&mut self, other: &Values, len: usize) {
        let len = len.min(other.len);
        if let (Some(dst), Some(src)) = (self.slots.get_mut(..len), other.slots.get(..len)) {
            dst.copy_from_slice(src);
            self.len = len;
        }
    }

    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u32] {
        self.slots.get(..self.len).unwrap_or_default()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

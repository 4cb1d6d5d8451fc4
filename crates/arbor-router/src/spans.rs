//! What a lookup answers: the route found, and the buffer its values are written to.

use regex::bytes::CaptureLocations;

use crate::ids::RouteId;
use crate::lookup::Frame;
use crate::segments::LeanBuffers;
use crate::values::{Values, MAX_VALUES};

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
    pub(crate) values: Values,
    /// The values pushed along the tree path during a walk.
    pub(crate) stack: Vec<u32>,
    /// The backtrack stack of a walk.
    pub(crate) frames: Vec<Frame>,
    /// The lean walk's buffers (`segments/search.rs`).
    pub(crate) lean: LeanBuffers,
    /// Capture slots of segment and block regexes, per matcher id of the router `owner`.
    pub(crate) locs: Vec<Option<CaptureLocations>>,
    pub(crate) owner: u64,
    /// The path with a slash added, for the trailing-slash retry.
    pub(crate) scratch: Vec<u8>,
    /// Whether the path of the last dynamic match holds a `%` (see [`Spans::escaped`]).
    pub(crate) escaped: bool,
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

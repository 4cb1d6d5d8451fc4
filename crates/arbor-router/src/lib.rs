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
//! Matching rules: ROUTING.md §2 and §3. Decisions this crate makes where ROUTING.md is silent are written
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
mod ids;
mod index;
mod lookup;
mod metadata;
mod options;
mod pattern;
mod route;
mod router;
mod segments;
mod shadow;
mod shapes;
mod spans;
mod statics;
mod tree;
mod values;
mod words;

pub use encode::decode_param;
pub use error::{InsertError, MalformedEscape, SnapshotError};
pub use ids::RouteId;
pub use metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece, RouteInfo};
pub use options::{Order, RouterOptions};
pub use router::{Inserted, Router};
pub use shapes::{RouteShape, RouteShapes};
pub use spans::{Lookup, Spans};
pub use values::MAX_VALUES;

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

//! The lean walk: the common case of either order, over a trie of whole path segments.
//!
//! The byte walk (`lookup.rs`) handles every pattern kind and both orders, and inside WebAssembly it
//! runs well below its native speed: V8 compiles its large loop with many live values into code
//! that spills. A loop that knows only static segments and whole-segment parameters, with its
//! buffers in fixed arrays, runs there close to native speed (docs/PERFORMANCE.md). This is that
//! loop, in front of the byte walk: it answers a lookup unless a part of the trie it does not hold
//! could beat its answer, and hands the lookup to the byte walk then (`Lean::GENERAL`).
//!
//! A node is a position at the start of a segment (a `/`, or the start of the path). A static child
//! is keyed by the whole next segment, its `/` included: its first 8 bytes and length in one compare,
//! the rest of a longer one against `text`, and a hash table beyond `LINEAR` children. A node's
//! *parameter* children are parameters that are the whole segment after its `/`, plain or with a
//! constraint (`/:id<int>`; the check runs out of the loop). The common node has one, entered
//! straight from the loop; several (`/:id<int>` beside `/:slug`) are chained from the one of
//! smallest rank and tried in that order from the alternatives' stack. What else a node leads to (a
//! segment tail such as `:a.:b`, text before a parameter such as `/v:n`, a wildcard, a regex block)
//! is not built here: the node only records the smallest rank below such children
//! (`general_rank`); the walk keeps the smallest of those over the nodes it visits, and gives the
//! lookup to the byte walk when it is smaller than its answer's rank (or there is no answer).
//!
//! The answer is the same as the byte walk's: the winner is the matching route of smallest rank
//! whatever the tree's shape, and the lean walk explores every branch that could hold a smaller rank
//! than the best so far (a static child first, the parameter children after it). In definition order
//! a rank is the route's place in the definition; in specificity order, its leaf's place in the byte
//! walk's depth-first order (`Flat::rank_depth_first`), whose first match is then the smallest rank.
//!
//! One phase per file: `layout.rs` (the nodes and keys every phase shares), `build.rs` (the builder,
//! which `flat_to_segments.rs` feeds from the flat tree), `snapshot.rs` (the trie as plain numbers,
//! and the checks a loaded one passes) and `search.rs` (the walk).

mod build;
mod layout;
mod search;
mod snapshot;
#[cfg(test)]
mod tests;

pub(crate) use build::{Builder, SegLeaf};
pub(crate) use layout::Segments;
pub(crate) use search::{Lean, LeanBuffers};
pub(crate) use snapshot::{SegmentParts, DEFAULT_WORDS};

//! Compilation: the registration tree turned into what lookups read ([`Flat`]), once per change
//! of the routes, on the first lookup after it (a router that registers many routes and then serves
//! compiles once). `flatten.rs` builds the static table and the byte walk's tree, and notes per
//! method whether a dynamic route can end with `/`; `flat_to_segments.rs` then builds the lean
//! walk's trie from the flattened tree. A snapshot load stores the result, so a loaded router skips
//! this until its next insert.

use super::Router;
use crate::flat::Flat;
use crate::flat_to_segments::segment_trie;
use crate::flatten::{self, flatten};
use crate::options::Order;
use crate::route::{Matcher, MatcherSpec};

impl Router {
    /// The compiled tree: built here on the first call after a change (`insert` drops it), or
    /// loaded with a snapshot. Shared by the lookup (`find.rs`) and the snapshot writer.
    pub(super) fn flat(&self) -> &Flat {
        self.flat.get_or_init(|| {
            let plain =
                |m: u32| matches!(self.matchers.get(m as usize), Some(Matcher::Segment(None)));
            let mut flat = if self.options.order == Order::Specificity {
                let class = |m: u32| flatten::Class {
                    rank: self
                        .specs
                        .get(m as usize)
                        .map_or(u8::MAX, MatcherSpec::specificity_class),
                    tail: matches!(
                        self.specs.get(m as usize),
                        Some(MatcherSpec::Complex { .. })
                    ),
                };
                flatten(&self.tree, Some(&class), &plain)
            } else {
                flatten(&self.tree, None, &plain)
            };
            let runs_to_end = |m: u32| {
                matches!(
                    self.matchers.get(m as usize),
                    Some(Matcher::Wildcard | Matcher::Block { .. })
                )
            };
            flat.slash_ends = flatten::slash_ends(&self.tree, &runs_to_end);
            self.with_segments(flat)
        })
    }

    /// `flat` with the lean walk's segment trie (`segments/`). In specificity order its leaves are
    /// ranked in the byte walk's depth-first order first (`Flat::rank_depth_first`), so that the
    /// lean walk's smallest rank is the byte walk's first match.
    fn with_segments(&self, mut flat: Flat) -> Flat {
        let ranked = self.options.order == Order::Definition || flat.rank_depth_first();
        flat.segments = if ranked {
            segment_trie(&flat, &self.matchers)
        } else {
            None
        };
        flat
    }

    #[cfg(test)]
    pub(crate) fn flat_for_tests(&self) -> &Flat {
        self.flat()
    }

    #[cfg(test)]
    pub(crate) fn matchers_for_tests(&self) -> &[Matcher] {
        &self.matchers
    }
}

//! The numbers every part of the core shares: the route id, and the sentinel of its `u32` indices.

/// Dense route id, `0..`, in definition order.
pub type RouteId = u32;

/// No node, no leaf, no route: the sentinel of every `u32` index of the tree and the lookup.
pub(crate) const NONE: u32 = u32::MAX;

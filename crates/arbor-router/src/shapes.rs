//! [`RouteShapes`]: what serving needs of every route (its methods, parameter names, optional flag,
//! captures and shadowing), with what routes share stored once. A snapshot stores this table beside
//! the full metadata, so a start reads it without decoding any [`RouteInfo`].

use std::collections::BTreeMap;

use crate::ids::RouteId;
use crate::metadata::RouteInfo;

/// Every route's shape, in id order. A table of 10,000 routes has a few dozen distinct parameter-name
/// lists and a few method sets; each is stored once and routes point at it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteShapes {
    /// Each distinct list of parameter names (span order), in order of first use.
    pub name_lists: Vec<Vec<String>>,
    /// Each distinct list of method ids (indexes into [`crate::Router::methods`]), in order of first
    /// use.
    pub method_sets: Vec<Vec<u32>>,
    /// One per route, by id.
    pub routes: Vec<RouteShape>,
}

/// One route's shape; `names` and `methods` index [`RouteShapes::name_lists`] and
/// [`RouteShapes::method_sets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteShape {
    pub names: u32,
    pub methods: u32,
    /// Whether a parameter is optional (its value may be absent).
    pub optional: bool,
    /// Number of capture groups of the regex block.
    pub captures: u32,
    pub shadowed_by: Option<RouteId>,
}

impl RouteShapes {
    /// The shapes of `routes`, their methods numbered by `method_id` (the router's; a method it does not
    /// know, which the router never produces, gets `u32::MAX`).
    pub(crate) fn of(routes: &[RouteInfo], method_id: impl Fn(&str) -> Option<u32>) -> RouteShapes {
        let mut shapes = RouteShapes::default();
        let mut name_lists: BTreeMap<Vec<&str>, u32> = BTreeMap::new();
        let mut method_sets: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
        for r in routes {
            let names: Vec<&str> = r.params.iter().map(|p| p.name.as_str()).collect();
            let names = *name_lists.entry(names).or_insert_with_key(|list| {
                shapes
                    .name_lists
                    .push(list.iter().map(|&n| n.to_owned()).collect());
                index_of_last(&shapes.name_lists)
            });
            let ids: Vec<u32> = r
                .methods
                .iter()
                .map(|m| method_id(m).unwrap_or(u32::MAX))
                .collect();
            let set = *method_sets.entry(ids).or_insert_with_key(|ids| {
                shapes.method_sets.push(ids.clone());
                index_of_last(&shapes.method_sets)
            });
            shapes.routes.push(RouteShape {
                names,
                methods: set,
                optional: r.params.iter().any(|p| p.optional),
                captures: r.captures,
                shadowed_by: r.shadowed_by,
            });
        }
        shapes
    }

    /// How many values (parameters and captures) a match of route `id` writes, if `id` exists.
    pub(crate) fn values(&self, id: usize) -> Option<usize> {
        let shape = self.routes.get(id)?;
        let names = self.name_lists.get(shape.names as usize)?;
        Some(names.len() + shape.captures as usize)
    }
}

fn index_of_last<T>(list: &[T]) -> u32 {
    u32::try_from(list.len().saturating_sub(1)).unwrap_or(u32::MAX)
}

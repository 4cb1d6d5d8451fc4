//! What registration checks a new route against: routes of the same shape (a conflict, ROUTING.md §3
//! rule 4), routes with an identical variant (the earlier keeps that leaf) and routes that contain
//! a variant (ROUTING.md §3.2, in `shadow`): a route all of whose variants are taken so is shadowed. Rebuilt from the patterns on the
//! first insert after a snapshot load.

use foldhash::HashMap;

use crate::draft::Draft;
use crate::ids::RouteId;
use crate::route::{Atom, Variant};
use crate::shadow::Shapes;

#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    /// (method id, shape key) → the route registered with that shape.
    patterns: HashMap<(u32, Vec<u8>), RouteId>,
    /// (method id, variant key) → the earliest dynamic route with that variant.
    variants: HashMap<(u32, Vec<u8>), RouteId>,
    /// Shapes of the dynamic routes, for containment.
    pub(crate) shapes: Shapes,
}

impl Index {
    /// Records a registered route under its interned method ids.
    pub(crate) fn add(&mut self, id: RouteId, methods: &[u32], draft: &Draft) {
        let shape = draft.shape_key();
        for &m in methods {
            self.patterns.entry((m, shape.clone())).or_insert(id);
            if !draft.is_static {
                for v in &draft.variants {
                    self.variants.entry((m, v.key())).or_insert(id);
                }
            }
        }
        if !draft.is_static {
            let variants: Vec<&[Atom]> =
                draft.variants.iter().map(|v| v.atoms.as_slice()).collect();
            self.shapes.add(id, &variants);
        }
    }

    /// The route with the same shape as `draft` for method `m`, if any.
    pub(crate) fn conflict(&self, m: u32, draft: &Draft) -> Option<RouteId> {
        self.patterns.get(&(m, draft.shape_key())).copied()
    }

    /// The earliest dynamic route of method `m` with a variant identical to `variant`.
    pub(crate) fn same_variant(&self, m: u32, variant: &Variant) -> Option<RouteId> {
        self.variants.get(&(m, variant.key())).copied()
    }
}

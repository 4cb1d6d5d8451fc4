//! Registration, the cold path: a pattern in, a route id or a structured error out. A route is
//! parsed and drafted (`pattern.rs`, `draft.rs`), checked against the conflict index (`index.rs`:
//! a refused route leaves the router untouched), checked for shadowing (a warning), then added to the
//! registration tree (`tree.rs`), the index and the route list; the compiled tree is dropped, to be
//! built again by the next lookup (`compile.rs`). Naming a route is here too: metadata the router
//! checks (names are unique).

use std::sync::OnceLock;

use super::{Inserted, Router};
use crate::draft::{self, Draft};
use crate::error::InsertError;
use crate::ids::{RouteId, NONE};
use crate::index::Index;
use crate::metadata::RouteInfo;
use crate::options::Order;
use crate::pattern;
use crate::route::{Matcher, MatcherSpec, Step, Variant};
use crate::tree::{self, Leaf, Tree};

impl Router {
    /// Registers a route for `methods` (upper-case names; any token, `"*"` is not special) and returns
    /// its id. Errors name the pattern and the byte position. Decisions beyond ROUTING.md:
    /// - two patterns of the same shape for a shared method conflict even when their parameter names
    ///   differ (`/u/:id` then `/u/{name}`): the second could never match;
    /// - `::` is a literal colon; `?` and `#` are only allowed as `:name?`;
    /// - a wildcard or regex block cannot share a segment with a parameter (`/:a-*`);
    /// - a leading `^` / trailing `$` of a constraint are ignored (constraints are anchored anyway);
    /// - patterns are at most 2048 bytes.
    ///
    /// ```
    /// use arbor_router::{InsertError, Router, RouterOptions};
    /// let mut router = Router::new(RouterOptions::default());
    /// let first = router.insert(&["GET"], "/repos/:owner/:repo/:format/:ref").unwrap();
    /// let second = router.insert(&["GET"], "/repos/:owner/:repo/commits/:ref").unwrap();
    /// assert_eq!(second.shadowed_by, Some(first.id));
    /// let err = router.insert(&["GET"], "/a/:id<a{2,1}>").unwrap_err();
    /// assert!(matches!(err, InsertError::InvalidConstraint { position: 7, .. }));
    /// ```
    pub fn insert(&mut self, methods: &[&str], pattern: &str) -> Result<Inserted, InsertError> {
        let mut wanted: Vec<&str> = Vec::with_capacity(methods.len());
        for &m in methods {
            if m.is_empty() || !m.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(InsertError::InvalidPattern {
                    pattern: pattern.to_owned(),
                    position: 0,
                    reason: format!("invalid method name {m:?}"),
                });
            }
            if !wanted.contains(&m) {
                wanted.push(m);
            }
        }
        if wanted.is_empty() {
            return Err(InsertError::InvalidPattern {
                pattern: pattern.to_owned(),
                position: 0,
                reason: "a route needs at least one method".to_owned(),
            });
        }
        let pieces = pattern::parse(pattern)?;
        let draft = draft::draft(pattern, &pieces)?;
        let id = RouteId::try_from(self.routes.len())
            .ok()
            // Ids fit in 30 bits: ranks use bit 31, and bindings may carry a flag in bit 30.
            .filter(|&id| id < 1 << 30)
            .ok_or_else(|| InsertError::InvalidPattern {
                pattern: pattern.to_owned(),
                position: 0,
                reason: "too many routes".to_owned(),
            })?;

        // Conflicts first, so a refused route leaves the router untouched.
        self.ensure_registration_state();
        let existing: Vec<(&str, u32)> = wanted
            .iter()
            .filter_map(|&m| Some((m, self.method_id(m)?)))
            .collect();
        let index = self.index.as_ref();
        for &(m, method) in &existing {
            let Some(with) = index.and_then(|i| i.conflict(method, &draft)) else {
                continue;
            };
            let with_pattern = self
                .routes
                .get(with as usize)
                .map(|r| r.pattern.clone())
                .unwrap_or_default();
            return Err(InsertError::Conflict {
                pattern: pattern.to_owned(),
                method: m.to_owned(),
                with,
                with_pattern,
            });
        }

        // Shadowed (ROUTING.md §3.2): every path of this route is taken by earlier dynamic routes,
        // i.e. each variant is identical to a variant of an earlier route (which keeps that leaf) or
        // is contained in one. A route only partly taken (`/g/:a` then `/g/:b?`: `/g` still reaches
        // it) is not reported. The route named is the earliest of those that take a variant. A
        // warning, never an error.
        let shadowed_by = if self.options.order == Order::Definition && !draft.is_static {
            let mut by: Option<RouteId> = None;
            for variant in &draft.variants {
                let identical = existing
                    .iter()
                    .filter_map(|&(_, method)| index.and_then(|i| i.same_variant(method, variant)))
                    .min();
                let contained = self.find_shadow(&wanted, variant);
                match identical.into_iter().chain(contained).min() {
                    Some(id) => by = Some(by.map_or(id, |b| b.min(id))),
                    None => {
                        by = None;
                        break;
                    }
                }
            }
            by
        } else {
            None
        };

        let method_ids = self.add_to_tree(id, &wanted, &draft);
        if let Some(index) = self.index.as_mut() {
            index.add(id, &method_ids, &draft);
        }
        self.routes.to_mut().push(RouteInfo {
            id,
            methods: wanted.iter().map(|m| (*m).to_owned()).collect(),
            pattern: pattern.to_owned(),
            template: draft.template,
            params: draft.params,
            captures: draft.captures,
            name: None,
            shadowed_by,
            is_static: draft.is_static,
            pieces: draft.pieces,
        });
        self.flat = OnceLock::new();
        Ok(Inserted { id, shadowed_by })
    }

    fn intern_method(&mut self, method: &str) -> u32 {
        let idx = match self.methods.iter().position(|m| m == method) {
            Some(i) => i,
            None => {
                self.methods.push(method.to_owned());
                self.methods.len() - 1
            }
        };
        let idx = u32::try_from(idx).unwrap_or(NONE);
        self.tree.root(idx);
        idx
    }

    fn intern_matcher(&mut self, spec: &MatcherSpec, matcher: &Matcher) -> u32 {
        let key = spec.key();
        if let Some(&id) = self.matcher_ids.get(&key) {
            return id;
        }
        let id = u32::try_from(self.specs.len()).unwrap_or(NONE);
        self.specs.push(spec.clone());
        self.matchers.push(matcher.clone());
        self.matcher_ids.insert(key, id);
        id
    }

    /// Adds the leaves of route `id`'s variants, for each of its methods, to the tree. Returns the
    /// methods' ids (interned here), for the conflict index.
    fn add_to_tree(&mut self, id: RouteId, methods: &[&str], draft: &Draft) -> Vec<u32> {
        let rank = tree::rank_of(id, draft.is_static);
        let mut method_ids = Vec::with_capacity(methods.len());
        for &m in methods {
            let method = self.intern_method(m);
            method_ids.push(method);
            for variant in &draft.variants {
                let ids: Vec<Option<u32>> = variant
                    .steps
                    .iter()
                    .map(|s| match s {
                        Step::Lit(_) => None,
                        Step::Dyn(spec, matcher) => Some(self.intern_matcher(spec, matcher)),
                    })
                    .collect();
                if let Some(keys) = tree::keys(&variant.steps, &ids) {
                    let leaf = Leaf {
                        route: id,
                        rank,
                        layout: variant.layout.clone(),
                    };
                    self.tree.insert(method, &keys, leaf);
                }
            }
        }
        method_ids
    }

    /// Builds what only registration needs when it is missing, after a snapshot load (which stores
    /// the flattened tree the lookup uses, not these): the conflict and shadowing index, and the tree
    /// that flattening starts from. Both come from the registered patterns, in registration order,
    /// so the tree is the one registration built. A pattern that no longer parses, which a valid
    /// snapshot cannot hold, is left out (it then conflicts with, shadows and matches nothing once
    /// the tree is flattened again).
    fn ensure_registration_state(&mut self) {
        if self.index.is_some() {
            return;
        }
        let mut index = Index::default();
        self.tree = Tree::default();
        let routes = std::mem::take(self.routes.to_mut());
        for r in &routes {
            let Some(draft) = pattern::parse(&r.pattern)
                .ok()
                .and_then(|pieces| draft::draft(&r.pattern, &pieces).ok())
            else {
                continue;
            };
            let methods: Vec<&str> = r.methods.iter().map(String::as_str).collect();
            let method_ids = self.add_to_tree(r.id, &methods, &draft);
            index.add(r.id, &method_ids, &draft);
        }
        *self.routes.to_mut() = routes;
        self.index = Some(index);
    }

    /// The earliest dynamic route sharing a method that contains `variant` (of the new route).
    fn find_shadow(&self, methods: &[&str], variant: &Variant) -> Option<RouteId> {
        let routes = self.routes.all();
        self.index.as_ref()?.shapes.covering(&variant.atoms, |id| {
            routes.get(id as usize).is_some_and(|e| {
                !e.is_static && e.methods.iter().any(|m| methods.contains(&m.as_str()))
            })
        })
    }

    /// Gives a route a name (for URL generation on the TypeScript side). Names are unique.
    ///
    /// ```
    /// use arbor_router::{Router, RouterOptions};
    /// let mut router = Router::new(RouterOptions::default());
    /// let id = router.insert(&["GET"], "/").unwrap().id;
    /// router.set_name(id, "home").unwrap();
    /// assert_eq!(router.routes()[0].name.as_deref(), Some("home"));
    /// ```
    pub fn set_name(&mut self, id: RouteId, name: &str) -> Result<(), InsertError> {
        let routes = &self.routes;
        let names = self.names.get_or_insert_with(|| {
            routes
                .all()
                .iter()
                .filter_map(|r| Some((r.name.clone()?, r.id)))
                .collect()
        });
        if let Some(&other) = names.get(name).filter(|&&other| other != id) {
            return Err(InsertError::DuplicateName {
                name: name.to_owned(),
                with: other,
            });
        }
        let route = self
            .routes
            .to_mut()
            .get_mut(id as usize)
            .ok_or(InsertError::UnknownRoute { id })?;
        if let Some(previous) = route.name.replace(name.to_owned()) {
            names.remove(&previous);
        }
        names.insert(name.to_owned(), id);
        Ok(())
    }
}

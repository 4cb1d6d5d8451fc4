//! [`Router`]: registration (cold path: strings, structured errors) and lookup (hot path: numbers).
//! Its fields are private to this module and to `snapshot`, its binary form.

mod codec;
mod route_list;
mod snapshot;

use foldhash::HashMap;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::OnceLock;

use crate::draft::{self, Draft};
use crate::encode::encode_non_ascii;
use crate::error::InsertError;
use crate::flat::Flat;
use crate::flat_to_segments::segment_trie;
use crate::flatten::{self, flatten};
use crate::ids::{RouteId, NONE};
use crate::index::Index;
use crate::lookup::Walk;
use crate::metadata::RouteInfo;
use crate::options::{Order, RouterOptions};
use crate::pattern;
use crate::route::{Matcher, MatcherSpec, Step, Variant};
use crate::segments::Lean;
use crate::shapes::RouteShapes;
use crate::spans::{Lookup, Spans};
use crate::statics::Probe;
use crate::tree::{self, Leaf, Tree};
use route_list::RouteList;

/// Distinguishes routers so a [`Spans`] used with several keeps capture slots per router.
static NEXT_UID: AtomicU64 = AtomicU64::new(1);

fn next_uid() -> u64 {
    NEXT_UID.fetch_add(1, AtomicOrdering::Relaxed)
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

/// The route table: insert routes, then look paths up.
///
/// ```
/// use arbor_router::{Lookup, Router, RouterOptions, Spans};
/// let mut router = Router::new(RouterOptions::default());
/// let show = router.insert(&["GET"], "/posts/:id").unwrap().id;
/// let create = router.insert(&["GET"], "/posts/create").unwrap().id;
/// let mut spans = Spans::new();
/// // An exact static route beats a dynamic one whatever the order of definition.
/// assert_eq!(router.find("GET", "/posts/create", &mut spans), Lookup::Found(create));
/// assert_eq!(router.find("GET", "/posts/7", &mut spans), Lookup::Found(show));
/// ```
#[derive(Debug)]
pub struct Router {
    options: RouterOptions,
    uid: u64,
    methods: Vec<String>,
    routes: RouteList,
    /// Route names → ids, for `set_name`'s uniqueness check (a scan of every route per name made
    /// naming 10,000 routes quadratic). `None` after a snapshot load, until the first `set_name` builds
    /// it from the routes.
    names: Option<HashMap<String, RouteId>>,
    /// Conflict and shadowing index of the registered routes. Rebuilt from the patterns on the first
    /// insert after a snapshot load (`None` until then), with `tree`.
    index: Option<Index>,
    specs: Vec<MatcherSpec>,
    matchers: Vec<Matcher>,
    matcher_ids: HashMap<String, u32>,
    /// What registration builds and flattening reads; empty after a snapshot load until the first
    /// insert (see `ensure_registration_state`).
    tree: Tree,
    /// The flattened tree, built on the first lookup after a change.
    flat: OnceLock<Flat>,
}

impl Clone for Router {
    fn clone(&self) -> Self {
        Router {
            options: self.options,
            uid: next_uid(),
            methods: self.methods.clone(),
            routes: self.routes.clone(),
            names: self.names.clone(),
            index: self.index.clone(),
            specs: self.specs.clone(),
            matchers: self.matchers.clone(),
            matcher_ids: self.matcher_ids.clone(),
            tree: self.tree.clone(),
            flat: self.flat.clone(),
        }
    }
}

impl Default for Router {
    fn default() -> Self {
        Router::new(RouterOptions::default())
    }
}

impl Router {
    /// An empty router.
    pub fn new(options: RouterOptions) -> Router {
        Router {
            options,
            uid: next_uid(),
            methods: Vec::new(),
            routes: RouteList::default(),
            names: Some(HashMap::default()),
            index: Some(Index::default()),
            specs: Vec::new(),
            matchers: Vec::new(),
            matcher_ids: HashMap::default(),
            tree: Tree::default(),
            flat: OnceLock::new(),
        }
    }

    /// The options the router was made with.
    pub fn options(&self) -> RouterOptions {
        self.options
    }

    /// Registers a route for `methods` (upper-case names; any token, `"*"` is not special) and returns
    /// its id. Errors name the pattern and the byte position. Decisions beyond the SPEC:
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

        // Shadowed (SPEC 3.2): every path of this route is taken by earlier dynamic routes, i.e.
        // each variant is identical to a variant of an earlier route (which keeps that leaf) or is
        // contained in one. A route only partly taken (`/g/:a` then `/g/:b?`: `/g` still reaches
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

    /// Every method some route uses, in the order of their ids ([`Router::method_id`]).
    pub fn methods(&self) -> &[String] {
        &self.methods
    }

    /// The interned id of a method, for [`Router::lookup`]; `None` when no route uses it.
    pub fn method_id(&self, method: &str) -> Option<u32> {
        self.methods
            .iter()
            .position(|m| m == method)
            .and_then(|i| u32::try_from(i).ok())
    }

    #[cfg(test)]
    pub(crate) fn flat_for_tests(&self) -> &Flat {
        self.flat()
    }

    #[cfg(test)]
    pub(crate) fn matchers_for_tests(&self) -> &[Matcher] {
        &self.matchers
    }

    fn flat(&self) -> &Flat {
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
    pub(crate) fn with_segments(&self, mut flat: Flat) -> Flat {
        let ranked = self.options.order == Order::Definition || flat.rank_depth_first();
        flat.segments = if ranked {
            segment_trie(&flat, &self.matchers)
        } else {
            None
        };
        flat
    }

    /// The hot path: finds the route of `method_id` for the raw request path and writes its spans.
    ///
    /// `path` is the raw path, ASCII (percent-encoded). Everything from a `?` or `#` on is ignored.
    /// A path with a non-ASCII byte (before any `?`) is `NotFound`: callers percent-encode first, as
    /// [`Router::find`] does. If nothing matches and the `trailing_slash` option is on, one trailing
    /// slash is toggled and the lookup repeated (never for `/`), when the toggled path can match at
    /// all (see [`Router::retry`]).
    ///
    /// ```
    /// use arbor_router::{Lookup, Router, RouterOptions, Spans};
    /// let mut router = Router::new(RouterOptions::default());
    /// let id = router.insert(&["GET"], "/static/*").unwrap().id;
    /// let mut spans = Spans::new();
    /// let get = router.method_id("GET").unwrap();
    /// // Retried as "/static/": the wildcard is empty, its span one past the end of the path.
    /// assert_eq!(router.lookup(get, b"/static", &mut spans), Lookup::Found(id));
    /// assert_eq!(spans.as_slice(), &[8, 8]);
    /// ```
    #[inline(always)]
    pub fn lookup(&self, method_id: u32, path: &[u8], spans: &mut Spans) -> Lookup {
        match self.lookup_id(method_id, path, spans) {
            NONE => Lookup::NotFound,
            id => Lookup::Found(id),
        }
    }

    /// [`Router::lookup`]'s answer as one `u32`, the route id or `NONE`, and so is every function
    /// under it: WebAssembly returns a `u32` in a register, where an enum or an `Option` with data
    /// comes back through linear memory (a stack frame there, a store and a load per call).
    fn lookup_id(&self, method_id: u32, path: &[u8], spans: &mut Spans) -> RouteId {
        let flat = self.flat();
        // An exact static route is final (SPEC §3 rule 2): the common case returns here, from a
        // small function; the walk and the trailing-slash retry are out of line.
        let len = match flat.statics.probe(method_id, path) {
            Probe::Static(id) => {
                spans.values.clear();
                return id;
            }
            Probe::Dynamic { len, escaped } => {
                spans.escaped = escaped;
                len
            }
            Probe::Refused => return NONE,
        };
        let path = path.get(..len).unwrap_or_default();
        self.lookup_dynamic(flat, method_id, path, spans)
    }

    /// The rest of [`Router::lookup_id`] after a miss in the static table: the walk, then the
    /// trailing-slash retry.
    #[inline(never)]
    fn lookup_dynamic(
        &self,
        flat: &Flat,
        method_id: u32,
        path: &[u8],
        spans: &mut Spans,
    ) -> RouteId {
        if path.len() >= NONE as usize {
            return NONE;
        }
        // The walk is inlined here (one call fewer on the hot path); the retry is out of line.
        match self.walk(flat, method_id, path, spans) {
            NONE => self.retry(flat, method_id, path, spans),
            id => id,
        }
    }

    /// The trailing-slash retry of [`Router::lookup_dynamic`], with one slash toggled: the static
    /// table (only when a static route has the toggled length), then the walk, which adding a slash
    /// skips when no dynamic route of the method can end with `/` (static text ending in `/`, a
    /// wildcard, a regex block; `Flat::slash_ends`). A 404 without a trailing slash thus costs one
    /// walk, not two, on tables like GitHub's. (Removing a slash always walks again: knowing whether
    /// the shorter path can match would cost every lookup a little, hits included, to spare only
    /// misses.)
    #[inline(never)]
    fn retry(&self, flat: &Flat, method_id: u32, path: &[u8], spans: &mut Spans) -> RouteId {
        if !self.options.trailing_slash || path.len() <= 1 {
            return NONE;
        }
        if let Some(shorter) = path.strip_suffix(b"/") {
            return self.exactly(flat, method_id, shorter, true, spans);
        }
        let walk = flat.slash_ends.get(method_id as usize) == Some(&true);
        if !walk && !flat.statics.has_len(path.len() + 1) {
            return NONE;
        }
        let mut longer = std::mem::take(&mut spans.scratch);
        longer.clear();
        longer.extend_from_slice(path);
        longer.push(b'/');
        let found = self.exactly(flat, method_id, &longer, walk, spans);
        spans.scratch = longer;
        found
    }

    /// One lookup of the path as given (no retry): the static table, then the walk if `walk`.
    fn exactly(
        &self,
        flat: &Flat,
        method_id: u32,
        path: &[u8],
        walk: bool,
        spans: &mut Spans,
    ) -> RouteId {
        // `path` is already cut at any `?` / `#`: `Dynamic` keeps all of it.
        match flat.statics.probe(method_id, path) {
            Probe::Static(id) => {
                spans.values.clear();
                id
            }
            Probe::Dynamic { .. } if walk => self.walk(flat, method_id, path, spans),
            Probe::Dynamic { .. } | Probe::Refused => NONE,
        }
    }

    /// The walk of the dynamic routes of a method: the lean walk where it can answer, else the
    /// byte walk. The route id, or `NONE`.
    #[inline(always)]
    fn walk(&self, flat: &Flat, method_id: u32, path: &[u8], spans: &mut Spans) -> RouteId {
        if let Some(segments) = &flat.segments {
            let Some(root) = segments.root(method_id) else {
                return NONE;
            };
            if root == NONE {
                return NONE;
            }
            let lean = segments.search(
                root,
                path,
                &mut spans.lean,
                &mut spans.values,
                &flat.layouts,
            );
            if lean != Lean::GENERAL {
                return lean.route().unwrap_or(NONE);
            }
        }
        self.walk_general(flat, method_id, path, spans)
    }

    /// The byte walk, for what the lean walk does not handle (out of line: the lean walk's loop
    /// stays free of its code). The route id, or `NONE`.
    #[inline(never)]
    pub(crate) fn walk_general(
        &self,
        flat: &Flat,
        method_id: u32,
        path: &[u8],
        spans: &mut Spans,
    ) -> RouteId {
        let Some(&root) = flat.roots.get(method_id as usize) else {
            return NONE;
        };
        if root == NONE {
            return NONE;
        }
        // Capture slots made for another router are dropped (matcher ids are per router); they
        // are made on first use by the regex that needs them (`lookup::push_groups`).
        if spans.owner != self.uid {
            spans.owner = self.uid;
            spans.locs.clear();
        }
        self.search(flat, root, path, spans)
    }

    #[inline(always)]
    fn search(&self, flat: &Flat, root: u32, path: &[u8], spans: &mut Spans) -> RouteId {
        let first_wins = self.options.order == Order::Specificity;
        let mut walk = Walk::new(
            path,
            first_wins,
            &mut spans.stack,
            &mut spans.values,
            &mut spans.locs,
        );
        flat.search(&self.matchers, &mut walk, &mut spans.frames, root);
        walk.best_route
    }

    /// Convenience for embedders and tests: [`Router::method_id`] then [`Router::lookup`], after
    /// percent-encoding any non-ASCII character of `path` (so `/café` finds a route `/café`). Spans
    /// are offsets into the encoded path (equal to `path` when it is ASCII).
    ///
    /// ```
    /// use arbor_router::{Lookup, Router, RouterOptions, Spans};
    /// let mut router = Router::new(RouterOptions::default());
    /// let id = router.insert(&["GET"], "/café").unwrap().id;
    /// let mut spans = Spans::new();
    /// assert_eq!(router.find("GET", "/café", &mut spans), Lookup::Found(id));
    /// assert_eq!(router.find("GET", "/caf%C3%A9", &mut spans), Lookup::Found(id));
    /// ```
    pub fn find(&self, method: &str, path: &str, spans: &mut Spans) -> Lookup {
        let Some(method_id) = self.method_id(method) else {
            return Lookup::NotFound;
        };
        let path = encode_non_ascii(path);
        self.lookup(method_id, path.as_bytes(), spans)
    }

    /// The methods of every route that matches `path` (same rules as `lookup`, trailing-slash retry
    /// included), sorted and deduplicated: the `Allow` header of a 405.
    ///
    /// ```
    /// use arbor_router::{Router, RouterOptions};
    /// let mut router = Router::new(RouterOptions::default());
    /// router.insert(&["POST", "GET"], "/users").unwrap();
    /// router.insert(&["DELETE"], "/users/:id").unwrap();
    /// assert_eq!(router.allowed_methods(b"/users"), ["GET", "POST"]);
    /// ```
    pub fn allowed_methods(&self, path: &[u8]) -> Vec<String> {
        let mut spans = Spans::new();
        let mut out: Vec<String> = (0..self.methods.len())
            .filter_map(|m| u32::try_from(m).ok())
            .filter(|&m| self.lookup(m, path, &mut spans) != Lookup::NotFound)
            .filter_map(|m| self.methods.get(m as usize).cloned())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Every route, indexed by id.
    pub fn routes(&self) -> &[RouteInfo] {
        self.routes.all()
    }

    /// What serving needs of every route ([`RouteShapes`]), without reading their whole metadata: a
    /// loaded snapshot answers it as stored.
    ///
    /// ```
    /// use arbor_router::{Router, RouterOptions};
    /// let mut router = Router::new(RouterOptions::default());
    /// router.insert(&["GET"], "/a/:id").unwrap();
    /// router.insert(&["GET"], "/b/:id").unwrap();
    /// let shapes = router.route_shapes();
    /// assert_eq!(shapes.name_lists, [vec!["id".to_owned()]]);
    /// assert_eq!(shapes.routes[1].names, 0);
    /// ```
    pub fn route_shapes(&self) -> Cow<'_, RouteShapes> {
        self.routes.shapes(|method| self.method_id(method))
    }

    /// One route's metadata, if `id` exists.
    pub fn route(&self, id: RouteId) -> Option<&RouteInfo> {
        self.routes.get(usize::try_from(id).ok()?)
    }
}

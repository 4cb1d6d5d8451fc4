//! Lookup: the hot path, and the one place that shows every matcher a lookup may cross, in order.
//! Numbers in, a route id out; nothing allocated (the caller's [`Spans`] holds every buffer).
//!
//! 0. The first lookup after a change compiles the tree (`compile.rs`): the static table, the byte
//!    walk's flattened tree, the lean walk's trie and the trailing-slash hints, all in [`Flat`].
//! 1. The static table (`statics.rs`), one hash probe. First because an exact static route beats
//!    every dynamic one in both orders (ROUTING.md §3 rule 2), so a hit is final, and because it is
//!    the cheapest matcher: the common case returns from a small function. The same pass cuts the
//!    path at `?` / `#`, notes a `%` for the host, and refuses a non-ASCII path (not found, no walk).
//! 2. The lean walk (`segments/search.rs`), over whole segments. Before the byte walk because it
//!    answers most dynamic lookups and its one small loop runs close to native speed in
//!    WebAssembly. It only holds static segments and whole-segment parameters, and hands the lookup
//!    on (`Lean::GENERAL`) when a part of the table it does not hold could beat its answer; its
//!    answers are the byte walk's by construction (the same ranks). Absent when the tree does not
//!    convert to its trie (`Flat::segments` is `None`).
//! 3. The byte walk (`lookup.rs`, over `flat.rs`): every pattern kind, both orders; the matcher of
//!    last resort for the dynamic routes, out of line so the lean walk's path stays small.
//! 4. The trailing-slash retry, when the `trailing_slash` option is on and 1–3 found nothing: the
//!    path with one slash toggled goes through 1 (only when a static route has that length) and
//!    2–3 (skipped when a slash is added and no dynamic route of the method can end with `/`). Last,
//!    because the path as written wins over its toggled form, and it costs nothing to a hit.
//!
//! Every function below returns a `u32` (a route id or `NONE`) rather than an enum or an `Option`:
//! see [`Router::lookup_id`].

use super::Router;
use crate::encode::encode_non_ascii;
use crate::flat::Flat;
use crate::ids::{RouteId, NONE};
use crate::lookup::Walk;
use crate::options::Order;
use crate::segments::Lean;
use crate::spans::{Lookup, Spans};
use crate::statics::Probe;

impl Router {
    /// The hot path: finds the route of `method_id` for the raw request path and writes its spans.
    ///
    /// `path` is the raw path, ASCII (percent-encoded). Everything from a `?` or `#` on is ignored.
    /// A path with a non-ASCII byte (before any `?`) is `NotFound`: callers percent-encode first, as
    /// [`Router::find`] does. If nothing matches and the `trailing_slash` option is on, one trailing
    /// slash is toggled and the lookup repeated (never for `/`), when the toggled path can match at
    /// all: the exact static routes are tried first, then the dynamic ones, then this retry.
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
        // 1. The static table. An exact static route is final (ROUTING.md §3 rule 2): the common
        // case returns here, from a small function; the walks and the trailing-slash retry are out
        // of line.
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
        // 2–3. The walks, inlined here (one call fewer on the hot path); 4. the retry, out of line.
        match self.walk(flat, method_id, path, spans) {
            NONE => self.retry(flat, method_id, path, spans),
            id => id,
        }
    }

    /// The walk of the dynamic routes of a method: the lean walk where it can answer, else the
    /// byte walk. The route id, or `NONE`.
    #[inline(always)]
    fn walk(&self, flat: &Flat, method_id: u32, path: &[u8], spans: &mut Spans) -> RouteId {
        // 2. The lean walk. Its trie holds every method's dynamic routes when it exists, so a
        // method without a root there has none, and the byte walk would find nothing either.
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
        // 3. The byte walk: the lean walk handed the lookup on, or there is no trie.
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

    /// The byte walk proper (`lookup.rs`) from a method's root, in the router's order.
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

    /// Step 4, the trailing-slash retry of [`Router::lookup_dynamic`], with one slash toggled: the
    /// static table (only when a static route has the toggled length), then the walk, which adding a
    /// slash skips when no dynamic route of the method can end with `/` (static text ending in `/`,
    /// a wildcard, a regex block; `Flat::slash_ends`). A 404 without a trailing slash thus costs one
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
}

//! [`Router`]: the route table's fields and its face. Each operation has its own file, in the order
//! of a router's life: `insert.rs` (registration: conflicts, shadowing, names; the cold path, with
//! strings and structured errors), `compile.rs` (the registration tree turned into what lookups read,
//! once per change), `find.rs` (the lookup cascade: every matcher a lookup may cross, in the order
//! it tries them; the hot path, numbers only) and `snapshot.rs` (the binary form), whose route list
//! (`route_list.rs`, the metadata kept encoded after a load) shares the byte codec `codec/`. The
//! fields are private to this module and those files.

mod codec;
mod compile;
mod find;
mod insert;
mod route_list;
mod snapshot;

use foldhash::HashMap;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::OnceLock;

use crate::flat::Flat;
use crate::ids::RouteId;
use crate::index::Index;
use crate::metadata::RouteInfo;
use crate::options::RouterOptions;
use crate::route::{Matcher, MatcherSpec};
use crate::shapes::RouteShapes;
use crate::tree::Tree;
use route_list::RouteList;

/// Distinguishes routers so a [`Spans`](crate::Spans) used with several keeps capture slots per router.
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
    /// (ROUTING.md §3.2: a warning, never an error).
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

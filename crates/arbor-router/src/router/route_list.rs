//! The routes' metadata ([`RouteInfo`] by id). A snapshot load keeps it encoded until something reads
//! it: serving needs only the routes' shapes, which the snapshot stores apart, and building every
//! route's strings was much of the work of loading a snapshot, for strings a start then never read.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::codec::decode_metadata;
use crate::metadata::RouteInfo;
use crate::shapes::RouteShapes;

#[derive(Debug, Clone, Default)]
pub(super) struct RouteList {
    routes: Vec<RouteInfo>,
    /// A loaded snapshot's metadata, until the first write (`to_mut`) decodes it for good.
    loaded: Option<Loaded>,
}

#[derive(Debug, Clone)]
struct Loaded {
    /// The snapshot's metadata section, checked against `shapes` at load (`codec::check_metadata`),
    /// so decoding it cannot fail.
    bytes: Box<[u8]>,
    shapes: RouteShapes,
    /// The router's methods, which the shapes' method ids index.
    methods: Vec<String>,
    decoded: OnceLock<Vec<RouteInfo>>,
}

impl RouteList {
    /// A loaded snapshot's routes: `bytes` hold `shapes.routes.len()` checked records.
    pub(super) fn encoded(
        bytes: Box<[u8]>,
        shapes: RouteShapes,
        methods: Vec<String>,
    ) -> RouteList {
        RouteList {
            routes: Vec::new(),
            loaded: Some(Loaded {
                bytes,
                shapes,
                methods,
                decoded: OnceLock::new(),
            }),
        }
    }

    pub(super) fn len(&self) -> usize {
        match &self.loaded {
            Some(loaded) => loaded.shapes.routes.len(),
            None => self.routes.len(),
        }
    }

    /// Every route, decoded on the first read after a load.
    pub(super) fn all(&self) -> &[RouteInfo] {
        match &self.loaded {
            Some(loaded) => loaded.decoded.get_or_init(|| loaded.decode()),
            None => &self.routes,
        }
    }

    pub(super) fn get(&self, id: usize) -> Option<&RouteInfo> {
        self.all().get(id)
    }

    /// The routes to change (a registration or a name after a load): decoded, and no longer tied to
    /// the snapshot's shapes.
    pub(super) fn to_mut(&mut self) -> &mut Vec<RouteInfo> {
        if let Some(loaded) = self.loaded.take() {
            self.routes = match loaded.decoded.into_inner() {
                Some(routes) => routes,
                None => decode_metadata(&loaded.bytes, &loaded.shapes, &loaded.methods),
            };
        }
        &mut self.routes
    }

    /// The shapes of every route (`method_id`: the router's numbering of methods): a loaded snapshot's
    /// as stored, else worked out from the routes.
    pub(super) fn shapes(&self, method_id: impl Fn(&str) -> Option<u32>) -> Cow<'_, RouteShapes> {
        match &self.loaded {
            Some(loaded) => Cow::Borrowed(&loaded.shapes),
            None => Cow::Owned(RouteShapes::of(&self.routes, method_id)),
        }
    }
}

impl Loaded {
    fn decode(&self) -> Vec<RouteInfo> {
        decode_metadata(&self.bytes, &self.shapes, &self.methods)
    }
}

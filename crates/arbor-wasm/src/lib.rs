//! WebAssembly bindings of `arbor-router`: the only crate that knows about JavaScript.
//!
//! It converts arguments, calls the core and converts results — nothing else. Two kinds of calls:
//!
//! * **Cold path** (registration, metadata, snapshots): strings in, JSON strings out (written in
//!   `json.rs`). Every call that can fail returns `Result<_, String>`: wasm-bindgen throws the error,
//!   a JSON object `{"code","message",…}`, and `ts/src/engine/wasm-engine.ts` turns it into a
//!   `RouteError` in one place. One convention for every call.
//! * **Hot path** (`lookup`): numbers only, so V8 inlines the call. JavaScript writes the path into a fixed
//!   input area of this module's memory ([`Engine::input_ptr`]), calls `lookup(method_id, len)`, and reads
//!   the parameter spans where the core wrote them ([`Engine::spans_ptr`]: a fixed array inside the
//!   engine). Nothing is allocated or copied on either side: a copy of the spans compiles to
//!   `memory.copy`, which V8 runs as a call into C. Offsets are byte offsets into the path, which
//!   JavaScript sends as ASCII (non-ASCII characters percent-encoded first), so they are also UTF-16
//!   indices into the string it sent.

use arbor_router::{Lookup, Order, Router, RouterOptions, Spans};
use wasm_bindgen::prelude::*;

mod json;

/// Longest path the hot path accepts; longer paths take [`Engine::lookup_str`] (the framework answers 414
/// far below this).
const INPUT_CAPACITY: usize = 16 * 1024;
/// Added to a found route id when its values may need percent-decoding (route ids fit in 30 bits):
/// the match has values and the path holds a `%` ([`arbor_router::Spans::escaped`], noted by the
/// core while it checks the path anyway, so JavaScript does not search the path again).
const ESCAPED: i32 = 1 << 30;

/// A compiled route table plus the fixed buffers the hot path shares with JavaScript.
#[wasm_bindgen]
pub struct Engine {
    router: Router,
    input: Box<[u8]>,
    /// Boxed so that its address, which JavaScript keeps (`spans_ptr`), never moves.
    spans: Box<Spans>,
}

#[wasm_bindgen]
impl Engine {
    /// `order`: 0 = definition order, 1 = specificity. `trailing_slash`: tolerate one trailing slash.
    #[wasm_bindgen(constructor)]
    pub fn new(order: u32, trailing_slash: bool) -> Engine {
        let order = if order == 1 {
            Order::Specificity
        } else {
            Order::Definition
        };
        Engine::wrap(Router::new(RouterOptions {
            order,
            trailing_slash,
        }))
    }

    /// Rebuilds an engine from [`Engine::serialize`] output. Throws a `SNAPSHOT_*` error.
    pub fn from_snapshot(bytes: &[u8]) -> Result<Engine, String> {
        Router::deserialize(bytes)
            .map(Engine::wrap)
            .map_err(|error| json::snapshot_error(&error))
    }

    /// Registers `pattern` for the comma-separated `methods` and returns the new route's shape
    /// ([`json::route_shape`]: what serving it needs, so a registration is one crossing; the whole
    /// `RouteInfo` is [`Engine::route_json`]'s). Throws the registration error.
    pub fn insert(&mut self, methods: &str, pattern: &str) -> Result<String, String> {
        let methods: Vec<&str> = methods.split(',').filter(|m| !m.is_empty()).collect();
        let inserted = self
            .router
            .insert(&methods, pattern)
            .map_err(|error| json::route_error(&error))?;
        Ok(self
            .router
            .route(inserted.id)
            .map(|route| json::route_shape(route, &self.router))
            .unwrap_or_default())
    }

    /// Names a route. Throws `DUPLICATE_NAME` or `UNKNOWN_ROUTE`.
    pub fn set_name(&mut self, id: u32, name: &str) -> Result<(), String> {
        self.router
            .set_name(id, name)
            .map_err(|error| json::route_error(&error))
    }

    /// Every method some route uses, comma-separated (a loaded snapshot's engine learns them without
    /// reading the route list).
    pub fn methods(&self) -> String {
        self.router.methods().join(",")
    }

    /// The interned id of a method for [`Engine::lookup`], or -1 when no route uses it.
    pub fn method_id(&self, method: &str) -> i32 {
        self.router
            .method_id(method)
            .and_then(|id| i32::try_from(id).ok())
            .unwrap_or(-1)
    }

    /// Address of the input area (capacity [`Engine::input_capacity`] bytes).
    pub fn input_ptr(&self) -> u32 {
        address(self.input.as_ptr())
    }

    pub fn input_capacity(&self) -> u32 {
        INPUT_CAPACITY as u32
    }

    /// Address of the spans: `u32` (start, end) pairs written by a successful lookup (at most
    /// `2 * arbor_router::MAX_VALUES` of them), at a fixed place for the engine's life.
    pub fn spans_ptr(&self) -> u32 {
        address(self.spans.as_ptr())
    }

    /// Hot path: looks up the first `len` bytes of the input area. Returns the route id (plus
    /// [`ESCAPED`] when a value may need decoding) or -1.
    pub fn lookup(&mut self, method_id: u32, len: u32) -> i32 {
        let Some(path) = self.input.get(..len as usize) else {
            return -1;
        };
        let found = self.router.lookup(method_id, path, &mut self.spans);
        answer(found, &self.spans)
    }

    /// Cold variant for paths longer than the input area, or not ASCII; same answer and spans.
    pub fn lookup_str(&mut self, method: &str, path: &str) -> i32 {
        let found = self.router.find(method, path, &mut self.spans);
        answer(found, &self.spans)
    }

    /// Comma-separated methods of every route matching `path`.
    pub fn allowed_methods(&self, path: &str) -> String {
        self.router.allowed_methods(path.as_bytes()).join(",")
    }

    /// Route metadata as a JSON array of `RouteInfo`.
    pub fn routes_json(&self) -> String {
        json::routes(self.router.routes())
    }

    /// What attaching values needs of every route, in one crossing (see [`json::route_shapes`]; the
    /// method ids index [`Engine::methods`]).
    pub fn route_shapes(&self) -> String {
        json::route_shapes(&self.router.route_shapes())
    }

    /// One route's `RouteInfo`, or `undefined` for an unknown id.
    pub fn route_json(&self, id: u32) -> Option<String> {
        self.router.route(id).map(json::route)
    }

    /// The compiled table as bytes (format versioned; see `arbor_router::Router::serialize`).
    pub fn serialize(&self) -> Vec<u8> {
        self.router.serialize()
    }
}

impl Engine {
    fn wrap(router: Router) -> Engine {
        Engine {
            router,
            input: vec![0; INPUT_CAPACITY].into_boxed_slice(),
            spans: Box::new(Spans::new()),
        }
    }
}

/// The result as a number (the spans stay where JavaScript reads them).
fn answer(found: Lookup, spans: &Spans) -> i32 {
    match found {
        Lookup::Found(id) => {
            let flag = if spans.escaped() { ESCAPED } else { 0 };
            i32::try_from(id).map_or(-1, |id| id | flag)
        }
        Lookup::NotFound => -1,
    }
}

/// Pointers are 32-bit in wasm32; on a 64-bit host (tests) the value is meaningless but harmless.
fn address<T>(pointer: *const T) -> u32 {
    pointer as usize as u32
}

/// The pieces of `pattern` as a route would report them (`RouteInfo.pieces`); throws the error its
/// registration would: the core's parser, for JavaScript that reads a pattern written elsewhere.
#[wasm_bindgen]
pub fn pattern_pieces(pattern: &str) -> Result<String, String> {
    arbor_router::pattern_pieces(pattern)
        .map(|pieces| json::pieces(&pieces))
        .map_err(|error| json::route_error(&error))
}

/// The module's linear memory, for the typed-array views of the input area and the spans.
#[wasm_bindgen]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

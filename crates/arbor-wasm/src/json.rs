//! Everything `arbor-wasm` hands to JavaScript as JSON, written by hand (the shapes are small and
//! fixed; serde would cost binary size). The shapes are the TypeScript types of
//! `ts/src/engine/engine.ts`: `RouteInfo`, `PatternPiece`, and the error of every call that fails.

use std::fmt::Write as _;

use arbor_router::{InsertError, PatternPiece, RouteInfo, RouteShapes, Router, SnapshotError};

/// A failed call's error, thrown to JavaScript as this JSON text (the one error convention of the
/// boundary): `{"code","message","pattern"?,"position"?,"conflictsWith"?}`. `wasm-engine.ts` turns it
/// into a `RouteError` with the same fields.
pub fn route_error(error: &InsertError) -> String {
    let mut out = String::from("{\"code\":");
    push_str(&mut out, error.code());
    out.push_str(",\"message\":");
    push_str(&mut out, &error.to_string());
    if let Some(pattern) = error.pattern() {
        out.push_str(",\"pattern\":");
        push_str(&mut out, pattern);
    }
    if let Some(position) = error.position() {
        let _ = write!(out, ",\"position\":{position}");
    }
    if let InsertError::Conflict { with_pattern, .. } = error {
        out.push_str(",\"conflictsWith\":");
        push_str(&mut out, with_pattern);
    }
    out.push('}');
    out
}

/// A snapshot that cannot be loaded, in the same shape (`SNAPSHOT_VERSION` or `SNAPSHOT_INVALID`).
pub fn snapshot_error(error: &SnapshotError) -> String {
    let mut out = String::from("{\"code\":");
    push_str(&mut out, error.code());
    out.push_str(",\"message\":");
    push_str(
        &mut out,
        &format!("cannot load the route snapshot: {error}"),
    );
    out.push('}');
    out
}

/// One route as a `RouteInfo` object.
pub fn route(info: &RouteInfo) -> String {
    let mut out = String::with_capacity(160);
    push_route(&mut out, info);
    out
}

/// `pieces` as a JSON array of `PatternPiece`.
pub fn pieces(pieces: &[PatternPiece]) -> String {
    let mut out = String::new();
    push_pieces(&mut out, pieces);
    out
}

/// Appends `n` in decimal. `write!` goes through `core::fmt`, whose integer formatting showed in a
/// cached start (every route's shape, several numbers each) in WebAssembly.
fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    // Digits from the last; 20 places hold any `u64`.
    let mut digits = [b'0'; 20];
    let mut rest = n.unsigned_abs();
    let mut first = digits.len();
    for d in digits.iter_mut().rev() {
        // `rest % 10` is below 10: the cast cannot truncate.
        *d = b'0' + (rest % 10) as u8;
        first -= 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in digits.get(first..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// Appends `text` as a JSON string literal.
fn push_str(out: &mut String, text: &str) {
    out.push('"');
    // Most texts need no escape: one copy instead of a push per character (every route's metadata
    // is written at start-up).
    if !text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(text);
        out.push('"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_opt_str(out: &mut String, text: Option<&str>) {
    match text {
        Some(t) => push_str(out, t),
        None => out.push_str("null"),
    }
}

/// `routes` as a JSON array of `RouteInfo` (`ts/src/engine/engine.ts`: field names camelCase).
pub fn routes(routes: &[RouteInfo]) -> String {
    let mut out = String::with_capacity(routes.len() * 160 + 2);
    out.push('[');
    for (i, r) in routes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_route(&mut out, r);
    }
    out.push(']');
    out
}

/// What serving a route needs of it (`RouteShape` in `ts/src/engine/engine.ts`), compact:
/// `[id, [methodIds], [paramNames], hasOptional, captures, shadowedBy]` (`-1`: not shadowed), the method
/// ids indexing `methods`: `insert` answers this for the new route. The full `RouteInfo` (patterns, pieces,
/// constraints: ~500 bytes of JSON a route, to write and to parse) stays in the engine until something
/// asks.
pub fn route_shape(route: &RouteInfo, router: &Router) -> String {
    let mut out = String::with_capacity(40);
    push_shape(&mut out, route, router);
    out
}

/// Every route's shape, for attaching values to a loaded snapshot in one crossing, with what routes share
/// written once: `{"names":[[paramNames],…],"methods":[[methodIds],…],"routes":[…]}`, five numbers per
/// route in id order (its parameter-name list and method set as indexes into the two lists, hasOptional,
/// captures, shadowedBy or `-1`). A table of 10,000 routes has a few dozen name lists and a few method
/// sets: the start parses that many arrays instead of 20,000.
pub fn route_shapes(shapes: &RouteShapes) -> String {
    let mut out = String::with_capacity(shapes.routes.len() * 12 + 64);
    out.push_str("{\"names\":");
    push_list(&mut out, &shapes.name_lists, |out, list| {
        push_list(out, list, |out, name| push_str(out, name));
    });
    out.push_str(",\"methods\":");
    push_list(&mut out, &shapes.method_sets, |out, ids| {
        push_list(out, ids, |out, &id| push_int(out, i64::from(id)));
    });
    out.push_str(",\"routes\":");
    push_list(&mut out, &shapes.routes, |out, shape| {
        push_int(out, i64::from(shape.names));
        out.push(',');
        push_int(out, i64::from(shape.methods));
        out.push_str(if shape.optional { ",1," } else { ",0," });
        push_int(out, i64::from(shape.captures));
        out.push(',');
        push_int(out, shape.shadowed_by.map_or(-1, i64::from));
    });
    out.push('}');
    out
}

/// `[…]`: each item written by `each`, separated by commas.
fn push_list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

fn push_shape(out: &mut String, r: &RouteInfo, router: &Router) {
    out.push('[');
    push_int(out, i64::from(r.id));
    out.push(',');
    // Every route's method is the router's: `-1` (none) never happens.
    push_list(out, r.methods.iter(), |out, m| {
        push_int(out, router.method_id(m).map_or(-1, i64::from))
    });
    out.push(',');
    push_list(out, r.params.iter(), |out, p| push_str(out, &p.name));
    out.push_str(if r.params.iter().any(|p| p.optional) {
        ",1,"
    } else {
        ",0,"
    });
    push_int(out, i64::from(r.captures));
    out.push(',');
    push_int(out, r.shadowed_by.map_or(-1, i64::from));
    out.push(']');
}

fn push_route(out: &mut String, r: &RouteInfo) {
    out.push_str("{\"id\":");
    push_int(out, i64::from(r.id));
    out.push_str(",\"methods\":[");
    for (k, m) in r.methods.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_str(out, m);
    }
    out.push_str("],\"pattern\":");
    push_str(out, &r.pattern);
    out.push_str(",\"template\":");
    push_str(out, &r.template);
    out.push_str(",\"params\":[");
    for (k, p) in r.params.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        push_str(out, &p.name);
        out.push_str(",\"kind\":");
        push_str(out, p.kind.as_str());
        out.push_str(",\"shortcut\":");
        push_opt_str(out, p.shortcut.as_deref());
        out.push_str(",\"regex\":");
        push_opt_str(out, p.regex.as_deref());
        out.push_str(if p.optional {
            ",\"optional\":true}"
        } else {
            ",\"optional\":false}"
        });
    }
    out.push_str("],\"captures\":");
    push_int(out, i64::from(r.captures));
    out.push_str(",\"name\":");
    push_opt_str(out, r.name.as_deref());
    out.push_str(",\"shadowedBy\":");
    match r.shadowed_by {
        Some(id) => push_int(out, i64::from(id)),
        None => out.push_str("null"),
    }
    out.push_str(if r.is_static {
        ",\"isStatic\":true,\"pieces\":"
    } else {
        ",\"isStatic\":false,\"pieces\":"
    });
    push_pieces(out, &r.pieces);
    out.push('}');
}

/// `pieces` as a JSON array: `{"kind":"text","text":…}`, `{"kind":"param","name":…,"constraint":…,
/// "shortcut":…,"regex":…,"optional":…}`, `{"kind":"wildcard"}`, `{"kind":"regex","source":…,
/// "captures":[…]}` (as `PatternPiece` in `ts/src/engine/engine.ts` spells them).
fn push_pieces(out: &mut String, pieces: &[PatternPiece]) {
    out.push('[');
    for (k, piece) in pieces.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        match piece {
            PatternPiece::Text(text) => {
                out.push_str("{\"kind\":\"text\",\"text\":");
                push_str(out, text);
            }
            PatternPiece::Param {
                name,
                constraint,
                shortcut,
                regex,
                optional,
            } => {
                out.push_str("{\"kind\":\"param\",\"name\":");
                push_str(out, name);
                out.push_str(",\"constraint\":");
                push_str(out, constraint.as_str());
                out.push_str(",\"shortcut\":");
                push_opt_str(out, shortcut.as_deref());
                out.push_str(",\"regex\":");
                push_opt_str(out, regex.as_deref());
                let _ = write!(out, ",\"optional\":{optional}");
            }
            PatternPiece::Wildcard => out.push_str("{\"kind\":\"wildcard\""),
            PatternPiece::Regex { source, captures } => {
                out.push_str("{\"kind\":\"regex\",\"source\":");
                push_str(out, source);
                out.push_str(",\"captures\":[");
                for (g, name) in captures.iter().enumerate() {
                    if g > 0 {
                        out.push(',');
                    }
                    push_opt_str(out, name.as_deref());
                }
                out.push(']');
            }
        }
        out.push('}');
    }
    out.push(']');
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use arbor_router::{Router, RouterOptions};

    use super::*;

    #[test]
    fn integers_are_written_as_format_writes_them() {
        for n in [0, 1, 9, 10, 42, -1, -10, 1 << 30, i64::MAX, i64::MIN] {
            let mut out = String::new();
            push_int(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }

    #[test]
    fn routes_are_escaped_and_camel_case() {
        let mut router = Router::new(RouterOptions::default());
        let id = router.insert(&["GET"], r#"/posts/:id<int>"#).unwrap().id;
        router.set_name(id, "posts.\"show\"\n").unwrap();
        router.insert(&["GET"], r"/a/:x<\d+\\>").unwrap();
        let json = routes(router.routes());
        assert_eq!(
            json.split(r#"},{"id":1"#).next().unwrap(),
            concat!(
                r#"[{"id":0,"methods":["GET"],"pattern":"/posts/:id<int>","template":"/posts/{id}","#,
                r#""params":[{"name":"id","kind":"param","shortcut":"int","regex":"\\d+","optional":false}],"#,
                r#""captures":0,"name":"posts.\"show\"\n","shadowedBy":null,"isStatic":false,"#,
                r#""pieces":[{"kind":"text","text":"/posts/"},{"kind":"param","name":"id","constraint":"shortcut","shortcut":"int","regex":"\\d+","optional":false}]"#
            )
        );
        assert!(json.contains(r#""regex":"\\d+\\\\""#), "{json}");
        assert!(json.ends_with(r#""shadowedBy":null,"isStatic":false,"pieces":[{"kind":"text","text":"/a/"},{"kind":"param","name":"x","constraint":"regex","shortcut":null,"regex":"\\d+\\\\","optional":false}]}]"#));
        assert_eq!(routes(&[]), "[]");
        // One route is the array's element.
        assert_eq!(
            format!("[{}]", route(&router.routes()[1])),
            routes(&router.routes()[1..])
        );
    }

    #[test]
    fn route_shapes_name_methods_by_id_and_params_by_name() {
        let mut router = Router::new(RouterOptions::default());
        router.insert(&["GET", "HEAD"], "/posts/:id<int>").unwrap();
        router.insert(&["POST"], "/a/:x/:y?").unwrap();
        router.insert(&["GET"], r"/q/{^(\d+)-(?P<n>x)$}").unwrap();
        router.insert(&["GET"], "/*").unwrap();
        router.insert(&["POST"], "/a/:p/:q<int>").unwrap();
        let methods = router.methods().to_vec();
        assert_eq!(methods, ["GET", "HEAD", "POST"]);
        // Route 4 is shadowed by route 1 (`/a/:x/:y?` takes every path `/a/:p/:q<int>` could).
        assert_eq!(
            route_shapes(&router.route_shapes()),
            concat!(
                r#"{"names":[["id"],["x","y"],["n"],["*"],["p","q"]],"methods":[[0,1],[2],[0]],"#,
                r#""routes":[0,0,0,0,-1,1,1,1,0,-1,2,2,0,2,-1,3,2,0,0,-1,4,1,0,0,1]}"#
            )
        );
        assert_eq!(
            route_shapes(&RouteShapes::default()),
            r#"{"names":[],"methods":[],"routes":[]}"#
        );
        // One route's shape, as `insert` answers it.
        let routes = router.routes();
        assert_eq!(
            routes.get(1).map(|r| route_shape(r, &router)).as_deref(),
            Some(r#"[1,[2],["x","y"],1,0,-1]"#)
        );
    }

    #[test]
    fn pieces_spell_every_kind() {
        let pieces = arbor_router::pattern_pieces(r"/v1/:name::publish/{^(?P<y>\d+)$}").unwrap();
        assert_eq!(
            super::pieces(&pieces),
            concat!(
                r#"[{"kind":"text","text":"/v1/"},{"kind":"param","name":"name","constraint":"none","shortcut":null,"regex":null,"optional":false},"#,
                r#"{"kind":"text","text":":publish/"},{"kind":"regex","source":"^(?P<y>\\d+)$","captures":["y"]}]"#
            )
        );
        let wildcard = arbor_router::pattern_pieces("/files/*").unwrap();
        assert_eq!(
            super::pieces(&wildcard),
            r#"[{"kind":"text","text":"/files/"},{"kind":"wildcard"}]"#
        );
    }

    #[test]
    fn errors_carry_code_pattern_position_and_conflict() {
        let mut router = Router::new(RouterOptions::default());
        let error = router.insert(&["GET"], "/a/{id").unwrap_err();
        let json = route_error(&error);
        assert!(
            json.starts_with(
                r#"{"code":"INVALID_PATTERN","message":"invalid pattern \"/a/{id\" at byte"#
            ),
            "{json}"
        );
        assert!(
            json.ends_with(r#","pattern":"/a/{id","position":3}"#),
            "{json}"
        );
        router.insert(&["GET"], "/u/:id").unwrap();
        let conflict = route_error(&router.insert(&["GET"], "/u/{name}").unwrap_err());
        assert!(
            conflict.starts_with(r#"{"code":"ROUTE_CONFLICT""#),
            "{conflict}"
        );
        assert!(
            conflict.ends_with(r#","pattern":"/u/{name}","conflictsWith":"/u/:id"}"#),
            "{conflict}"
        );
        let snapshot = snapshot_error(&Router::deserialize(b"nope").unwrap_err());
        assert_eq!(
            snapshot,
            r#"{"code":"SNAPSHOT_INVALID","message":"cannot load the route snapshot: invalid route snapshot: bad magic bytes"}"#
        );
    }
}

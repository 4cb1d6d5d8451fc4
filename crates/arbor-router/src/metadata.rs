//! Route metadata owned by the core and read by the exporter and the CLI: [`RouteInfo`], [`ParamInfo`],
//! and their JSON form (hand-written: the shape is small and fixed, serde would cost binary size).

use std::fmt::Write as _;

use crate::RouteId;

/// What kind of value a [`ParamInfo`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `:name`, `{name}`, `:name<c>`: one non-empty piece of a segment.
    Param,
    /// `:name?`: the whole last segment, may be absent (span `u32::MAX, u32::MAX`).
    Optional,
    /// Trailing `*`: the rest of the path, possibly empty; its name is `"*"`.
    Wildcard,
    /// A named capture group of a `{^regex$}` block.
    RegexGroup,
}

impl ParamKind {
    /// The JSON spelling: `"param"`, `"optional"`, `"wildcard"`, `"regex-group"` (as the engine
    /// interface in `ts/src/engine/engine.ts` spells them).
    pub fn as_str(self) -> &'static str {
        match self {
            ParamKind::Param => "param",
            ParamKind::Optional => "optional",
            ParamKind::Wildcard => "wildcard",
            ParamKind::RegexGroup => "regex-group",
        }
    }
}

/// One parameter of a route, in the order of its spans.
///
/// ```
/// use arbor_router::{ParamKind, Router, RouterOptions};
/// let mut router = Router::new(RouterOptions::default());
/// router.insert(&["GET"], "/posts/:id<int>").unwrap();
/// let param = &router.routes()[0].params[0];
/// assert_eq!((param.name.as_str(), param.kind), ("id", ParamKind::Param));
/// assert_eq!(param.shortcut.as_deref(), Some("int"));
/// assert_eq!(param.regex.as_deref(), Some(r"\d+"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    /// The name; `"*"` for the wildcard tail.
    pub name: String,
    /// What kind of parameter.
    pub kind: ParamKind,
    /// The shortcut used (`"int"`, `"uuid"`...), if any.
    pub shortcut: Option<String>,
    /// The constraint's regex source (a shortcut's regex when a shortcut was used), if any.
    pub regex: Option<String>,
    /// Whether the value may be absent (optional parameters).
    pub optional: bool,
}

/// How a parameter's value is constrained (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintKind {
    /// `:name`: any non-empty value without `/`.
    None,
    /// `:name<int>`: one of the shortcuts; `regex` holds its expansion.
    Shortcut,
    /// `:name<[a-z]+>`: a regular expression written in the pattern.
    Regex,
}

impl ConstraintKind {
    /// The JSON spelling: `"none"`, `"shortcut"`, `"regex"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ConstraintKind::None => "none",
            ConstraintKind::Shortcut => "shortcut",
            ConstraintKind::Regex => "regex",
        }
    }
}

/// One piece of a route's pattern, in textual order, as the core's parser read it. Everything that
/// needs a pattern's structure (URL generation, OpenAPI paths, generated lookup code, the CLI) reads
/// these instead of parsing the pattern again, so a pattern means one thing everywhere.
///
/// ```
/// use arbor_router::{PatternPiece, Router, RouterOptions};
/// let mut router = Router::new(RouterOptions::default());
/// router.insert(&["GET"], "/v1/:name::publish").unwrap();
/// let pieces = &router.routes()[0].pieces;
/// assert_eq!(pieces[0], PatternPiece::Text("/v1/".to_owned()));
/// assert!(matches!(&pieces[1], PatternPiece::Param { name, .. } if name == "name"));
/// assert_eq!(pieces[2], PatternPiece::Text(":publish".to_owned())); // `::` is a literal colon
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternPiece {
    /// Literal text as it matches, before percent-encoding (`::` already read as `:`).
    Text(String),
    /// A parameter (`:name`, `{name}`, `:name<c>`, `:name?`).
    Param {
        name: String,
        constraint: ConstraintKind,
        /// The shortcut used (`"int"`), if any.
        shortcut: Option<String>,
        /// The constraint's regex source (a shortcut's expansion included), if any.
        regex: Option<String>,
        optional: bool,
    },
    /// The trailing `*`; its value is the parameter `"*"`.
    Wildcard,
    /// A `{^regex$}` block: `source` as written between the braces, and one entry per capture group
    /// in textual order (`None` for an unnamed group).
    Regex {
        source: String,
        captures: Vec<Option<String>>,
    },
}

/// One registered route, as the core understands it.
///
/// ```
/// use arbor_router::{Router, RouterOptions};
/// let mut router = Router::new(RouterOptions::default());
/// router.insert(&["GET", "HEAD"], "/search/:q/:page?").unwrap();
/// let info = &router.routes()[0];
/// assert_eq!(info.template, "/search/{q}/{page}");
/// assert!(info.params[1].optional);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteInfo {
    /// Dense id, in definition order.
    pub id: RouteId,
    /// Methods as given to `insert`, deduplicated, in the order given.
    pub methods: Vec<String>,
    /// The pattern as registered.
    pub pattern: String,
    /// Normalised template: `/posts/{id}`; the optional parameter as `{page}` (see its `optional`
    /// flag); the wildcard tail as `{*}`; regex blocks kept as written (`{^(\d+)$}`).
    pub template: String,
    /// Parameters in span order: path parameters and the wildcard in textual order, then the named
    /// groups of a regex block.
    pub params: Vec<ParamInfo>,
    /// Number of capture groups of the regex block (0 without one).
    pub captures: u32,
    /// The route's name, set by `set_name`.
    pub name: Option<String>,
    /// The earlier route that takes every request this one could match (definition order only).
    pub shadowed_by: Option<RouteId>,
    /// Whether the pattern is only static text.
    pub is_static: bool,
    /// The pattern's pieces in textual order (see [`PatternPiece`]).
    pub pieces: Vec<PatternPiece>,
}

impl RouteInfo {
    /// Number of `u32` values a `Found` writes into the spans: `2 * (params + captures)`.
    pub fn span_len(&self) -> usize {
        2 * (self.params.len() + self.captures as usize)
    }
}

/// Appends `text` as a JSON string literal.
pub(crate) fn push_json_str(out: &mut String, text: &str) {
    out.push('"');
    // Most texts need no escape: one copy instead of a push per character (10,000 routes' metadata:
    // ~36 ms → a few ms in WebAssembly at start-up).
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
        Some(t) => push_json_str(out, t),
        None => out.push_str("null"),
    }
}

/// `routes` as a JSON array (field names camelCase).
pub(crate) fn routes_to_json(routes: &[RouteInfo]) -> String {
    let mut out = String::with_capacity(routes.len() * 160 + 2);
    out.push('[');
    for (i, r) in routes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{{\"id\":{},\"methods\":[", r.id);
        for (k, m) in r.methods.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            push_json_str(&mut out, m);
        }
        out.push_str("],\"pattern\":");
        push_json_str(&mut out, &r.pattern);
        out.push_str(",\"template\":");
        push_json_str(&mut out, &r.template);
        out.push_str(",\"params\":[");
        for (k, p) in r.params.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            push_json_str(&mut out, &p.name);
            out.push_str(",\"kind\":");
            push_json_str(&mut out, p.kind.as_str());
            out.push_str(",\"shortcut\":");
            push_opt_str(&mut out, p.shortcut.as_deref());
            out.push_str(",\"regex\":");
            push_opt_str(&mut out, p.regex.as_deref());
            let _ = write!(out, ",\"optional\":{}}}", p.optional);
        }
        let _ = write!(out, "],\"captures\":{},\"name\":", r.captures);
        push_opt_str(&mut out, r.name.as_deref());
        out.push_str(",\"shadowedBy\":");
        match r.shadowed_by {
            Some(id) => {
                let _ = write!(out, "{id}");
            }
            None => out.push_str("null"),
        }
        let _ = write!(out, ",\"isStatic\":{},\"pieces\":", r.is_static);
        push_pieces_json(&mut out, &r.pieces);
        out.push('}');
    }
    out.push(']');
    out
}

/// `pieces` as a JSON array: `{"kind":"text","text":…}`, `{"kind":"param","name":…,"constraint":…,
/// "shortcut":…,"regex":…,"optional":…}`, `{"kind":"wildcard"}`, `{"kind":"regex","source":…,
/// "captures":[…]}` (as `PatternPiece` in `ts/src/engine/engine.ts` spells them).
pub(crate) fn push_pieces_json(out: &mut String, pieces: &[PatternPiece]) {
    out.push('[');
    for (k, piece) in pieces.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        match piece {
            PatternPiece::Text(text) => {
                out.push_str("{\"kind\":\"text\",\"text\":");
                push_json_str(out, text);
            }
            PatternPiece::Param {
                name,
                constraint,
                shortcut,
                regex,
                optional,
            } => {
                out.push_str("{\"kind\":\"param\",\"name\":");
                push_json_str(out, name);
                out.push_str(",\"constraint\":");
                push_json_str(out, constraint.as_str());
                out.push_str(",\"shortcut\":");
                push_opt_str(out, shortcut.as_deref());
                out.push_str(",\"regex\":");
                push_opt_str(out, regex.as_deref());
                let _ = write!(out, ",\"optional\":{optional}");
            }
            PatternPiece::Wildcard => out.push_str("{\"kind\":\"wildcard\""),
            PatternPiece::Regex { source, captures } => {
                out.push_str("{\"kind\":\"regex\",\"source\":");
                push_json_str(out, source);
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

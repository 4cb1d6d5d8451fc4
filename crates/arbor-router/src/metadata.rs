//! Route metadata owned by the core and read by the exporter and the CLI: [`RouteInfo`], [`ParamInfo`],
//! [`PatternPiece`]. How they are written for JavaScript is `arbor-wasm`'s business.

use crate::ids::RouteId;

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
    /// The kind's name: `"param"`, `"optional"`, `"wildcard"`, `"regex-group"`.
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

/// How a parameter's value is constrained (ROUTING.md §2).
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
    /// The kind's name: `"none"`, `"shortcut"`, `"regex"`.
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

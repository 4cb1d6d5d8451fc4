//! What the tree stores of a route: the steps of each variant (static text and dynamic matchers), the
//! span layout of each leaf, and its shape for the shadowing check. `draft.rs` makes them from a
//! parsed pattern.

use crate::constraint::{anchored, Check, LazyRegex};

/// Layout entry of an absent optional parameter: its span is `(u32::MAX, u32::MAX)`.
pub(crate) const ABSENT: u8 = u8::MAX;

/// What identifies a dynamic node: routes whose steps have equal keys share the node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MatcherSpec {
    /// A parameter that runs to the end of its segment (the common case), with its constraint source.
    Segment { constraint: Option<String> },
    /// A segment tail holding several parameters or a parameter followed by text (`:a.:b`,
    /// `{id}x`): one anchored regex over the text up to the next `/`, one capture group per parameter
    /// (`groups` gives the group index of each, since constraints may contain groups of their own).
    /// Greedy groups give the earlier parameter the longest value that lets the rest match (ROUTING.md §3.1).
    Complex { regex: String, groups: Vec<u32> },
    /// Trailing `*`.
    Wildcard,
    /// `{^...$}`: the block text as written, matched against the rest of the path.
    Block { source: String },
}

impl MatcherSpec {
    /// Interning key; unique per distinct matching behaviour.
    pub(crate) fn key(&self) -> String {
        match self {
            MatcherSpec::Segment { constraint: None } => "s".to_owned(),
            MatcherSpec::Segment {
                constraint: Some(c),
            } => format!("s<{c}"),
            MatcherSpec::Complex { regex, .. } => format!("c{regex}"),
            MatcherSpec::Wildcard => "*".to_owned(),
            MatcherSpec::Block { source } => format!("b{source}"),
        }
    }

    /// The matcher of a spec read from a snapshot: its regexes are compiled on first use.
    pub(crate) fn deferred(&self) -> Matcher {
        match self {
            MatcherSpec::Segment { constraint: None } => Matcher::Segment(None),
            MatcherSpec::Segment {
                constraint: Some(c),
            } => Matcher::Segment(Some(Check::deferred(c))),
            MatcherSpec::Complex { regex, groups } => Matcher::Complex {
                regex: LazyRegex::deferred(regex.clone()),
                groups: groups.clone(),
            },
            MatcherSpec::Wildcard => Matcher::Wildcard,
            MatcherSpec::Block { source } => Matcher::Block {
                regex: LazyRegex::deferred(anchored(source)),
            },
        }
    }

    /// Order class for `Order::Specificity` (lower is tried first): constrained before unconstrained
    /// before wildcard; a segment regex ranks by its first parameter, just before the plain parameter
    /// of the same class because its text after the parameter is more specific.
    pub(crate) fn specificity_class(&self) -> u8 {
        match self {
            MatcherSpec::Complex { regex, .. } if !regex.starts_with("^([^/]+)") => 1,
            MatcherSpec::Segment {
                constraint: Some(_),
            } => 2,
            MatcherSpec::Complex { .. } => 3,
            MatcherSpec::Segment { constraint: None } => 4,
            MatcherSpec::Wildcard | MatcherSpec::Block { .. } => 5,
        }
    }
}

/// A compiled matcher, shared by every node with the same key.
#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    Segment(Option<Check>),
    Complex {
        regex: LazyRegex,
        groups: Vec<u32>,
    },
    Wildcard,
    /// Every capture group of the block's regex is a value.
    Block {
        regex: LazyRegex,
    },
}

/// One step along the tree.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    /// Static bytes, percent-encoded.
    Lit(Vec<u8>),
    Dyn(MatcherSpec, Matcher),
}

/// The shape of a variant for the containment check of ROUTING.md §3.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Atom {
    Byte(u8),
    Param(Option<String>),
    Wildcard,
    Block(String),
}

/// A route with an optional parameter has two variants (with and without it); others have one.
#[derive(Debug, Clone)]
pub(crate) struct Variant {
    pub(crate) steps: Vec<Step>,
    /// For each output span pair, the index of the value pushed along the tree path, or `ABSENT`.
    pub(crate) layout: Vec<u8>,
    pub(crate) atoms: Vec<Atom>,
}

impl Variant {
    /// Identity of the variant's steps: equal for two variants that reach the same leaf of the tree
    /// (same static text, same matchers; parameter names and spellings such as `int` / `\d+` aside).
    pub(crate) fn key(&self) -> Vec<u8> {
        // Written in place (no copy of each step's text): registration builds one per variant and method.
        let mut key = Vec::with_capacity(64);
        let mut part = |tag: u8, bytes: &[u8]| {
            key.push(tag);
            key.extend_from_slice(&u32::try_from(bytes.len()).unwrap_or(u32::MAX).to_le_bytes());
            key.extend_from_slice(bytes);
        };
        for step in &self.steps {
            match step {
                Step::Lit(text) => part(b'l', text),
                Step::Dyn(spec, _) => part(b'd', spec.key().as_bytes()),
            }
        }
        key
    }
}

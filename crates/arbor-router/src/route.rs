//! From parsed pieces to what the tree stores: the steps of each variant (static text and dynamic
//! matchers), the span layout of each leaf, the route's metadata, and its shape for the shadowing check.

use crate::constraint::{anchored, build_regex, Check, LazyRegex};
use crate::encode::push_encoded;
use crate::error::InsertError;
use crate::metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece};
use crate::pattern::{ParamSpec, Piece};
use crate::MAX_VALUES;

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
    /// Greedy groups give the earlier parameter the longest value that lets the rest match (SPEC 3.1).
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

/// The shape of a variant for the containment check of SPEC 3.2.
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

/// Everything `insert` needs from one pattern.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    pub(crate) template: String,
    pub(crate) params: Vec<ParamInfo>,
    pub(crate) captures: u32,
    pub(crate) is_static: bool,
    pub(crate) variants: Vec<Variant>,
    pub(crate) pieces: Vec<PatternPiece>,
}

impl Draft {
    /// Identity of the whole pattern for SPEC §3 rule 4: two routes with the same key for a shared
    /// method conflict. The full variant plus whether the last parameter is optional (`/f/:a?` and
    /// `/f/:b` share a variant but are different patterns: not a conflict, a shadow).
    pub(crate) fn shape_key(&self) -> Vec<u8> {
        let mut key = self.variants.last().map(Variant::key).unwrap_or_default();
        key.push(u8::from(self.variants.len() > 1));
        key
    }
}

fn constraint_error(pattern: &str, position: usize, message: String) -> InsertError {
    InsertError::InvalidConstraint {
        pattern: pattern.to_owned(),
        position,
        message,
    }
}

fn param_info(p: &ParamSpec) -> ParamInfo {
    ParamInfo {
        name: p.name.clone(),
        kind: if p.optional {
            ParamKind::Optional
        } else {
            ParamKind::Param
        },
        shortcut: p
            .constraint
            .as_ref()
            .and_then(|c| c.shortcut)
            .map(str::to_owned),
        regex: p.constraint.as_ref().map(|c| c.source.clone()),
        optional: p.optional,
    }
}

fn param_piece(p: &ParamSpec) -> PatternPiece {
    let constraint = match &p.constraint {
        None => ConstraintKind::None,
        Some(c) if c.shortcut.is_some() => ConstraintKind::Shortcut,
        Some(_) => ConstraintKind::Regex,
    };
    PatternPiece::Param {
        name: p.name.clone(),
        constraint,
        shortcut: p
            .constraint
            .as_ref()
            .and_then(|c| c.shortcut)
            .map(str::to_owned),
        regex: p.constraint.as_ref().map(|c| c.source.clone()),
        optional: p.optional,
    }
}

/// Compiles a parameter's constraint alone (validation, and the check of a segment parameter).
fn compile_constraint(pattern: &str, p: &ParamSpec) -> Result<Option<(Check, usize)>, InsertError> {
    match &p.constraint {
        None => Ok(None),
        Some(c) => Check::compile(&c.source)
            .map(Some)
            .map_err(|m| constraint_error(pattern, c.position, m)),
    }
}

fn encoded(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    push_encoded(&mut out, text.as_bytes());
    out
}

fn push_lit(steps: &mut Vec<Step>, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    if let Some(Step::Lit(last)) = steps.last_mut() {
        last.extend_from_slice(bytes);
    } else {
        steps.push(Step::Lit(bytes.to_vec()));
    }
}

/// `{name}` appended to a template (without `format!`'s machinery: one per parameter of every route).
fn push_braced(template: &mut String, name: &str) {
    template.push('{');
    template.push_str(name);
    template.push('}');
}

/// Builds the draft of a parsed pattern: compiles constraints (errors with positions), groups
/// segment tails into segment regexes, computes the layouts and the metadata.
pub(crate) fn draft(pattern: &str, pieces: &[Piece]) -> Result<Draft, InsertError> {
    let mut steps: Vec<Step> = Vec::with_capacity(pieces.len());
    let mut params: Vec<ParamInfo> = Vec::new();
    // Byte position of each parameter in the pattern, for `DuplicateParam`.
    let mut positions: Vec<usize> = Vec::new();
    let mut template = String::with_capacity(pattern.len() + 8);
    let mut captures = 0u32;
    let mut block_layout: Vec<u8> = Vec::new();
    let mut capture_layout: Vec<u8> = Vec::new();
    let mut slots = 0usize;
    // The public pieces; a regex block's entry is completed below once its capture names are known.
    let mut public: Vec<PatternPiece> = pieces
        .iter()
        .map(|piece| match piece {
            Piece::Lit(text) => PatternPiece::Text(text.clone()),
            Piece::Param(p) => param_piece(p),
            Piece::Wildcard { .. } => PatternPiece::Wildcard,
            Piece::Regex { source, .. } => PatternPiece::Regex {
                source: source.clone(),
                captures: Vec::new(),
            },
        })
        .collect();
    let mut i = 0;
    while let Some(piece) = pieces.get(i) {
        match piece {
            Piece::Lit(text) => {
                template.push_str(text);
                push_lit(&mut steps, &encoded(text));
                i += 1;
            }
            Piece::Param(p) => {
                let terminal = match pieces.get(i + 1) {
                    None => true,
                    Some(Piece::Lit(t)) => t.starts_with('/'),
                    Some(_) => false,
                };
                if terminal {
                    let check = compile_constraint(pattern, p)?.map(|(c, _)| c);
                    let spec = MatcherSpec::Segment {
                        constraint: p.constraint.as_ref().map(|c| c.source.clone()),
                    };
                    steps.push(Step::Dyn(spec, Matcher::Segment(check)));
                    push_braced(&mut template, &p.name);
                    params.push(param_info(p));
                    positions.push(p.position);
                    slots += 1;
                    i += 1;
                    continue;
                }
                // A segment tail: parameters and text up to the next `/`.
                let first_position = p.position;
                let mut regex = String::from("^");
                let mut groups = Vec::new();
                let mut next_group = 1u32;
                let mut rest: Option<Vec<u8>> = None;
                while let Some(piece) = pieces.get(i) {
                    match piece {
                        Piece::Param(q) => {
                            let groups_inside =
                                compile_constraint(pattern, q)?.map_or(0, |(_, n)| n);
                            match &q.constraint {
                                Some(c) => regex.push_str(&format!("((?:{}))", c.source)),
                                None => regex.push_str("([^/]+)"),
                            }
                            groups.push(next_group);
                            next_group += 1 + u32::try_from(groups_inside).unwrap_or(u32::MAX - 1);
                            push_braced(&mut template, &q.name);
                            params.push(param_info(q));
                            positions.push(q.position);
                            slots += 1;
                            i += 1;
                        }
                        Piece::Lit(text) => {
                            let (head, tail) = match text.find('/') {
                                Some(at) => (text.get(..at).unwrap_or_default(), text.get(at..)),
                                None => (text.as_str(), None),
                            };
                            let head_bytes = encoded(head);
                            regex.push_str(&regex::escape(&String::from_utf8_lossy(&head_bytes)));
                            template.push_str(text);
                            i += 1;
                            if let Some(tail) = tail {
                                rest = Some(encoded(tail));
                                break;
                            }
                        }
                        // Excluded by the parser: wildcards and blocks never share a segment with a parameter.
                        _ => break,
                    }
                }
                regex.push('$');
                let compiled = build_regex(&regex)
                    .map_err(|m| constraint_error(pattern, first_position, m))?;
                let spec = MatcherSpec::Complex {
                    regex,
                    groups: groups.clone(),
                };
                steps.push(Step::Dyn(
                    spec,
                    Matcher::Complex {
                        regex: LazyRegex::compiled(compiled),
                        groups,
                    },
                ));
                if let Some(rest) = rest {
                    push_lit(&mut steps, &rest);
                }
            }
            Piece::Wildcard { position } => {
                positions.push(*position);
                steps.push(Step::Dyn(MatcherSpec::Wildcard, Matcher::Wildcard));
                template.push_str("{*}");
                params.push(ParamInfo {
                    name: "*".to_owned(),
                    kind: ParamKind::Wildcard,
                    shortcut: None,
                    regex: None,
                    optional: false,
                });
                slots += 1;
                i += 1;
            }
            Piece::Regex { source, position } => {
                let regex = build_regex(&anchored(source))
                    .map_err(|m| constraint_error(pattern, *position, m))?;
                let count = regex.captures_len().saturating_sub(1);
                for (group, name) in regex.capture_names().enumerate().skip(1) {
                    let slot = u8::try_from(slots + group - 1).unwrap_or(ABSENT);
                    capture_layout.push(slot);
                    if let Some(name) = name {
                        params.push(ParamInfo {
                            name: name.to_owned(),
                            kind: ParamKind::RegexGroup,
                            shortcut: None,
                            regex: None,
                            optional: false,
                        });
                        positions.push(*position);
                        block_layout.push(slot);
                    }
                }
                captures = u32::try_from(count).unwrap_or(u32::MAX);
                if let Some(PatternPiece::Regex {
                    captures: names, ..
                }) = public.get_mut(i)
                {
                    *names = regex
                        .capture_names()
                        .skip(1)
                        .map(|n| n.map(str::to_owned))
                        .collect();
                }
                template.push('{');
                template.push_str(source);
                template.push('}');
                steps.push(Step::Dyn(
                    MatcherSpec::Block {
                        source: source.clone(),
                    },
                    Matcher::Block {
                        regex: LazyRegex::compiled(regex),
                    },
                ));
                i += 1;
            }
        }
    }

    let count = params.len() + captures as usize;
    if count > MAX_VALUES {
        return Err(InsertError::TooManyParams {
            pattern: pattern.to_owned(),
            count,
        });
    }
    for (k, p) in params.iter().enumerate() {
        if params.iter().take(k).any(|q| q.name == p.name) {
            return Err(InsertError::DuplicateParam {
                pattern: pattern.to_owned(),
                name: p.name.clone(),
                position: positions.get(k).copied().unwrap_or(0),
            });
        }
    }

    // Values pushed along the tree path come in textual order; the layout maps output pairs to them.
    let mut layout: Vec<u8> = (0..slots).filter_map(|s| u8::try_from(s).ok()).collect();
    layout.extend_from_slice(&block_layout);
    layout.extend_from_slice(&capture_layout);
    let atoms = atoms_of(pieces);
    let is_static = pieces.iter().all(|p| matches!(p, Piece::Lit(_)));
    let optional = matches!(pieces.last(), Some(Piece::Param(p)) if p.optional);

    let mut variants = Vec::with_capacity(2);
    if optional {
        let mut absent_steps = steps.clone();
        absent_steps.pop();
        strip_trailing_slash_step(&mut absent_steps);
        let mut absent_layout = layout.clone();
        if let Some(last) = absent_layout.last_mut() {
            *last = ABSENT;
        }
        let mut absent_atoms = atoms.clone();
        absent_atoms.pop();
        if absent_atoms.len() > 1 {
            absent_atoms.pop();
        }
        variants.push(Variant {
            steps: absent_steps,
            layout: absent_layout,
            atoms: absent_atoms,
        });
    }
    variants.push(Variant {
        steps,
        layout,
        atoms,
    });
    Ok(Draft {
        template,
        params,
        captures,
        is_static,
        variants,
        pieces: public,
    })
}

/// Removes the `/` before an absent optional parameter (`/search/:q/` → `/search/:q`), keeping the
/// root `/` (`/:lang?` without its parameter is `/`).
fn strip_trailing_slash_step(steps: &mut Vec<Step>) {
    let only = steps.len() == 1;
    if let Some(Step::Lit(last)) = steps.last_mut() {
        if only && last.as_slice() == b"/" {
            return;
        }
        last.pop();
        if last.is_empty() {
            steps.pop();
        }
    }
}

fn atoms_of(pieces: &[Piece]) -> Vec<Atom> {
    let mut atoms = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Lit(text) => atoms.extend(encoded(text).into_iter().map(Atom::Byte)),
            Piece::Param(p) => {
                atoms.push(Atom::Param(p.constraint.as_ref().map(|c| c.source.clone())))
            }
            Piece::Wildcard { .. } => atoms.push(Atom::Wildcard),
            Piece::Regex { source, .. } => atoms.push(Atom::Block(source.clone())),
        }
    }
    atoms
}

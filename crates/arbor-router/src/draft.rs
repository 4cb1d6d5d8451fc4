//! From parsed pieces to a route's [`Draft`]: constraints compiled (errors with positions), segment
//! tails grouped into segment regexes, the variants with their layouts, and the route's metadata.

use crate::constraint::{anchored, build_regex, Check, LazyRegex};
use crate::encode::push_encoded;
use crate::error::InsertError;
use crate::metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece};
use crate::pattern::{ParamSpec, Piece};
use crate::route::{Atom, Matcher, MatcherSpec, Step, Variant, ABSENT};
use crate::values::MAX_VALUES;

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
    /// Identity of the whole pattern for ROUTING.md §3 rule 4: two routes with the same key for a shared
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
    let mut d = Drafting::new(pattern, pieces);
    let mut i = 0;
    while let Some(piece) = pieces.get(i) {
        i = match piece {
            Piece::Lit(text) => {
                d.add_text(text);
                i + 1
            }
            Piece::Param(p) if ends_segment(pieces, i) => {
                d.add_segment_param(p)?;
                i + 1
            }
            Piece::Param(_) => d.add_segment_tail(pieces, i)?,
            Piece::Wildcard { position } => {
                d.add_wildcard(*position);
                i + 1
            }
            Piece::Regex { source, position } => {
                d.add_regex_block(i, source, *position)?;
                i + 1
            }
        };
    }
    d.check_values()?;
    Ok(d.finish(pieces))
}

/// Whether the parameter `pieces[i]` is its segment's last piece (the pattern ends, or a `/`
/// follows): then it is a segment parameter, else it starts a segment tail.
fn ends_segment(pieces: &[Piece], i: usize) -> bool {
    match pieces.get(i + 1) {
        None => true,
        Some(Piece::Lit(t)) => t.starts_with('/'),
        Some(_) => false,
    }
}

/// The public pieces of a pattern; a regex block's capture names are filled in once its regex is
/// compiled (`Drafting::add_regex_block`).
fn public_pieces(pieces: &[Piece]) -> Vec<PatternPiece> {
    pieces
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
        .collect()
}

/// A draft under way: what the pieces read so far add up to.
struct Drafting<'a> {
    pattern: &'a str,
    steps: Vec<Step>,
    params: Vec<ParamInfo>,
    /// Byte position of each parameter in the pattern, for `DuplicateParam`.
    positions: Vec<usize>,
    template: String,
    captures: u32,
    /// The slots of a regex block's named groups, and of all its groups.
    block_layout: Vec<u8>,
    capture_layout: Vec<u8>,
    /// Values pushed along the tree path so far.
    slots: usize,
    public: Vec<PatternPiece>,
}

impl<'a> Drafting<'a> {
    fn new(pattern: &'a str, pieces: &[Piece]) -> Self {
        Drafting {
            pattern,
            steps: Vec::with_capacity(pieces.len()),
            params: Vec::new(),
            positions: Vec::new(),
            template: String::with_capacity(pattern.len() + 8),
            captures: 0,
            block_layout: Vec::new(),
            capture_layout: Vec::new(),
            slots: 0,
            public: public_pieces(pieces),
        }
    }

    /// A parameter's metadata, position and value slot.
    fn add_param(&mut self, info: ParamInfo, position: usize) {
        self.params.push(info);
        self.positions.push(position);
        self.slots += 1;
    }

    fn add_text(&mut self, text: &str) {
        self.template.push_str(text);
        push_lit(&mut self.steps, &encoded(text));
    }

    /// A parameter that is the rest of its segment: one segment matcher.
    fn add_segment_param(&mut self, p: &ParamSpec) -> Result<(), InsertError> {
        let check = compile_constraint(self.pattern, p)?.map(|(c, _)| c);
        let spec = MatcherSpec::Segment {
            constraint: p.constraint.as_ref().map(|c| c.source.clone()),
        };
        self.steps.push(Step::Dyn(spec, Matcher::Segment(check)));
        push_braced(&mut self.template, &p.name);
        self.add_param(param_info(p), p.position);
        Ok(())
    }

    /// A segment tail from `pieces[start]`: its parameters and text up to the next `/`, as one
    /// anchored regex; the text from that `/` on follows as static text. Returns the index of the
    /// piece after it.
    fn add_segment_tail(&mut self, pieces: &[Piece], start: usize) -> Result<usize, InsertError> {
        let first_position = match pieces.get(start) {
            Some(Piece::Param(p)) => p.position,
            _ => 0,
        };
        let mut regex = String::from("^");
        let mut groups = Vec::new();
        let mut next_group = 1u32;
        let mut rest: Option<Vec<u8>> = None;
        let mut i = start;
        while let Some(piece) = pieces.get(i) {
            match piece {
                Piece::Param(q) => {
                    let groups_inside = compile_constraint(self.pattern, q)?.map_or(0, |(_, n)| n);
                    match &q.constraint {
                        Some(c) => regex.push_str(&format!("((?:{}))", c.source)),
                        None => regex.push_str("([^/]+)"),
                    }
                    groups.push(next_group);
                    next_group += 1 + u32::try_from(groups_inside).unwrap_or(u32::MAX - 1);
                    push_braced(&mut self.template, &q.name);
                    self.add_param(param_info(q), q.position);
                    i += 1;
                }
                Piece::Lit(text) => {
                    let (head, tail) = match text.find('/') {
                        Some(at) => (text.get(..at).unwrap_or_default(), text.get(at..)),
                        None => (text.as_str(), None),
                    };
                    let head_bytes = encoded(head);
                    regex.push_str(&regex::escape(&String::from_utf8_lossy(&head_bytes)));
                    self.template.push_str(text);
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
        let compiled =
            build_regex(&regex).map_err(|m| constraint_error(self.pattern, first_position, m))?;
        let spec = MatcherSpec::Complex {
            regex,
            groups: groups.clone(),
        };
        self.steps.push(Step::Dyn(
            spec,
            Matcher::Complex {
                regex: LazyRegex::compiled(compiled),
                groups,
            },
        ));
        if let Some(rest) = rest {
            push_lit(&mut self.steps, &rest);
        }
        Ok(i)
    }

    fn add_wildcard(&mut self, position: usize) {
        self.steps
            .push(Step::Dyn(MatcherSpec::Wildcard, Matcher::Wildcard));
        self.template.push_str("{*}");
        self.add_param(
            ParamInfo {
                name: "*".to_owned(),
                kind: ParamKind::Wildcard,
                shortcut: None,
                regex: None,
                optional: false,
            },
            position,
        );
    }

    /// A regex block (`pieces[index]`): every capture group is a value (after the parameters'
    /// values), its named groups are parameters.
    fn add_regex_block(
        &mut self,
        index: usize,
        source: &str,
        position: usize,
    ) -> Result<(), InsertError> {
        let regex = build_regex(&anchored(source))
            .map_err(|m| constraint_error(self.pattern, position, m))?;
        let count = regex.captures_len().saturating_sub(1);
        for (group, name) in regex.capture_names().enumerate().skip(1) {
            let slot = u8::try_from(self.slots + group - 1).unwrap_or(ABSENT);
            self.capture_layout.push(slot);
            if let Some(name) = name {
                self.params.push(ParamInfo {
                    name: name.to_owned(),
                    kind: ParamKind::RegexGroup,
                    shortcut: None,
                    regex: None,
                    optional: false,
                });
                self.positions.push(position);
                self.block_layout.push(slot);
            }
        }
        self.captures = u32::try_from(count).unwrap_or(u32::MAX);
        if let Some(PatternPiece::Regex {
            captures: names, ..
        }) = self.public.get_mut(index)
        {
            *names = regex
                .capture_names()
                .skip(1)
                .map(|n| n.map(str::to_owned))
                .collect();
        }
        self.template.push('{');
        self.template.push_str(source);
        self.template.push('}');
        self.steps.push(Step::Dyn(
            MatcherSpec::Block {
                source: source.to_owned(),
            },
            Matcher::Block {
                regex: LazyRegex::compiled(regex),
            },
        ));
        Ok(())
    }

    /// Refuses a route with more values than a lookup holds, or a parameter name used twice.
    fn check_values(&self) -> Result<(), InsertError> {
        let count = self.params.len() + self.captures as usize;
        if count > MAX_VALUES {
            return Err(InsertError::TooManyParams {
                pattern: self.pattern.to_owned(),
                count,
            });
        }
        for (k, p) in self.params.iter().enumerate() {
            if self.params.iter().take(k).any(|q| q.name == p.name) {
                return Err(InsertError::DuplicateParam {
                    pattern: self.pattern.to_owned(),
                    name: p.name.clone(),
                    position: self.positions.get(k).copied().unwrap_or(0),
                });
            }
        }
        Ok(())
    }

    /// The draft: its variants (two when the last parameter is optional) and its metadata.
    fn finish(self, pieces: &[Piece]) -> Draft {
        // Values pushed along the tree path come in textual order; the layout maps output pairs to
        // them.
        let mut layout: Vec<u8> = (0..self.slots)
            .filter_map(|s| u8::try_from(s).ok())
            .collect();
        layout.extend_from_slice(&self.block_layout);
        layout.extend_from_slice(&self.capture_layout);
        let whole = Variant {
            steps: self.steps,
            layout,
            atoms: atoms_of(pieces),
        };
        let optional = matches!(pieces.last(), Some(Piece::Param(p)) if p.optional);
        let variants = if optional {
            vec![without_optional(&whole), whole]
        } else {
            vec![whole]
        };
        Draft {
            template: self.template,
            params: self.params,
            captures: self.captures,
            is_static: pieces.iter().all(|p| matches!(p, Piece::Lit(_))),
            variants,
            pieces: self.public,
        }
    }
}

/// The variant of a route whose last parameter is optional, without it: its step, the `/` before
/// it and its atoms removed, its value absent.
fn without_optional(whole: &Variant) -> Variant {
    let mut steps = whole.steps.clone();
    steps.pop();
    strip_trailing_slash_step(&mut steps);
    let mut layout = whole.layout.clone();
    if let Some(last) = layout.last_mut() {
        *last = ABSENT;
    }
    let mut atoms = whole.atoms.clone();
    atoms.pop();
    if atoms.len() > 1 {
        atoms.pop();
    }
    Variant {
        steps,
        layout,
        atoms,
    }
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

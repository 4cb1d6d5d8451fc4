//! The pattern parser (ROUTING.md §2): turns `/files/:name<[\w-]+>.:ext<jpg|png>` into pieces. It checks
//! syntax only; constraints are compiled by the route builder (`route.rs`), which reports their errors
//! at the positions recorded here.

use crate::constraint;
use crate::error::InsertError;

/// Longest pattern accepted. The tree's depth is bounded by pattern length and the lookup recurses
/// along it, so a bound keeps the recursion far from the (1 MiB by default) WebAssembly stack.
pub(crate) const MAX_PATTERN_LEN: usize = 2048;

/// One piece of a pattern, in textual order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Static text as written (`::` already unescaped to `:`); encoded when the tree is built.
    Lit(String),
    Param(ParamSpec),
    /// Trailing `*`.
    Wildcard {
        position: usize,
    },
    /// `{^...$}`: `source` is the text between the braces, as written.
    Regex {
        source: String,
        position: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParamSpec {
    pub(crate) name: String,
    pub(crate) constraint: Option<ConstraintSpec>,
    pub(crate) optional: bool,
    /// Byte offset of the `:` or `{`.
    pub(crate) position: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConstraintSpec {
    /// The shortcut name when one was used (`int`).
    pub(crate) shortcut: Option<&'static str>,
    /// Normalised regex source (shortcut replaced, outer anchors dropped).
    pub(crate) source: String,
    /// Byte offset of the first character inside `<...>`.
    pub(crate) position: usize,
}

fn invalid(pattern: &str, position: usize, reason: &str) -> InsertError {
    InsertError::InvalidPattern {
        pattern: pattern.to_owned(),
        position,
        reason: reason.to_owned(),
    }
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Finds the byte index of `close` (`>` or `}`) that ends a constraint or regex block starting at
/// `start`, skipping escapes and anything nested in `()`, `{}` or a character class, so that
/// `(?P<x>..)`, `\d{2}` and `[>]` do not end it early. `Err(open)`: no end, and whether a class or
/// group was still open at the end of the pattern (then the regex itself is likely the mistake).
fn scan_regex(bytes: &[u8], start: usize, close: u8) -> Result<usize, bool> {
    let mut depth = 0usize;
    let mut class = 0usize;
    let mut i = start;
    while let Some(&b) = bytes.get(i) {
        if b == b'\\' {
            i += 2;
            continue;
        }
        if class > 0 {
            match b {
                b'[' => class += 1,
                b']' => class -= 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'[' => {
                class = 1;
                i += 1;
                // A `]` right after `[` or `[^` is a literal member of the class.
                if bytes.get(i) == Some(&b'^') {
                    i += 1;
                }
                if bytes.get(i) == Some(&b']') {
                    i += 1;
                }
                continue;
            }
            b'(' | b'{' => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            _ if b == close && depth == 0 => return Ok(i),
            _ => {}
        }
        i += 1;
    }
    Err(depth > 0 || class > 0)
}

/// When a constraint or block has no balanced end but `pattern[start..end]` (ending at `close`) is a
/// regex that does not compile, the regex crate's message at `position`: `<[>` is an unclosed
/// class, `{^(a$}` an unclosed group, not an unclosed `<` or block.
fn unbalanced(
    pattern: &str,
    start: usize,
    end: usize,
    position: usize,
    close: u8,
) -> Option<InsertError> {
    if pattern.as_bytes().get(end) != Some(&close) {
        return None;
    }
    let source = pattern.get(start..end)?;
    let message = constraint::build_regex(&format!("^(?:{source})$")).err()?;
    Some(InsertError::InvalidConstraint {
        pattern: pattern.to_owned(),
        position,
        message,
    })
}

/// Parses a pattern into pieces. Adjacent static text is merged into one `Lit`.
pub(crate) fn parse(pattern: &str) -> Result<Vec<Piece>, InsertError> {
    let bytes = pattern.as_bytes();
    if bytes.is_empty() {
        return Err(invalid(pattern, 0, "empty pattern"));
    }
    if bytes.len() > MAX_PATTERN_LEN {
        return Err(invalid(
            pattern,
            MAX_PATTERN_LEN,
            "pattern longer than 2048 bytes",
        ));
    }
    if !pattern.starts_with('/') && !pattern.starts_with("{^") {
        return Err(invalid(
            pattern,
            0,
            "a pattern must start with '/' (or be a `{^regex$}` block)",
        ));
    }
    let mut pieces: Vec<Piece> = Vec::new();
    let mut lit: Vec<u8> = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b':' if bytes.get(i + 1) == Some(&b':') => {
                // `::` is a literal colon (as in find-my-way): `/v1/{name}::publish`.
                lit.push(b':');
                i += 2;
            }
            b':' => {
                let (param, next) = parse_param(pattern, i, i + 1, false)?;
                flush(&mut pieces, &mut lit);
                pieces.push(Piece::Param(param));
                i = next;
            }
            b'{' if bytes.get(i + 1) == Some(&b'^') => {
                let Ok(end) = scan_regex(bytes, i + 1, b'}') else {
                    // A block must end the pattern, so a final `}` is its likely end: when the text
                    // before it is a broken regex (`{^(a$}`), that is the mistake to report.
                    let last = bytes.len().saturating_sub(1);
                    return Err(unbalanced(pattern, i + 1, last, i, b'}')
                        .unwrap_or_else(|| invalid(pattern, i, "unclosed regex block '{^'")));
                };
                let source = pattern.get(i + 1..end).unwrap_or_default().to_owned();
                flush(&mut pieces, &mut lit);
                pieces.push(Piece::Regex {
                    source,
                    position: i,
                });
                i = end + 1;
                if i != bytes.len() {
                    return Err(invalid(
                        pattern,
                        i,
                        "a regex block must end the pattern (it matches the rest of the path)",
                    ));
                }
            }
            b'{' => {
                let (param, next) = parse_param(pattern, i, i + 1, true)?;
                flush(&mut pieces, &mut lit);
                pieces.push(Piece::Param(param));
                i = next;
            }
            b'}' => return Err(invalid(pattern, i, "unmatched '}'")),
            b'*' => {
                if i + 1 != bytes.len() {
                    return Err(invalid(
                        pattern,
                        i,
                        "'*' is only allowed as the last character (wildcard tail)",
                    ));
                }
                flush(&mut pieces, &mut lit);
                pieces.push(Piece::Wildcard { position: i });
                i += 1;
            }
            b'?' => {
                return Err(invalid(
                    pattern,
                    i,
                    "'?' is only allowed right after a parameter name (`:name?`)",
                ))
            }
            b'#' => return Err(invalid(pattern, i, "'#' cannot appear in a path")),
            _ => {
                lit.push(b);
                i += 1;
            }
        }
    }
    flush(&mut pieces, &mut lit);
    validate(pattern, &pieces)?;
    Ok(pieces)
}

fn flush(pieces: &mut Vec<Piece>, lit: &mut Vec<u8>) {
    if !lit.is_empty() {
        // Static runs are cut at ASCII bytes only, so they are whole UTF-8 sequences.
        let text = String::from_utf8_lossy(lit).into_owned();
        lit.clear();
        pieces.push(Piece::Lit(text));
    }
}

/// Parses a parameter starting at `start` (the `:` or `{`), name at `name_start`. Accepts
/// `:name`, `:name?`, `:name<c>`, `:name<c>?`, `:name?<c>` and the same inside braces.
fn parse_param(
    pattern: &str,
    start: usize,
    name_start: usize,
    braced: bool,
) -> Result<(ParamSpec, usize), InsertError> {
    let bytes = pattern.as_bytes();
    let mut i = name_start;
    while bytes.get(i).copied().is_some_and(is_name_byte) {
        i += 1;
    }
    if i == name_start {
        let reason = if braced && bytes.get(i).is_none() {
            "unclosed '{'"
        } else {
            "empty parameter name (names are letters, digits and '_')"
        };
        return Err(invalid(pattern, start, reason));
    }
    let name = pattern.get(name_start..i).unwrap_or_default().to_owned();
    let mut constraint = None;
    let mut optional = false;
    loop {
        match bytes.get(i) {
            Some(b'<') if constraint.is_none() => {
                let end = match scan_regex(bytes, i + 1, b'>') {
                    Ok(end) => end,
                    Err(open) => {
                        // `<[>`: the scan read `>` as a member of a class left open. With the first
                        // `>` as the end, the regex crate names the real mistake.
                        let first = bytes
                            .iter()
                            .skip(i + 1)
                            .position(|&b| b == b'>')
                            .map(|k| k + i + 1)
                            .filter(|_| open);
                        return Err(first
                            .and_then(|gt| unbalanced(pattern, i + 1, gt, i + 1, b'>'))
                            .unwrap_or_else(|| {
                                invalid(pattern, i, "unclosed '<' of a constraint")
                            }));
                    }
                };
                let written = pattern.get(i + 1..end).unwrap_or_default();
                if written.is_empty() {
                    return Err(InsertError::InvalidConstraint {
                        pattern: pattern.to_owned(),
                        position: i + 1,
                        message: "empty constraint".to_owned(),
                    });
                }
                if let Some(message) = constraint::unknown_shortcut(written) {
                    return Err(InsertError::InvalidConstraint {
                        pattern: pattern.to_owned(),
                        position: i + 1,
                        message,
                    });
                }
                let (shortcut, source) = constraint::normalise(written);
                constraint = Some(ConstraintSpec {
                    shortcut,
                    source,
                    position: i + 1,
                });
                i = end + 1;
            }
            Some(b'?') if !optional => {
                optional = true;
                i += 1;
            }
            _ => break,
        }
    }
    if braced {
        if bytes.get(i) != Some(&b'}') {
            let reason = if bytes.get(i).is_none() {
                "unclosed '{'"
            } else {
                "unexpected character in '{...}' parameter (expected '}')"
            };
            let at = if bytes.get(i).is_none() { start } else { i };
            return Err(invalid(pattern, at, reason));
        }
        i += 1;
    }
    Ok((
        ParamSpec {
            name,
            constraint,
            optional,
            position: start,
        },
        i,
    ))
}

/// Structural rules that need the whole piece list.
fn validate(pattern: &str, pieces: &[Piece]) -> Result<(), InsertError> {
    let last = pieces.len().saturating_sub(1);
    for (index, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Param(p) if p.optional => {
                let after_slash = index
                    .checked_sub(1)
                    .and_then(|k| pieces.get(k))
                    .is_some_and(|prev| matches!(prev, Piece::Lit(l) if l.ends_with('/')));
                if index != last || !after_slash {
                    return Err(InsertError::OptionalNotLast {
                        pattern: pattern.to_owned(),
                        position: p.position,
                    });
                }
            }
            Piece::Wildcard { position } | Piece::Regex { position, .. }
                if segment_has_param_before(pieces, index) =>
            {
                return Err(invalid(
                    pattern,
                    *position,
                    "a wildcard or regex block cannot share a path segment with a parameter",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a parameter precedes `index` within the same path segment.
fn segment_has_param_before(pieces: &[Piece], index: usize) -> bool {
    for piece in pieces.get(..index).unwrap_or_default().iter().rev() {
        match piece {
            Piece::Lit(l) if l.contains('/') => return false,
            Piece::Param(_) => return true,
            _ => {}
        }
    }
    false
}

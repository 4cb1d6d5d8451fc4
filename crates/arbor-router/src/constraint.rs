//! Parameter constraints: the shortcuts of ROUTING.md §2, user regexes (the `regex` crate, linear time), and
//! hand-written checks for the shortcuts so the common constraints cost a byte loop, not a regex call.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

/// Compiled program size limit: large enough for any sane route, small enough that a hostile or
/// accidental `\w{1000}{1000}` is refused at registration.
const SIZE_LIMIT: usize = 1 << 20;
/// Nesting limit of the regex parser (the default, 250, is more than a route ever needs).
const NEST_LIMIT: u32 = 64;

/// The constraint shortcuts of ROUTING.md §2 and the regex each stands for.
pub(crate) const SHORTCUTS: &[(&str, &str)] = &[
    ("int", r"\d+"),
    ("slug", "[a-z0-9-]+"),
    ("alpha", "[a-zA-Z]+"),
    ("alnum", "[a-zA-Z0-9]+"),
    (
        "uuid",
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ),
    ("date", r"\d{4}-\d{2}-\d{2}"),
    ("year", r"\d{4}"),
    ("month", r"\d{2}"),
    ("day", r"\d{2}"),
];

/// The regex of a shortcut name, or `None` when the text is not a shortcut.
pub(crate) fn shortcut(name: &str) -> Option<(&'static str, &'static str)> {
    SHORTCUTS.iter().copied().find(|(n, _)| *n == name)
}

/// A constraint written as a bare word that is no shortcut (`integer`) is almost surely a misspelt
/// shortcut: as a regex it would match only that word. Returns the message listing the shortcuts and
/// suggesting the nearest; `None` for anything else (a shortcut, or a regex such as `(?:integer)`).
pub(crate) fn unknown_shortcut(written: &str) -> Option<String> {
    let bare = !written.is_empty()
        && written
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && written.bytes().any(|b| b.is_ascii_alphabetic());
    if !bare || shortcut(written).is_some() {
        return None;
    }
    let names: Vec<&str> = SHORTCUTS.iter().map(|(n, _)| *n).collect();
    let nearest = names
        .iter()
        .map(|n| (nearness(written, n), *n))
        .min_by_key(|(d, _)| *d)
        .filter(|(d, n)| *d <= n.len().max(written.len()) / 2)
        .map(|(_, n)| format!("did you mean {n}? "))
        .unwrap_or_default();
    Some(format!(
        "unknown constraint shortcut '{written}': {nearest}the shortcuts are {}; write a regex such as (?:{written}) to match the word itself",
        names.join(", ")
    ))
}

/// Edit distance, with a prefix counting as near (`integer` → `int`).
fn nearness(a: &str, b: &str) -> usize {
    if a.starts_with(b) || b.starts_with(a) {
        return 0;
    }
    let a = a.to_ascii_lowercase().into_bytes();
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = i;
        let mut first = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(usize::MAX);
            let value = (diagonal + usize::from(ca != cb))
                .min(first + 1)
                .min(above + 1);
            diagonal = above;
            if let Some(slot) = row.get_mut(j + 1) {
                *slot = value;
            }
            first = value;
        }
        if let Some(slot) = row.get_mut(0) {
            *slot = i + 1;
        }
    }
    row.last().copied().unwrap_or(usize::MAX)
}

/// Builds a byte regex with the crate-wide limits. Paths are ASCII when matched (non-ASCII is
/// percent-encoded), so Unicode classes such as `\d` and `\w` behave as their ASCII subsets.
pub(crate) fn build_regex(source: &str) -> Result<Regex, String> {
    RegexBuilder::new(source)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
        .map_err(|e| e.to_string())
}

/// A regex anchored on both ends of the text it is matched against (a constraint's value, a block's
/// rest of the path).
pub(crate) fn anchored(source: &str) -> String {
    format!("^(?:{source})$")
}

/// A regex that may be compiled on first use. Registration compiles at once, because compiling is what
/// validates the pattern; a snapshot's load defers it, because the patterns were validated when the
/// snapshot was written, and in a fresh process the first compile is costly (V8 compiles the regex
/// crate's code on its first run). A source that fails to compile (only a forged snapshot can hold one)
/// matches nothing.
#[derive(Debug, Clone)]
pub(crate) struct LazyRegex {
    /// What to compile on first use; empty once there is nothing left to compile.
    source: String,
    compiled: OnceLock<Option<Regex>>,
}

impl LazyRegex {
    /// A regex registration compiled already.
    pub(crate) fn compiled(regex: Regex) -> Self {
        LazyRegex {
            source: String::new(),
            compiled: OnceLock::from(Some(regex)),
        }
    }

    /// A regex compiled when first asked for (snapshot load).
    pub(crate) fn deferred(source: String) -> Self {
        LazyRegex {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The compiled regex; `None` if the source does not compile.
    #[inline]
    pub(crate) fn get(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| build_regex(&self.source).ok())
            .as_ref()
    }
}

/// How a constrained parameter value is checked. The shortcuts have hand-written checks (same
/// language as their regex on ASCII input); anything else runs the anchored regex.
#[derive(Debug, Clone)]
pub(crate) enum Check {
    Digits,
    DigitsExactly(usize),
    Slug,
    Alpha,
    Alnum,
    Uuid,
    Date,
    Regex(LazyRegex),
}

impl Check {
    /// Compiles a normalised constraint source (shortcuts already replaced by their regex). Returns
    /// the check and the number of capture groups inside the constraint (needed when the constraint
    /// is embedded in a multi-parameter segment regex).
    pub(crate) fn compile(source: &str) -> Result<(Check, usize), String> {
        if let Some(check) = Check::builtin(source) {
            return Ok((check, 0));
        }
        let regex = build_regex(&anchored(source))?;
        let groups = regex.captures_len().saturating_sub(1);
        Ok((Check::Regex(LazyRegex::compiled(regex)), groups))
    }

    /// The check of a constraint from a snapshot: a shortcut's hand-written check, or a regex compiled
    /// on first use.
    pub(crate) fn deferred(source: &str) -> Check {
        Check::builtin(source)
            .unwrap_or_else(|| Check::Regex(LazyRegex::deferred(anchored(source))))
    }

    /// The hand-written check of a shortcut's regex, if the source is one.
    fn builtin(source: &str) -> Option<Check> {
        match source {
            r"\d+" | "[0-9]+" => Some(Check::Digits),
            r"\d{4}" | "[0-9]{4}" => Some(Check::DigitsExactly(4)),
            r"\d{2}" | "[0-9]{2}" => Some(Check::DigitsExactly(2)),
            "[a-z0-9-]+" => Some(Check::Slug),
            "[a-zA-Z]+" => Some(Check::Alpha),
            "[a-zA-Z0-9]+" => Some(Check::Alnum),
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" => Some(Check::Uuid),
            r"\d{4}-\d{2}-\d{2}" => Some(Check::Date),
            _ => None,
        }
    }

    /// Whether the whole value satisfies the constraint.
    #[inline]
    pub(crate) fn matches(&self, value: &[u8]) -> bool {
        match self {
            Check::Digits => !value.is_empty() && value.iter().all(u8::is_ascii_digit),
            Check::DigitsExactly(n) => value.len() == *n && value.iter().all(u8::is_ascii_digit),
            Check::Slug => {
                !value.is_empty()
                    && value
                        .iter()
                        .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            }
            Check::Alpha => !value.is_empty() && value.iter().all(u8::is_ascii_alphabetic),
            Check::Alnum => !value.is_empty() && value.iter().all(u8::is_ascii_alphanumeric),
            Check::Uuid => {
                value.len() == 36
                    && value.iter().enumerate().all(|(i, &b)| match i {
                        8 | 13 | 18 | 23 => b == b'-',
                        _ => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
                    })
            }
            Check::Date => {
                value.len() == 10
                    && value.iter().enumerate().all(|(i, &b)| match i {
                        4 | 7 => b == b'-',
                        _ => b.is_ascii_digit(),
                    })
            }
            Check::Regex(regex) => regex.get().is_some_and(|r| r.is_match(value)),
        }
    }
}

/// Normalises a constraint as written: a shortcut name becomes its regex; a leading `^` and a trailing
/// unescaped `$` are dropped (constraints are implicitly anchored, and the anchors would be wrong once
/// the constraint is embedded in a multi-parameter segment regex). Returns (shortcut name, source).
pub(crate) fn normalise(written: &str) -> (Option<&'static str>, String) {
    if let Some((name, regex)) = shortcut(written) {
        return (Some(name), regex.to_owned());
    }
    let mut source = written.strip_prefix('^').unwrap_or(written);
    if let Some(stripped) = source.strip_suffix('$') {
        let backslashes = stripped.bytes().rev().take_while(|&b| b == b'\\').count();
        if backslashes % 2 == 0 {
            source = stripped;
        }
    }
    (None, source.to_owned())
}

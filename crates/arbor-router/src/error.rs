//! Errors of registration ([`InsertError`]), of snapshot loading ([`SnapshotError`]) and of parameter
//! decoding ([`MalformedEscape`]). Errors are data: every variant carries what a caller needs to point at
//! the mistake, and `code()` gives a stable name for it.

use std::fmt;

use crate::ids::RouteId;

/// Why [`Router::insert`](crate::Router::insert) or [`Router::set_name`](crate::Router::set_name)
/// refused a route. Positions are byte offsets into the pattern as written.
///
/// ```
/// use arbor_router::{InsertError, Router, RouterOptions};
/// let mut router = Router::new(RouterOptions::default());
/// router.insert(&["GET"], "/users/:id").unwrap();
/// let err = router.insert(&["GET"], "/users/:id").unwrap_err();
/// assert_eq!(err.code(), "ROUTE_CONFLICT");
/// assert!(matches!(err, InsertError::Conflict { with: 0, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InsertError {
    /// The same method and the same pattern shape are already registered (`/users/:id` twice, or
    /// `/users/:id` then `/users/{name}`: parameter names do not change what a route matches).
    Conflict {
        /// The pattern being inserted.
        pattern: String,
        /// The first method both routes share.
        method: String,
        /// The route already registered.
        with: RouteId,
        /// Its pattern as registered.
        with_pattern: String,
    },
    /// Malformed syntax: `/a/:`, `/a/{id`, `/a/*/b`, `/a?b`, a pattern not starting with `/`.
    InvalidPattern {
        /// The pattern as written.
        pattern: String,
        /// Byte offset of the mistake.
        position: usize,
        /// What is wrong, in words.
        reason: String,
    },
    /// A constraint or regex block that does not compile or exceeds the size limit:
    /// `/a/:id<[0-9>`, `/a/{^(x$}`; or a bare word that is no shortcut (`/a/:id<integer>`: the
    /// message lists the shortcuts and suggests the nearest).
    InvalidConstraint {
        /// The pattern as written.
        pattern: String,
        /// Byte offset where the constraint or block starts.
        position: usize,
        /// The regex compiler's message.
        message: String,
    },
    /// An optional parameter that is not the whole last segment: `/a/:b?/c`, `/a-:b?`.
    OptionalNotLast {
        /// The pattern as written.
        pattern: String,
        /// Byte offset of the optional parameter.
        position: usize,
    },
    /// Two parameters with the same name in one route: `/:id/:id`, or a named group of a regex
    /// block reusing a parameter's name (`/y/:year/{^(?P<year>\d+)$}`).
    DuplicateParam {
        /// The pattern as written.
        pattern: String,
        /// The repeated name.
        name: String,
        /// Byte offset of the second occurrence: its `:` or `{`, or the `{` of the regex block
        /// whose named group repeats the name.
        position: usize,
    },
    /// More than [`MAX_VALUES`](crate::MAX_VALUES) parameters plus regex capture groups in one route.
    TooManyParams {
        /// The pattern as written.
        pattern: String,
        /// Parameters plus capture groups counted.
        count: usize,
    },
    /// `set_name` with a name another route already has.
    DuplicateName {
        /// The name.
        name: String,
        /// The route that has it.
        with: RouteId,
    },
    /// `set_name` on a route id that does not exist.
    UnknownRoute {
        /// The id given.
        id: RouteId,
    },
}

impl InsertError {
    /// The stable code used across the wasm boundary, e.g. `"ROUTE_CONFLICT"`.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Conflict { .. } => "ROUTE_CONFLICT",
            Self::InvalidPattern { .. } => "INVALID_PATTERN",
            Self::InvalidConstraint { .. } => "INVALID_CONSTRAINT",
            Self::OptionalNotLast { .. } => "INVALID_OPTIONAL",
            Self::DuplicateParam { .. } => "DUPLICATE_PARAM",
            Self::TooManyParams { .. } => "TOO_MANY_PARAMS",
            Self::DuplicateName { .. } => "DUPLICATE_NAME",
            Self::UnknownRoute { .. } => "UNKNOWN_ROUTE",
        }
    }

    /// The pattern concerned, when there is one.
    pub fn pattern(&self) -> Option<&str> {
        match self {
            Self::Conflict { pattern, .. }
            | Self::InvalidPattern { pattern, .. }
            | Self::InvalidConstraint { pattern, .. }
            | Self::OptionalNotLast { pattern, .. }
            | Self::DuplicateParam { pattern, .. }
            | Self::TooManyParams { pattern, .. } => Some(pattern),
            Self::DuplicateName { .. } | Self::UnknownRoute { .. } => None,
        }
    }

    /// The byte position in the pattern, when the error has one.
    pub fn position(&self) -> Option<usize> {
        match self {
            Self::InvalidPattern { position, .. }
            | Self::InvalidConstraint { position, .. }
            | Self::OptionalNotLast { position, .. }
            | Self::DuplicateParam { position, .. } => Some(*position),
            _ => None,
        }
    }
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Conflict { pattern, method, with, with_pattern } => write!(
                f,
                "route conflict: {method} {pattern:?} is already registered as route {with} ({method} {with_pattern:?})"
            ),
            Self::InvalidPattern { pattern, position, reason } => {
                write!(f, "invalid pattern {pattern:?} at byte {position}: {reason}")
            }
            Self::InvalidConstraint { pattern, position, message } => {
                write!(f, "invalid constraint in pattern {pattern:?} at byte {position}: {message}")
            }
            Self::OptionalNotLast { pattern, position } => write!(
                f,
                "invalid optional parameter in pattern {pattern:?} at byte {position}: an optional parameter must be the whole last segment (`/search/:q/:page?`)"
            ),
            Self::DuplicateParam { pattern, name, position } => write!(
                f,
                "duplicate parameter name {name:?} in pattern {pattern:?} at byte {position}"
            ),
            Self::TooManyParams { pattern, count } => write!(
                f,
                "too many parameters in pattern {pattern:?}: {count} (parameters plus capture groups), the limit is {}",
                crate::values::MAX_VALUES
            ),
            Self::DuplicateName { name, with } => {
                write!(f, "duplicate route name {name:?}: route {with} already has it")
            }
            Self::UnknownRoute { id } => write!(f, "unknown route id {id}"),
        }
    }
}

impl std::error::Error for InsertError {}

/// Why [`Router::deserialize`](crate::Router::deserialize) refused some bytes. Never a panic.
///
/// ```
/// use arbor_router::{Router, SnapshotError};
/// assert_eq!(Router::deserialize(b"nope").unwrap_err(), SnapshotError::BadMagic);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The bytes do not start with the snapshot magic: not a snapshot.
    BadMagic,
    /// A snapshot of a format version this build does not read.
    UnsupportedVersion {
        /// The version found.
        found: u16,
        /// The version this build writes and reads.
        supported: u16,
    },
    /// The bytes end before the declared length.
    Truncated,
    /// The checksum does not match the payload.
    Checksum,
    /// The payload is inconsistent (an index out of range, an invalid regex, trailing bytes...).
    Corrupt {
        /// What is wrong.
        reason: String,
    },
}

impl SnapshotError {
    /// `"SNAPSHOT_VERSION"` for a version mismatch, `"SNAPSHOT_INVALID"` otherwise.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnsupportedVersion { .. } => "SNAPSHOT_VERSION",
            _ => "SNAPSHOT_INVALID",
        }
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadMagic => write!(f, "invalid route snapshot: bad magic bytes"),
            Self::UnsupportedVersion { found, supported } => write!(
                f,
                "route snapshot version {found} is not supported (this build reads version {supported})"
            ),
            Self::Truncated => write!(f, "invalid route snapshot: truncated"),
            Self::Checksum => write!(f, "invalid route snapshot: checksum mismatch"),
            Self::Corrupt { reason } => write!(f, "invalid route snapshot: {reason}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// A parameter value with a malformed percent escape (`%zz`, `%E0%A4%A`) or escapes that do not
/// decode to UTF-8. The framework answers 400.
///
/// ```
/// use arbor_router::decode_param;
/// let err = decode_param("a%zz").unwrap_err();
/// assert_eq!(err.position, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MalformedEscape {
    /// Byte offset of the offending `%` (or of the first byte of an invalid UTF-8 sequence).
    pub position: usize,
}

impl fmt::Display for MalformedEscape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed percent escape at byte {}", self.position)
    }
}

impl std::error::Error for MalformedEscape {}

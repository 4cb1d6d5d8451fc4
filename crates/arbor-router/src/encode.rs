//! Percent-encoding of non-ASCII text (patterns and `find` paths) and percent-decoding of parameter
//! values. Matching is on the raw, encoded path (ROUTING.md §3 rule 6): decoding happens after the match, per value.

use std::borrow::Cow;

use crate::error::MalformedEscape;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `bytes` to `out`, writing every byte >= 0x80 as `%XX` (uppercase hex, as clients send it).
pub(crate) fn push_encoded(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        if b < 0x80 {
            out.push(b);
        } else {
            out.push(b'%');
            out.extend(HEX.get(usize::from(b >> 4)));
            out.extend(HEX.get(usize::from(b & 15)));
        }
    }
}

/// The text with its non-ASCII characters percent-encoded; borrowed when it is ASCII already.
pub(crate) fn encode_non_ascii(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() * 3);
    push_encoded(&mut out, text.as_bytes());
    // Only ASCII bytes were written, so this cannot fail; fall back to lossy to stay panic-free.
    Cow::Owned(String::from_utf8(out).unwrap_or_default())
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Percent-decodes a raw parameter value: `%20` gives a space, `%2F` gives `/` (inside the value; it
/// never split segments, matching was on the raw path). `+` stays `+` (this is a path, not a form).
/// A `%` not followed by two hex digits, or escapes that do not form UTF-8, is an error.
///
/// ```
/// use arbor_router::decode_param;
/// assert_eq!(decode_param("a%20b%2Fc").unwrap(), "a b/c");
/// assert_eq!(decode_param("caf%C3%A9").unwrap(), "café");
/// assert!(decode_param("%E0%A4%A").is_err());
/// ```
pub fn decode_param(raw: &str) -> Result<Cow<'_, str>, MalformedEscape> {
    let bytes = raw.as_bytes();
    let Some(first) = bytes.iter().position(|&b| b == b'%') else {
        return Ok(Cow::Borrowed(raw));
    };
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(bytes.get(..first).unwrap_or_default());
    // For each decoded byte, where it came from: only used to point at invalid UTF-8.
    let mut origin: Vec<usize> = (0..first).collect();
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hi = bytes.get(i + 1).copied().and_then(hex_value);
            let lo = bytes.get(i + 2).copied().and_then(hex_value);
            match (hi, lo) {
                (Some(hi), Some(lo)) => {
                    out.push(hi << 4 | lo);
                    origin.push(i);
                    i += 3;
                }
                _ => return Err(MalformedEscape { position: i }),
            }
        } else {
            out.push(b);
            origin.push(i);
            i += 1;
        }
    }
    match String::from_utf8(out) {
        Ok(s) => Ok(Cow::Owned(s)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Err(MalformedEscape {
                position: origin.get(at).copied().unwrap_or(0),
            })
        }
    }
}

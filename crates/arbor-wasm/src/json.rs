//! The few JSON strings the cold path returns, written by hand (no serde in the binary for this).

use arbor_router::InsertError;

pub fn optional_number(value: Option<u32>) -> String {
    value.map_or_else(|| "null".to_owned(), |n| n.to_string())
}

/// `{"error":{"code","message","pattern","position","conflictsWith"}}` for a registration error;
/// `wasm-engine.ts` turns it into a `RouteError` with the same fields.
pub fn insert_error(error: &InsertError) -> String {
    let mut out = format!(
        "{{\"error\":{{\"code\":{},\"message\":{}",
        string(error.code()),
        string(&error.to_string())
    );
    if let Some(pattern) = error.pattern() {
        out.push_str(&format!(",\"pattern\":{}", string(pattern)));
    }
    if let Some(position) = error.position() {
        out.push_str(&format!(",\"position\":{position}"));
    }
    if let InsertError::Conflict { with_pattern, .. } = error {
        out.push_str(&format!(",\"conflictsWith\":{}", string(with_pattern)));
    }
    out.push_str("}}");
    out
}

/// A JSON string literal.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

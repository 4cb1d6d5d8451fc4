//! The few JSON strings the cold path returns, written by hand (no serde in the binary for this).

use arbor_router::InsertError;

pub fn optional_number(value: Option<u32>) -> String {
    value.map_or_else(|| "null".to_owned(), |n| n.to_string())
}

/// `{"error":{…}}` for a registration error (fields: `InsertError::to_json`); `wasm-engine.ts` turns it
/// into a `RouteError` with the same code.
pub fn insert_error(error: &InsertError) -> String {
    format!("{{\"error\":{}}}", error.to_json())
}

//! The benchmark data files the native harnesses read (`benches/data` at the repository's root), shared
//! by `walk.rs`, `segment_sketch.rs` and the lean walk's unit tests (`src/segments/tests.rs`).

use std::path::PathBuf;

/// Where the data files are.
pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../benches/data");

/// (method, pattern) routes, or (method, path) requests.
pub type Pairs = Vec<(String, String)>;

/// The values of `"key": "..."` in order of appearance (the data files are flat enough for this).
pub fn strings_of(json: &str, key: &str) -> Vec<String> {
    let needle = format!("\"{key}\": \"");
    json.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &json[at + needle.len()..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect()
}

/// The GitHub API table (`medley-github-api.json`): its 516 routes and, in the same order, the request
/// URL made for each.
pub fn github() -> (Pairs, Pairs) {
    let json = std::fs::read_to_string(PathBuf::from(DATA).join("medley-github-api.json"))
        .expect("medley-github-api.json");
    let methods = strings_of(&json, "method");
    let paths = strings_of(&json, "path");
    let urls = strings_of(&json, "request");
    assert_eq!((methods.len(), paths.len(), urls.len()), (516, 516, 516));
    let routes = methods.iter().cloned().zip(paths).collect();
    let requests = methods.into_iter().zip(urls).collect();
    (routes, requests)
}

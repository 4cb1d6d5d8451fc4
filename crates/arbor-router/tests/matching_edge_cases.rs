//! The matching table, continued: ROUTING.md §3.1 edge cases (exact before tolerant, trailing slash,
//! duplicate slashes, empty values, non-ASCII), methods and span buffers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use arbor_router::Order::Definition;
use arbor_router::{Lookup, Router, RouterOptions, Spans};
use common::{check_both, find};

// ---- ROUTING.md §3.1: edge cases -----------------------------------------------------------

#[test]
fn exact_before_tolerant_trailing_slash() {
    check_both(
        &["/path/foo", "/path/*", "/users", "/dir/"],
        &[
            ("/path/foo/", Some("/path/*"), &["foo/"]), // exact match by the wildcard first
            ("/path/foo", Some("/path/foo"), &[]),
            ("/users/", Some("/users"), &[]),
            ("/dir", Some("/dir/"), &[]),
            ("/users//", None, &[]), // one slash only
        ],
    );
    check_both(&["/static/*"], &[("/static", Some("/static/*"), &[""])]);
    // `/` is never toggled.
    check_both(&["/x", "//"], &[("/", None, &[])]);
}

#[test]
fn x_and_x_slash_are_different_patterns() {
    check_both(
        &["/x", "/x/"],
        &[("/x", Some("/x"), &[]), ("/x/", Some("/x/"), &[])],
    );
}

#[test]
fn duplicate_slashes_are_not_collapsed() {
    check_both(
        &["/a/b", "/a/:p/c"],
        &[
            ("/a//b", None, &[]),
            ("//a/b", None, &[]),
            ("/a//c", None, &[]),
            ("/a/x/c", Some("/a/:p/c"), &["x"]),
        ],
    );
}

#[test]
fn empty_values_never_match_a_param() {
    check_both(
        &["/a/:p"],
        &[("/a/", None, &[]), ("/a/x", Some("/a/:p"), &["x"])],
    );
    // The retry may still send `/a/` to `/a`.
    check_both(&["/a/:p", "/a"], &[("/a/", Some("/a"), &[])]);
}

#[test]
fn strict_mode_does_not_retry() {
    let mut router = Router::new(RouterOptions {
        trailing_slash: false,
        ..RouterOptions::default()
    });
    router.insert(&["GET"], "/users").unwrap();
    router.insert(&["GET"], "/static/*").unwrap();
    assert_eq!(find(&router, "GET", "/users/"), None);
    assert_eq!(find(&router, "GET", "/static"), None);
    assert!(find(&router, "GET", "/users").is_some());
}

#[test]
fn retry_spans_stay_relative_to_the_original_path() {
    let router = common::router(Definition, &["/u/:id/", "/w/:id"]);
    let mut spans = Spans::new();
    let get = router.method_id("GET").unwrap();
    assert_eq!(router.lookup(get, b"/u/42", &mut spans), Lookup::Found(0));
    assert_eq!(spans.as_slice(), &[3, 5]);
    assert_eq!(router.lookup(get, b"/w/42/", &mut spans), Lookup::Found(1));
    assert_eq!(spans.as_slice(), &[3, 5]);
}

#[test]
fn non_ascii_static_text_is_stored_percent_encoded() {
    check_both(
        &["/café", "/straße/:x", "/été/*"],
        &[
            ("/caf%C3%A9", Some("/café"), &[]),
            ("/café", Some("/café"), &[]), // `find` encodes raw characters first
            ("/caf%c3%a9", None, &[]),     // no case folding of hex
            ("/stra%C3%9Fe/1", Some("/straße/:x"), &["1"]),
            ("/%C3%A9t%C3%A9/x", Some("/été/*"), &["x"]),
        ],
    );
    // A raw path with a non-ASCII byte given to `lookup` (not `find`) is not found: callers encode.
    let router = common::router(Definition, &["/café", "/u/:x"]);
    let mut spans = Spans::new();
    let get = router.method_id("GET").unwrap();
    assert_eq!(
        router.lookup(get, "/café".as_bytes(), &mut spans),
        Lookup::NotFound
    );
    assert_eq!(
        router.lookup(get, "/u/é".as_bytes(), &mut spans),
        Lookup::NotFound
    );
    // ...unless it is after the query string, which is cut off first.
    assert_eq!(
        router.lookup(get, "/u/x?é".as_bytes(), &mut spans),
        Lookup::Found(1)
    );
    // `find` spans are offsets into the encoded path.
    assert_eq!(router.find("GET", "/u/é", &mut spans), Lookup::Found(1));
    assert_eq!(spans.as_slice(), &[3, 9]);
}

// ---- methods, allowed methods -------------------------------------------------------------------

#[test]
fn methods_are_separate_tables() {
    let mut router = Router::new(RouterOptions::default());
    let get = router.insert(&["GET", "HEAD"], "/users/:id").unwrap().id;
    let put = router.insert(&["PUT"], "/users/:id").unwrap().id;
    let del = router.insert(&["DELETE"], "/users/*").unwrap().id;
    let mut spans = Spans::new();
    assert_eq!(
        router.find("GET", "/users/1", &mut spans),
        Lookup::Found(get)
    );
    assert_eq!(
        router.find("HEAD", "/users/1", &mut spans),
        Lookup::Found(get)
    );
    assert_eq!(
        router.find("PUT", "/users/1", &mut spans),
        Lookup::Found(put)
    );
    assert_eq!(
        router.find("DELETE", "/users/1", &mut spans),
        Lookup::Found(del)
    );
    assert_eq!(
        router.find("POST", "/users/1", &mut spans),
        Lookup::NotFound
    );
    assert_eq!(router.method_id("POST"), None);
    assert_eq!(
        router.allowed_methods(b"/users/1"),
        ["DELETE", "GET", "HEAD", "PUT"]
    );
    assert_eq!(
        router.allowed_methods(b"/users/1/"),
        ["DELETE", "GET", "HEAD", "PUT"]
    );
    assert_eq!(router.allowed_methods(b"/users/1/x"), ["DELETE"]);
    assert!(router.allowed_methods(b"/nothing").is_empty());
}

#[test]
fn spans_are_reused_across_routers() {
    let a = common::router(Definition, &[r"/x/:a.:b"]);
    let b = common::router(Definition, &[r"/y/{^(\d+)-(\d+)-(\d+)$}", r"/x/:a.:b"]);
    let mut spans = Spans::new();
    for _ in 0..3 {
        assert_eq!(a.find("GET", "/x/1.2", &mut spans), Lookup::Found(0));
        assert_eq!(spans.as_slice(), &[3, 4, 5, 6]);
        assert_eq!(b.find("GET", "/y/1-2-3", &mut spans), Lookup::Found(0));
        assert_eq!(spans.as_slice(), &[3, 4, 5, 6, 7, 8]);
        assert_eq!(b.find("GET", "/x/1.2", &mut spans), Lookup::Found(1));
    }
}

/// The static table (an exact static route is found by hash before the walk): every length around
/// the 4- and 8-byte word boundaries, per method, with a query string, with a trailing slash, and
/// near misses that differ in one byte at every position (they must not be found).
#[test]
fn static_table_exact_and_near_misses() {
    let mut router = Router::new(RouterOptions::default());
    let mut paths = Vec::new();
    for len in 1..=26 {
        let path: String = std::iter::once('/')
            .chain((1..len).map(|k| (b'a' + (k % 26) as u8) as char))
            .collect();
        let get = router.insert(&["GET"], &path).unwrap().id;
        let post = router.insert(&["POST"], &format!("{path}~")).unwrap().id;
        paths.push((path, get, post));
    }
    let mut spans = Spans::new();
    for (path, get, post) in &paths {
        assert_eq!(
            router.find("GET", path, &mut spans),
            Lookup::Found(*get),
            "{path}"
        );
        assert!(spans.is_empty());
        let with_query = format!("{path}?q=1#f");
        assert_eq!(
            router.find("GET", &with_query, &mut spans),
            Lookup::Found(*get)
        );
        assert_eq!(
            router.find("POST", &format!("{path}~"), &mut spans),
            Lookup::Found(*post)
        );
        assert_eq!(
            router.find("POST", path, &mut spans),
            Lookup::NotFound,
            "{path}"
        );
        if path.len() > 1 {
            assert_eq!(
                router.find("GET", &format!("{path}/"), &mut spans),
                Lookup::Found(*get)
            );
        }
        for at in 1..path.len() {
            let mut near = path.clone().into_bytes();
            near[at] = b'Z';
            let near = String::from_utf8(near).unwrap();
            assert_eq!(
                router.find("GET", &near, &mut spans),
                Lookup::NotFound,
                "{near}"
            );
        }
    }
    // A method with static routes only still answers, and a dynamic route of another shape does not
    // hide them.
    router.insert(&["GET"], "/:x/:y/:z").unwrap();
    assert_eq!(
        router.find("POST", &format!("{}~", paths[1].0), &mut spans),
        Lookup::Found(paths[1].2)
    );
}

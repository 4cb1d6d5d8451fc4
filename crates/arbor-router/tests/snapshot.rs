//! Snapshots: a round trip keeps every route and every answer; truncated, corrupt and foreign bytes
//! give an error, never a panic (and a forged payload with a valid checksum still cannot crash).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Order, Router, RouterOptions, SnapshotError, Spans};

#[path = "common/forge.rs"]
mod forge;
use forge::reseal;

const ROUTES: &[(&[&str], &str)] = &[
    (&["GET"], "/"),
    (&["GET", "HEAD"], "/users"),
    (&["GET"], "/users/:id<int>"),
    (&["PUT"], "/users/:id"),
    (&["GET"], "/search/:q/:page?"),
    (&["GET"], r"/files/:name<[\w-]+>.:ext<jpg|png>"),
    (&["GET"], "/f/:file.:ext"),
    (&["GET"], "/static/*"),
    (&["GET"], r"/archive/{^(?P<y>\d{4})/(\d{2})$}"),
    (&["GET"], "/café"),
    (&["DELETE"], "/users/*"),
    (&["GET"], "/u/:x/:y"),
    (&["GET"], "/u/:a/b"),
];

const PATHS: &[&str] = &[
    "/",
    "/users",
    "/users/",
    "/users/1",
    "/users/x",
    "/search/a",
    "/search/a/2",
    "/files/a-b.png",
    "/files/a.gif",
    "/f/a.b.c",
    "/static",
    "/static/x/y",
    "/archive/2024/05",
    "/caf%C3%A9",
    "/u/1/b",
    "/u/1/c",
    "/nothing",
    "/users/1/2",
];

fn sample(order: Order) -> Router {
    let mut router = Router::new(RouterOptions {
        order,
        trailing_slash: true,
    });
    for (methods, pattern) in ROUTES {
        router.insert(methods, pattern).unwrap();
    }
    router.set_name(2, "users.show").unwrap();
    router
}

fn answers(router: &Router) -> Vec<(Lookup, Vec<u32>)> {
    let mut spans = Spans::new();
    let mut out = Vec::new();
    for method in ["GET", "HEAD", "PUT", "DELETE", "POST"] {
        for path in PATHS {
            let found = router.find(method, path, &mut spans);
            out.push((
                found,
                if found == Lookup::NotFound {
                    vec![]
                } else {
                    spans.as_slice().to_vec()
                },
            ));
        }
    }
    out
}

#[test]
fn round_trip_keeps_routes_and_answers() {
    for order in [Order::Definition, Order::Specificity] {
        let router = sample(order);
        let bytes = router.serialize();
        let loaded = Router::deserialize(&bytes).unwrap();
        // The shapes come from their own section; the metadata is decoded on this first read.
        assert_eq!(loaded.route_shapes(), router.route_shapes());
        assert_eq!(loaded.routes(), router.routes());
        assert_eq!(loaded.options(), router.options());
        assert_eq!(answers(&loaded), answers(&router));
        assert_eq!(
            loaded.allowed_methods(b"/users/1"),
            router.allowed_methods(b"/users/1")
        );
        assert_eq!(loaded.serialize(), bytes, "serialize is deterministic");
    }
}

#[test]
fn a_loaded_router_accepts_more_routes() {
    let mut loaded = Router::deserialize(&sample(Order::Definition).serialize()).unwrap();
    // Conflicts and shadowing still work against the loaded routes.
    assert_eq!(
        loaded
            .insert(&["GET"], "/users/:n<int>")
            .unwrap_err()
            .code(),
        "ROUTE_CONFLICT"
    );
    let inserted = loaded.insert(&["GET"], "/u/:p/:q<int>").unwrap();
    assert_eq!(inserted.shadowed_by, Some(11));
    let id = loaded.insert(&["POST"], "/users").unwrap().id;
    let mut spans = Spans::new();
    assert_eq!(loaded.find("POST", "/users", &mut spans), Lookup::Found(id));
    assert_eq!(
        loaded.set_name(id, "users.show").unwrap_err().code(),
        "DUPLICATE_NAME"
    );
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample(Order::Definition).serialize();
    for len in 0..bytes.len() {
        let err = Router::deserialize(&bytes[..len]).unwrap_err();
        assert_eq!(err.code(), "SNAPSHOT_INVALID", "length {len}: {err}");
        if len >= 8 {
            assert_eq!(err, SnapshotError::Truncated, "length {len}");
        }
    }
}

#[test]
fn foreign_bytes_and_versions() {
    assert_eq!(
        Router::deserialize(b"").unwrap_err(),
        SnapshotError::Truncated
    );
    assert_eq!(
        Router::deserialize(b"{\"routes\":[]}").unwrap_err(),
        SnapshotError::BadMagic
    );
    let mut bytes = sample(Order::Definition).serialize();
    bytes[8] = 99;
    let err = Router::deserialize(&bytes).unwrap_err();
    assert_eq!(
        err,
        SnapshotError::UnsupportedVersion {
            found: 99,
            supported: 7
        }
    );
    assert_eq!(err.code(), "SNAPSHOT_VERSION");
    let mut bytes = sample(Order::Definition).serialize();
    bytes.push(0);
    assert_eq!(
        Router::deserialize(&bytes).unwrap_err().code(),
        "SNAPSHOT_INVALID"
    );
}

/// xorshift: deterministic, dependency-free randomness.
fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn bit_flips_are_caught_by_the_checksum() {
    let bytes = sample(Order::Definition).serialize();
    let mut seed = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..2000 {
        let mut copy = bytes.clone();
        let at = 24 + (rng(&mut seed) as usize) % (bytes.len() - 24);
        copy[at] ^= 1 << (rng(&mut seed) % 8);
        assert_eq!(
            Router::deserialize(&copy).unwrap_err(),
            SnapshotError::Checksum
        );
    }
}

#[test]
fn forged_payloads_with_a_valid_checksum_never_panic() {
    let bytes = sample(Order::Definition).serialize();
    let mut seed = 0x1234_5678_9abc_def1;
    let mut loaded = 0;
    for round in 0..1000 {
        let mut copy = bytes.clone();
        for _ in 0..1 + round % 3 {
            let at = 24 + (rng(&mut seed) as usize) % (bytes.len() - 24);
            copy[at] = if round % 2 == 0 {
                copy[at] ^ (1 << (rng(&mut seed) % 8))
            } else {
                rng(&mut seed) as u8
            };
        }
        reseal(&mut copy);
        if let Ok(mut router) = Router::deserialize(&copy) {
            loaded += 1;
            let _ = answers(&router);
            // What a load checked, the metadata decoded on first read holds whole: one entry per shape.
            let shapes = router.route_shapes().into_owned();
            assert_eq!(router.routes().len(), shapes.routes.len(), "round {round}");
            let _ = router.routes().iter().map(|r| r.span_len()).sum::<usize>();
            // The first insert rebuilds the registration tree from the (possibly altered) patterns.
            let _ = router.insert(&["GET"], "/new/:x");
            let _ = answers(&router);
        }
    }
    // Some flips land in strings (names, templates) and still load: they were exercised too.
    assert!(loaded > 0);
}

#[test]
fn a_forged_regex_that_does_not_compile_matches_nothing() {
    // Regexes are compiled on first use after a load, so a source that does not compile cannot be
    // refused at load; a valid snapshot never holds one (registration compiled it), and a forged one
    // only loses the routes that need it.
    let router = sample(Order::Definition);
    let mut bytes = router.serialize();
    let (good, bad) = (b"jpg|png", b"jpg(png");
    let mut forged = 0;
    for at in 24..bytes.len() - good.len() {
        if &bytes[at..at + good.len()] == good {
            bytes[at..at + good.len()].copy_from_slice(bad);
            forged += 1;
        }
    }
    assert!(forged > 0);
    reseal(&mut bytes);
    let loaded = Router::deserialize(&bytes).unwrap();
    let mut spans = Spans::new();
    assert_eq!(
        loaded.find("GET", "/files/a-b.png", &mut spans),
        Lookup::NotFound
    );
    // Route 5 is the one with the forged regex; every other answer is unchanged.
    for (before, after) in answers(&router).into_iter().zip(answers(&loaded)) {
        if before.0 == Lookup::Found(5) {
            assert_ne!(after.0, Lookup::Found(5));
        } else {
            assert_eq!(before, after);
        }
    }
}

#[test]
fn the_first_insert_after_a_load_rebuilds_the_tree_registration_built() {
    // A snapshot stores the flattened tree only; the first insert rebuilds the registration tree from
    // the patterns. It must be the same tree: the two routers, given the same new routes, serialize
    // to the same bytes and answer alike.
    for order in [Order::Definition, Order::Specificity] {
        let mut original = sample(order);
        let mut loaded = Router::deserialize(&original.serialize()).unwrap();
        for (methods, pattern) in [
            (&["GET"][..], "/users/:id/posts/:post?"),
            (&["PATCH", "GET"][..], "/search/:q/x"),
            (&["GET"][..], "/static/deep/*"),
        ] {
            assert_eq!(
                loaded.insert(methods, pattern).unwrap(),
                original.insert(methods, pattern).unwrap()
            );
        }
        assert_eq!(loaded.serialize(), original.serialize());
        assert_eq!(answers(&loaded), answers(&original));
    }
}

#[test]
fn metadata_text_that_is_not_utf8_reads_as_replacement_characters() {
    // A load checks the metadata's structure, not its text: its strings are decoded when something
    // reads them, and that decode cannot fail. A byte that is not UTF-8 (only a forged snapshot
    // holds one) reads as U+FFFD; the route still loads and answers.
    let router = sample(Order::Definition);
    let mut bytes = router.serialize();
    let template = b"/search/{q}/{page}";
    let at = (24..bytes.len() - template.len())
        .find(|&at| &bytes[at..at + template.len()] == template)
        .unwrap();
    bytes[at + 1] = 0xff;
    reseal(&mut bytes);
    let loaded = Router::deserialize(&bytes).unwrap();
    assert_eq!(loaded.routes()[4].template, "/\u{fffd}earch/{q}/{page}");
    assert_eq!(loaded.routes()[4].params, router.routes()[4].params);
    assert_eq!(answers(&loaded), answers(&router));
}

//! The lean walk held to the byte walk (the same route and spans wherever it answers), and its trie
//! through a snapshot.

/// The benchmarks' data loader, for the tests here (one loader for the GitHub table).
#[path = "../../benches/tables/mod.rs"]
mod bench_tables;

use super::Lean;
use crate::ids::NONE;
use crate::{Lookup, Order, RouteId, Router, RouterOptions, Spans};

/// The lean walk's answer for `url` and the byte walk's, held to each other wherever the lean
/// walk answers: the same route with the same spans, or no route.
fn both_walks(router: &Router, method: &str, url: &str) -> (Lean, Option<RouteId>) {
    let flat = router.flat_for_tests();
    let segments = flat.segments.as_ref().expect("the table converts");
    let method_id = router.method_id(method).unwrap();
    let root = segments.root(method_id).unwrap();
    let (mut lean_spans, mut byte_spans) = (Spans::new(), Spans::new());
    let path = url.as_bytes();
    let lean = segments.search(
        root,
        path,
        &mut lean_spans.lean,
        &mut lean_spans.values,
        &flat.layouts,
    );
    let byte = router.walk_general(flat, method_id, path, &mut byte_spans);
    let byte = (byte != NONE).then_some(byte);
    if lean == Lean::NOT_FOUND {
        assert_eq!(byte, None, "{url}");
    } else if let Some(id) = lean.route() {
        assert_eq!(Some(id), byte, "{url}");
        assert_eq!(lean_spans.as_slice(), byte_spans.as_slice(), "{url}");
    }
    (lean, byte)
}

/// The lean walk answers every dynamic request of the GitHub table itself, with the byte walk's
/// answers: the one route it does not hold, `compare/:base...:head` (a segment tail), is defined
/// after the route that answers its request in definition order.
/// `GET` routes registered in `order`, then each url's lean walk answer (held to the byte walk's
/// by `both_walks`) against the table.
fn expect_lean(order: Order, routes: &[&str], table: &[(&str, Lean)]) {
    let mut router = Router::new(RouterOptions {
        order,
        ..RouterOptions::default()
    });
    for pattern in routes {
        router.insert(&["GET"], pattern).unwrap();
    }
    for &(url, expected) in table {
        assert_eq!(both_walks(&router, "GET", url).0, expected, "{url}");
    }
}

/// Every dynamic request of the GitHub table in `order`, through both walks (held to each other
/// by `both_walks`) and through the whole lookup (held to the byte walk): how many the lean walk
/// answers, and the patterns of those it hands over.
fn github_in(order: Order) -> (usize, Vec<String>) {
    let (routes, requests) = bench_tables::github();
    let mut router = Router::new(RouterOptions {
        order,
        ..RouterOptions::default()
    });
    for (method, pattern) in &routes {
        router.insert(&[method.as_str()], pattern).unwrap();
    }
    let mut spans = Spans::new();
    let (mut answered, mut handed_over) = (0, vec![]);
    for ((method, pattern), (_, url)) in routes.iter().zip(&requests) {
        if !pattern.contains(':') {
            continue;
        }
        let (lean, byte) = both_walks(&router, method, url);
        assert_ne!(
            lean,
            Lean::NOT_FOUND,
            "{url}: every request matches a route"
        );
        assert!(byte.is_some(), "{url}: every request matches a route");
        if lean.route().is_some() {
            answered += 1;
        } else {
            handed_over.push(pattern.clone());
        }
        let method_id = router.method_id(method).unwrap();
        let whole = router.lookup(method_id, url.as_bytes(), &mut spans);
        assert_eq!(whole, byte.map_or(Lookup::NotFound, Lookup::Found), "{url}");
    }
    (answered, handed_over)
}

/// The lean walk answers every dynamic request of the GitHub table itself, with the byte walk's
/// answers: the one route it does not hold, `compare/:base...:head` (a segment tail), is defined
/// after the route that answers its request in definition order.
#[test]
fn lean_walk_answers_github_like_the_byte_walk() {
    assert_eq!(github_in(Order::Definition), (454, vec![]));
}

/// A constrained parameter that is the whole segment is a parameter child: the lean walk checks
/// the value, and tries a node's several parameter children (`/pages/:id<int>` and
/// `/pages/:slug`) in definition order, each with its own check. What it does not hold sends a
/// lookup to the byte walk only when it could beat the lean walk's answer.
#[test]
fn lean_walk_checks_a_constrained_parameter_child() {
    let routes = [
        "/posts/:id<int>",
        "/posts/:id<int>/archive/:year<year>",
        "/tags/:tag<[a-z]+>/posts",
        "/pages/:id<int>",
        "/pages/:slug",
        "/users/:name/profile",
        "/users/:id<int>/settings",
        "/v/:a<int>/x",
        "/v/:b<[a-f]+>/y",
        "/v/:c/z",
        "/w/:a<[a-z]+>/k",
        "/w/s/:t",
        "/w/:c/:d",
        "/f/:id<int>",
        "/f/*",
        "/f/:name/raw",
        "/g/:x",
        "/g/h*",
    ];
    let table: [(&str, Lean); 21] = [
        ("/posts/42", Lean::found(0)),
        ("/posts/42/archive/2024", Lean::found(1)),
        ("/posts/42/archive/2024x", Lean::NOT_FOUND),
        ("/posts/abc", Lean::NOT_FOUND),
        ("/tags/rust/posts", Lean::found(2)),
        ("/tags/Rust/posts", Lean::NOT_FOUND),
        ("/pages/42", Lean::found(3)),
        ("/pages/about", Lean::found(4)),
        // The first child's subtree has no `/settings`: the next child is tried.
        ("/users/42/settings", Lean::found(6)),
        ("/users/ann/settings", Lean::NOT_FOUND),
        ("/users/42/profile", Lean::found(5)),
        // Three children: a failed check skips to the next one, whose subtree is walked.
        ("/v/abc/z", Lean::found(9)),
        ("/v/ab/y", Lean::found(8)),
        ("/v/12/x", Lean::found(7)),
        ("/v/12/y", Lean::NOT_FOUND),
        // The static child answers first (11); of the parameter children, the one defined
        // earlier (10) still beats it, the later one (12) cannot.
        ("/w/s/k", Lean::found(10)),
        ("/w/s/z", Lean::found(11)),
        // What the byte walk alone handles (a wildcard, text before one in its segment) keeps
        // a lookup only when it could beat the lean walk's answer: `/f/:id<int>` is defined
        // before `/f/*`, `/g/:x` before `/g/h*`.
        ("/f/12", Lean::found(13)),
        ("/f/ab", Lean::GENERAL),
        ("/f/ab/raw", Lean::GENERAL),
        ("/g/hello", Lean::found(16)),
    ];
    expect_lean(Order::Definition, &routes, &table);
}

/// In specificity order the leaves are ranked in the byte walk's depth-first order, so the
/// lean walk's smallest rank is the byte walk's first match: a static segment before a
/// constrained parameter, before a plain one, whatever the definition order.
#[test]
fn lean_walk_follows_specificity_order() {
    let routes = [
        "/w/:a<[a-z]+>/k",
        "/w/s/:t",
        "/w/:c/:d",
        "/q/:any",
        "/q/:n<int>",
        "/q/:n<int>/x",
        "/users/:name/profile",
        "/users/:id<int>/settings",
        "/f/*",
        "/f/:name/raw",
        "/f/:id<int>",
        "/g/:x",
        "/g/h*",
        "/t/:id",
        "/t/:name.json",
        "/t/:name.:ext",
    ];
    let table: [(&str, Lean); 16] = [
        // The static segment first (defined after the constrained parameter).
        ("/w/s/k", Lean::found(1)),
        ("/w/s/z", Lean::found(1)),
        ("/w/b/k", Lean::found(0)),
        ("/w/b/z", Lean::found(2)),
        ("/w/B/k", Lean::found(2)),
        // The constrained parameter before the plain one (defined first).
        ("/q/5", Lean::found(4)),
        ("/q/five", Lean::found(3)),
        ("/q/5/x", Lean::found(5)),
        ("/q/five/x", Lean::NOT_FOUND),
        ("/users/42/settings", Lean::found(7)),
        ("/users/42/profile", Lean::found(6)),
        // A wildcard comes last: handed over only when nothing before it matched.
        ("/f/12", Lean::found(10)),
        ("/f/ab/raw", Lean::found(9)),
        ("/f/ab", Lean::GENERAL),
        // Static text before a wildcard (`h`) comes before a parameter: the byte walk's.
        ("/g/hello", Lean::GENERAL),
        // Segment tails (`:name.json`) come before a plain parameter, and only the byte walk
        // knows whether they match.
        ("/t/abc", Lean::GENERAL),
    ];
    expect_lean(Order::Specificity, &routes, &table);
}

/// The GitHub table in specificity order: the lean walk answers every dynamic request like the
/// byte walk, but the one a segment tail answers.
#[test]
fn lean_walk_answers_github_in_specificity_order() {
    let compare = "/repos/:owner/:repo/compare/:base...:head".to_string();
    assert_eq!(github_in(Order::Specificity), (453, vec![compare]));
}

/// A router loaded from its snapshot walks the trie it was saved with: the same numbers, not a
/// rebuilt one, in either order.
#[test]
fn a_snapshot_keeps_the_trie() {
    use super::Segments;
    let (routes, _) = bench_tables::github();
    for order in [Order::Definition, Order::Specificity] {
        let mut router = Router::new(RouterOptions {
            order,
            ..RouterOptions::default()
        });
        for (method, pattern) in &routes {
            router.insert(&[method.as_str()], pattern).unwrap();
        }
        let saved = router
            .flat_for_tests()
            .segments
            .as_ref()
            .map(Segments::parts);
        assert!(saved.is_some(), "the GitHub table converts");
        let loaded = Router::deserialize(&router.serialize()).unwrap();
        let parts = loaded
            .flat_for_tests()
            .segments
            .as_ref()
            .map(Segments::parts);
        assert_eq!(parts, saved);
    }
}

/// What `from_parts` refuses: numbers a build never makes, each of which could make a forged
/// snapshot's walk loop, read past an array or answer spans that disagree with its route.
#[test]
fn from_parts_refuses_what_could_loop_or_lie() {
    use super::layout::{LINEAR, SEVERAL};
    use super::{SegmentParts, Segments};
    let mut router = Router::new(RouterOptions::default());
    for pattern in [
        "/pages/:id<int>",
        "/pages/:slug",
        "/pages/:id<int>/x",
        "/a/b",
    ] {
        router.insert(&["GET"], pattern).unwrap();
    }
    let parts = router
        .flat_for_tests()
        .segments
        .as_ref()
        .map(Segments::parts)
        .expect("converts");
    let load = |parts: SegmentParts| {
        Segments::from_parts(parts, router.matchers_for_tests(), 1, |_, _, _| true).is_some()
    };
    assert!(load(parts.clone()), "the build's own numbers load");
    // The node with two parameter children, and its first child (the chain's head).
    let several = parts
        .nodes
        .iter()
        .position(|n| n[12] == SEVERAL)
        .expect("a node with several parameter children");
    let head = parts.nodes[several][10] as usize;
    let second = parts.nodes[head][14] as usize;
    type Forge = Box<dyn Fn(&mut SegmentParts)>;
    let refused: [(&str, Forge); 7] = [
        (
            "a chain that comes back",
            Box::new(move |p| p.nodes[second][14] = head as u32),
        ),
        (
            "a chain that links to itself",
            Box::new(move |p| p.nodes[head][14] = head as u32),
        ),
        ("a boolean that is not one", Box::new(|p| p.nodes[0][5] = 2)),
        ("keys past the end", Box::new(|p| p.nodes[0][7] = u32::MAX)),
        (
            "a check past the end",
            Box::new(move |p| p.nodes[head][13] = 99),
        ),
        ("a root past the end", Box::new(|p| p.roots[0] = 1 << 20)),
        (
            "a check taken from a plain matcher",
            Box::new(|p| p.check_matchers[0] = 99),
        ),
    ];
    for (what, change) in refused {
        let mut forged = parts.clone();
        change(&mut forged);
        assert!(!load(forged), "{what}");
    }
    let mut tabled = parts.clone();
    tabled.nodes[0][7] = LINEAR + 1;
    tabled.nodes[0][6] = 0;
    tabled.keys.resize(LINEAR as usize + 1, (0, [0, 0, 0]));
    tabled.nodes[0][9] = 0;
    assert!(!load(tabled), "a hash table of one slot");
    let refused_leaf = Segments::from_parts(parts, router.matchers_for_tests(), 1, |_, _, _| false);
    assert!(
        refused_leaf.is_none(),
        "a leaf whose layout does not fit its route"
    );
}

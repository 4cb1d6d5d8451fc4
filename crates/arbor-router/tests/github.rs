//! The GitHub API table (516 real routes with request URLs, medley's router benchmark): every request
//! finds the route that definition order prescribes (checked against a naive per-segment matcher),
//! with the right parameter values; and a native timing of the lookup (ignored: run with
//! `cargo test --release -p arbor-router --test github -- --ignored --nocapture`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Order, Router, RouterOptions, Spans};

const DATA: &str = include_str!("../../../benches/data/medley-github-api.json");

struct Route {
    method: String,
    path: String,
    request: String,
}

/// The values of `"key": "value"` in file order (the file has no escapes in its strings).
fn strings<'a>(json: &'a str, key: &str) -> Vec<&'a str> {
    let needle = format!("\"{key}\": \"");
    json.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &json[at + needle.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

fn table() -> Vec<Route> {
    let (m, p, r) = (
        strings(DATA, "method"),
        strings(DATA, "path"),
        strings(DATA, "request"),
    );
    assert_eq!(m.len(), 516);
    assert_eq!((p.len(), r.len()), (516, 516));
    m.iter()
        .zip(&p)
        .zip(&r)
        .map(|((m, p), r)| Route {
            method: (*m).to_owned(),
            path: (*p).to_owned(),
            request: (*r).to_owned(),
        })
        .collect()
}

/// Naive matcher for this table's syntax (`:name` segments and `:base...:head`): the parameter
/// values, or `None`.
fn naive(pattern: &str, path: &str) -> Option<Vec<String>> {
    let ps: Vec<&str> = pattern.split('/').collect();
    let xs: Vec<&str> = path.split('/').collect();
    if ps.len() != xs.len() {
        return None;
    }
    let mut values = Vec::new();
    for (p, x) in ps.iter().zip(&xs) {
        if let Some((a, b)) = p.split_once("...") {
            assert!(a.starts_with(':') && b.starts_with(':'));
            let at = x.rfind("...")?;
            let (va, vb) = (&x[..at], &x[at + 3..]);
            if va.is_empty() || vb.is_empty() {
                return None;
            }
            values.push(va.to_owned());
            values.push(vb.to_owned());
        } else if p.starts_with(':') {
            if x.is_empty() {
                return None;
            }
            values.push((*x).to_owned());
        } else if p != x {
            return None;
        }
    }
    Some(values)
}

fn build(order: Order, routes: &[Route]) -> Router {
    let mut router = Router::new(RouterOptions {
        order,
        ..RouterOptions::default()
    });
    for r in routes {
        router.insert(&[&r.method], &r.path).unwrap();
    }
    router
}

#[test]
fn every_github_request_finds_its_definition_order_route() {
    let routes = table();
    let router = build(Order::Definition, &routes);
    let mut spans = Spans::new();
    let mut differs_from_own_route = 0;
    for r in &routes {
        // Expected: an exact static route, else the first defined route that matches.
        let candidates: Vec<(usize, &Route)> = routes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.method == r.method)
            .collect();
        let expected = candidates
            .iter()
            .find(|(_, c)| !c.path.contains(':') && c.path == r.request)
            .or_else(|| {
                candidates
                    .iter()
                    .find(|(_, c)| naive(&c.path, &r.request).is_some())
            })
            .map(|(i, _)| *i)
            .unwrap();
        let got = router.find(&r.method, &r.request, &mut spans);
        assert_eq!(
            got,
            Lookup::Found(expected as u32),
            "{} {}",
            r.method,
            r.request
        );
        let values: Vec<String> = spans
            .as_slice()
            .chunks(2)
            .map(|p| r.request[p[0] as usize..p[1] as usize].to_owned())
            .collect();
        assert_eq!(
            Some(values),
            naive(&routes[expected].path, &r.request),
            "{}",
            r.request
        );
        if routes[expected].path != r.path {
            differs_from_own_route += 1;
        }
    }
    // The shadowed GitHub routes of ROUTING.md §3.2 exist: definition order differs from the listed route.
    assert!(differs_from_own_route > 0);
}

#[test]
fn github_shadowing_is_reported() {
    let routes = table();
    let router = build(Order::Definition, &routes);
    let shadowed = router
        .routes()
        .iter()
        .filter(|r| r.shadowed_by.is_some())
        .count();
    let commits = router
        .routes()
        .iter()
        .find(|r| r.pattern == "/repos/:owner/:repo/commits/:ref" && r.methods == ["GET"])
        .unwrap();
    let by = &router.routes()[commits.shadowed_by.unwrap() as usize];
    assert_eq!(by.pattern, "/repos/:owner/:repo/:archive_format/:ref");
    assert!(shadowed >= 1);
    // Every reported shadowing is real: the shadowed route never wins any of the table's requests.
    let mut spans = Spans::new();
    for r in &routes {
        if let Lookup::Found(id) = router.find(&r.method, &r.request, &mut spans) {
            assert!(
                router.routes()[id as usize].shadowed_by.is_none(),
                "{}",
                r.request
            );
        }
    }
}

#[test]
fn every_github_request_finds_a_matching_route_by_specificity() {
    let routes = table();
    let router = build(Order::Specificity, &routes);
    let mut spans = Spans::new();
    for r in &routes {
        let Lookup::Found(id) = router.find(&r.method, &r.request, &mut spans) else {
            panic!("not found: {}", r.request);
        };
        let info = &router.routes()[id as usize];
        assert!(
            naive(&info.pattern, &r.request).is_some(),
            "{} -> {}",
            r.request,
            info.pattern
        );
    }
}

/// Native timing of one lookup over the GitHub requests (method id and path bytes prepared, as the
/// wasm binding has them).
#[test]
#[ignore = "timing, run in release with --ignored --nocapture"]
fn time_github_lookups() {
    let routes = table();
    // Calibration: the same loop over a std HashMap of the request strings (this machine is shared
    // and noisy; compare against this line, not against absolute figures from elsewhere).
    let map: std::collections::HashMap<&[u8], usize> = routes
        .iter()
        .enumerate()
        .map(|(i, r)| (r.request.as_bytes(), i))
        .collect();
    let start = std::time::Instant::now();
    let mut sum = 0usize;
    for _ in 0..2000 {
        for r in &routes {
            sum += map
                .get(std::hint::black_box(r.request.as_bytes()))
                .copied()
                .unwrap_or(0);
        }
    }
    let n = 2000 * routes.len();
    println!(
        "HashMap::get calibration: {:.1} ns ({sum})",
        start.elapsed().as_nanos() as f64 / n as f64
    );
    for order in [Order::Definition, Order::Specificity] {
        let router = build(order, &routes);
        let requests: Vec<(u32, &[u8])> = routes
            .iter()
            .map(|r| (router.method_id(&r.method).unwrap(), r.request.as_bytes()))
            .collect();
        let mut spans = Spans::new();
        let rounds: usize = std::env::var("ARBOR_ROUNDS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(2000);
        let mut found = 0u64;
        let start = std::time::Instant::now();
        for _ in 0..rounds {
            for (m, path) in &requests {
                if let Lookup::Found(id) = router.lookup(*m, std::hint::black_box(path), &mut spans)
                {
                    found += u64::from(id) + 1;
                }
            }
        }
        let elapsed = start.elapsed();
        let n = rounds * requests.len();
        println!(
            "{order:?}: {:.1} ns per lookup ({n} lookups, checksum {found})",
            elapsed.as_nanos() as f64 / n as f64
        );
    }
}

//! 10,000 routes: registration stays near-linear (the shadowing check uses an index, not a scan:
//! regression test for the quadratic first version, which took seconds here: checked by comparing
//! the cost of n and 4n routes), every route is found with the right values, and a snapshot of the
//! table reloads to the same answers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Router, RouterOptions, Spans};
use std::time::{Duration, Instant};

/// The pattern of route `i`: shared prefixes, two parameters, so insertion walks and splits nodes
/// and the shadowing check has candidates to consider.
fn pattern(i: usize) -> String {
    format!("/api/v{}/resource{i}/:id/items/:item", i % 7)
}

/// The best of three registrations of `n` routes. The minimum, because a busy machine only ever
/// adds time to a run.
fn registration_time(n: usize) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let mut router = Router::new(RouterOptions::default());
            for i in 0..n {
                router.insert(&["GET", "POST"], &pattern(i)).unwrap();
            }
            start.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
fn registration_cost_grows_linearly() {
    // Linear growth gives a ratio near 4 (a little more for n log n), quadratic near 16. The bound
    // sits between, far enough from 4 that noise on a shared machine cannot reach it.
    const N: usize = 2_500;
    let small = registration_time(N);
    let large = registration_time(4 * N);
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
    println!(
        "{N} routes: {small:?}; {} routes: {large:?}; ratio {ratio:.1}",
        4 * N
    );
    assert!(
        ratio < 9.0,
        "registering 4x the routes cost {ratio:.1}x the time ({small:?} → {large:?}): super-linear"
    );
}

#[test]
fn ten_thousand_routes() {
    let start = Instant::now();
    let mut router = Router::new(RouterOptions::default());
    for i in 0..10_000 {
        assert_eq!(
            router.insert(&["GET"], &pattern(i)).unwrap().shadowed_by,
            None
        );
    }
    // A catch-all defined last shadows nothing; one defined after it is shadowed.
    router.insert(&["GET"], "/api/*").unwrap();
    let shadowed = router.insert(&["GET"], "/api/v1/other/:x").unwrap();
    assert_eq!(shadowed.shadowed_by, Some(10_000));
    let built = start.elapsed();

    let snapshot = router.serialize();
    let loaded = Router::deserialize(&snapshot).unwrap();
    let mut spans = Spans::new();
    for i in (0..10_000).step_by(97) {
        let path = format!("/api/v{}/resource{i}/{i}/items/x{i}", i % 7);
        let want = Lookup::Found(i);
        assert_eq!(router.find("GET", &path, &mut spans), want, "{path}");
        let values: Vec<&str> = spans
            .as_slice()
            .chunks(2)
            .map(|p| &path[p[0] as usize..p[1] as usize])
            .collect();
        assert_eq!(values, [i.to_string(), format!("x{i}")]);
        assert_eq!(loaded.find("GET", &path, &mut spans), want, "{path}");
    }
    assert_eq!(
        router.find("GET", "/api/v9/nothing", &mut spans),
        Lookup::Found(10_000)
    );
    println!(
        "10k routes: registered in {built:?}, snapshot {} bytes",
        snapshot.len()
    );
}

//! 10,000 routes: registration stays near-linear (the shadowing check uses an index, not a scan:
//! regression test for the quadratic first version, which took seconds here), every route is found
//! with the right values, and a snapshot of the table reloads to the same answers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Router, RouterOptions, Spans};

#[test]
fn ten_thousand_routes() {
    let start = std::time::Instant::now();
    let mut router = Router::new(RouterOptions::default());
    for i in 0..10_000 {
        let pattern = format!("/api/v{}/resource{i}/:id/items/:item", i % 7);
        assert_eq!(router.insert(&["GET"], &pattern).unwrap().shadowed_by, None);
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

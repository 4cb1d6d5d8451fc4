//! Shared table harness: build a router from a route list, look paths up, compare the winning
//! pattern and the values its spans cut out of the path.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Order, Router, RouterOptions, Spans};

/// Marks an absent optional parameter or a non-participating group.
pub const ABSENT: &str = "<absent>";

pub fn router(order: Order, routes: &[&str]) -> Router {
    let mut router = Router::new(RouterOptions {
        order,
        trailing_slash: true,
    });
    for pattern in routes {
        router
            .insert(&["GET"], pattern)
            .unwrap_or_else(|e| panic!("inserting {pattern:?}: {e}"));
    }
    router
}

/// The values the spans cut out of `path` (clamped: a span may end one past it after the retry
/// that added a slash).
pub fn values(path: &str, spans: &Spans) -> Vec<String> {
    spans
        .as_slice()
        .chunks(2)
        .map(|pair| {
            if pair[0] == u32::MAX {
                return ABSENT.to_owned();
            }
            let (s, e) = (pair[0] as usize, pair[1] as usize);
            let (s, e) = (s.min(path.len()), e.min(path.len()));
            path[s..e].to_owned()
        })
        .collect()
}

/// `(pattern of the winner, values)`, or `None` for not found.
pub fn find(router: &Router, method: &str, path: &str) -> Option<(String, Vec<String>)> {
    let mut spans = Spans::new();
    match router.find(method, path, &mut spans) {
        Lookup::Found(id) => {
            let info = &router.routes()[id as usize];
            assert_eq!(
                spans.len(),
                info.span_len(),
                "span count for {}",
                info.pattern
            );
            Some((info.pattern.clone(), values(path, &spans)))
        }
        Lookup::NotFound => None,
    }
}

/// One row: path, expected winner pattern (None: not found), expected values.
pub type Row<'a> = (&'a str, Option<&'a str>, &'a [&'a str]);

pub fn check(order: Order, routes: &[&str], rows: &[Row<'_>]) {
    let router = router(order, routes);
    for (path, want, want_values) in rows {
        let got = find(&router, "GET", path);
        let want = want.map(|p| {
            (
                p.to_owned(),
                want_values
                    .iter()
                    .map(|v| (*v).to_owned())
                    .collect::<Vec<_>>(),
            )
        });
        assert_eq!(
            got, want,
            "order {order:?}, routes {routes:?}, path {path:?}"
        );
    }
}

/// The same rows under both orders.
pub fn check_both(routes: &[&str], rows: &[Row<'_>]) {
    check(Order::Definition, routes, rows);
    check(Order::Specificity, routes, rows);
}

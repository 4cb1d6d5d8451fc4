//! Fuzz target: arbitrary patterns inserted, arbitrary paths looked up (both orders), the router
//! snapshotted and reloaded (its metadata and shapes equal), and arbitrary bytes deserialized. Nothing may panic, and a reloaded
//! router must answer exactly as the router it was saved from, also after one more pattern is inserted
//! into both (the reloaded router rebuilds its registration tree then: it must be the saved router's).
#![no_main]

use arbor_router::{decode_param, Lookup, Order, Router, RouterOptions, Spans};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/forge.rs"]
mod forge;
use forge::reseal;

fuzz_target!(|data: &[u8]| {
    // Arbitrary bytes as a snapshot.
    if let Ok(router) = Router::deserialize(data) {
        let mut spans = Spans::new();
        let _ = router.find("GET", "/a/b", &mut spans);
        // What the load checked decodes whole on first read: one route per stored shape.
        assert_eq!(router.routes().len(), router.route_shapes().routes.len());
    }
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    // Lines starting with '>' are paths, the others patterns.
    let (paths, patterns): (Vec<&str>, Vec<&str>) =
        text.split('\n').partition(|l| l.starts_with('>'));
    let order = if selector & 1 == 0 {
        Order::Definition
    } else {
        Order::Specificity
    };
    let mut router = Router::new(RouterOptions {
        order,
        trailing_slash: selector & 2 == 0,
    });
    let (late, early) = patterns
        .split_last()
        .map_or((None, &[][..]), |(l, e)| (Some(*l), e));
    for (i, pattern) in early.iter().enumerate() {
        let method = if i % 3 == 2 { "POST" } else { "GET" };
        let _ = router.insert(&[method], pattern);
    }
    let mut reloaded = Router::deserialize(&router.serialize()).ok();
    assert!(reloaded.is_some(), "a router's own snapshot must load");
    assert_eq!(reloaded.as_ref().map(|r| r.routes()), Some(router.routes()));
    assert_eq!(
        reloaded.as_ref().map(|r| r.route_shapes().into_owned()),
        Some(router.route_shapes().into_owned())
    );
    // The same snapshot forged: bytes altered where the input says, the checksum made valid again. It
    // loads or is refused, never panics; loaded, its metadata decodes whole and it answers lookups.
    let mut forged = router.serialize();
    if forged.len() > 24 {
        let body = forged.len() - 24;
        for (k, &b) in rest.iter().take(8).enumerate() {
            let at = 24 + (usize::from(b) * 31 + k * 977 + usize::from(selector)) % body;
            forged[at] ^= b | 1;
        }
        reseal(&mut forged);
        if let Ok(loaded) = Router::deserialize(&forged) {
            assert_eq!(loaded.routes().len(), loaded.route_shapes().routes.len());
            let mut spans = Spans::new();
            for path in &paths {
                let _ = loaded.find("GET", &path[1..], &mut spans);
            }
        }
    }
    if let (Some(late), Some(r)) = (late, reloaded.as_mut()) {
        let inserted = router.insert(&["GET", "POST"], late);
        assert_eq!(r.insert(&["GET", "POST"], late), inserted);
        assert_eq!(
            r.serialize(),
            router.serialize(),
            "the rebuilt tree is the saved router's"
        );
    }
    let mut spans = Spans::new();
    let mut again = Spans::new();
    for path in paths
        .iter()
        .map(|p| &p[1..])
        .chain(patterns.iter().copied())
    {
        for method in ["GET", "POST"] {
            let found = router.find(method, path, &mut spans);
            if let Lookup::Found(id) = found {
                let info = &router.routes()[id as usize];
                assert_eq!(spans.len(), info.span_len());
                for pair in spans.as_slice().chunks(2) {
                    if pair[0] != u32::MAX {
                        assert!(pair[0] <= pair[1]);
                        assert!(pair[1] as usize <= path.len() * 3 + 1);
                    }
                }
            }
            if let Some(r) = &reloaded {
                assert_eq!(r.find(method, path, &mut again), found);
                assert_eq!(again.as_slice(), spans.as_slice());
            }
        }
        let _ = router.allowed_methods(path.as_bytes());
        let _ = decode_param(path);
    }
});

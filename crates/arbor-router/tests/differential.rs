//! Property test: the tree against a naive linear matcher (each route one anchored regex over the
//! whole path; an exact static route first, then the first route in id order; then the same with
//! one trailing slash toggled), on random route sets and random paths, in definition order.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{Lookup, Router, RouterOptions, Spans};
use proptest::prelude::*;
use regex::Regex;

/// A generated segment: its pattern text and the regex fragment that matches it.
fn segment(kind: u8, word: &str, i: usize) -> (String, String) {
    match kind {
        0 => (format!("/{word}"), format!("/{}", regex::escape(word))),
        1 => (format!("/:p{i}"), "/([^/]+)".into()),
        2 => (format!("/:p{i}<int>"), r"/(\d+)".into()),
        3 => (format!("/{{p{i}}}x"), "/([^/]+)x".into()),
        4 => (format!("/:p{i}.:q{i}"), r"/([^/]+)\.([^/]+)".into()),
        _ => (format!("/v:p{i}"), "/v([^/]+)".into()),
    }
}

/// A generated last piece: pattern text, regex fragment.
fn tail(kind: u8, only: bool) -> (String, String) {
    match kind {
        0 => ("/*".into(), "/(.*)".into()),
        1 => ("/a*".into(), "/a(.*)".into()),
        2 if only => ("/:t?".into(), "/([^/]+)?".into()),
        2 => ("/:t?".into(), "(?:/([^/]+))?".into()),
        3 => ("/".into(), "/".into()),
        _ => (String::new(), String::new()),
    }
}

const WORDS: &[&str] = &["a", "b", "ab", "1"];

fn route_strategy() -> impl Strategy<Value = (String, String, bool)> {
    (
        prop::collection::vec((0u8..6, 0usize..WORDS.len()), 0..4),
        0u8..6,
    )
        .prop_map(|(segs, t)| {
            let mut pattern = String::new();
            let mut re = String::from("(?s)^");
            let mut is_static = true;
            for (i, (kind, w)) in segs.iter().enumerate() {
                let (p, r) = segment(*kind, WORDS[*w], i);
                is_static &= *kind == 0;
                pattern.push_str(&p);
                re.push_str(&r);
            }
            let (p, r) = tail(t, segs.is_empty());
            is_static &= t >= 3;
            pattern.push_str(&p);
            re.push_str(&r);
            if pattern.is_empty() {
                pattern.push('/');
                re.push('/');
            }
            re.push('$');
            (pattern, re, is_static)
        })
}

fn path_strategy() -> impl Strategy<Value = String> {
    const SEGS: &[&str] = &[
        "a", "b", "ab", "1", "12", "x", "1x", "a.b", "a.b.c", "va", "v1", "", "ax",
    ];
    (
        prop::collection::vec(0usize..SEGS.len(), 0..5),
        any::<bool>(),
    )
        .prop_map(|(segs, slash)| {
            let mut path: String = segs.iter().map(|&s| format!("/{}", SEGS[s])).collect();
            if slash || path.is_empty() {
                path.push('/');
            }
            path
        })
}

struct Naive {
    routes: Vec<(u32, String, Regex, bool)>,
}

impl Naive {
    fn once(&self, path: &str) -> Option<(u32, Vec<u32>)> {
        if let Some((id, ..)) = self.routes.iter().find(|(_, p, _, s)| *s && p == path) {
            return Some((*id, vec![]));
        }
        self.routes
            .iter()
            .filter(|r| !r.3)
            .find_map(|(id, _, re, _)| {
                let caps = re.captures(path)?;
                let spans = (1..caps.len())
                    .flat_map(|g| match caps.get(g) {
                        Some(m) => [m.start() as u32, m.end() as u32],
                        None => [u32::MAX, u32::MAX],
                    })
                    .collect();
                Some((*id, spans))
            })
    }

    fn lookup(&self, path: &str) -> Option<(u32, Vec<u32>)> {
        self.once(path).or_else(|| {
            if path.len() <= 1 {
                return None;
            }
            match path.strip_suffix('/') {
                Some(shorter) => self.once(shorter),
                None => self.once(&format!("{path}/")),
            }
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn tree_agrees_with_naive_matcher(
        routes in prop::collection::vec(route_strategy(), 1..12),
        paths in prop::collection::vec(path_strategy(), 1..24),
    ) {
        let mut router = Router::new(RouterOptions::default());
        let mut naive = Naive { routes: vec![] };
        for (pattern, re, is_static) in &routes {
            if let Ok(inserted) = router.insert(&["GET"], pattern) {
                naive.routes.push((inserted.id, pattern.clone(), Regex::new(re).unwrap(), *is_static));
            }
        }
        let mut spans = Spans::new();
        for path in &paths {
            let got = match router.find("GET", path, &mut spans) {
                Lookup::Found(id) => Some((id, spans.as_slice().to_vec())),
                Lookup::NotFound => None,
            };
            prop_assert_eq!(got, naive.lookup(path), "routes {:?} path {:?}", routes.iter().map(|r| &r.0).collect::<Vec<_>>(), path);
        }
    }
}

//! Property test: the tree against a naive linear matcher, on random route sets (several methods per
//! route, constraints, segment tails, optional parameters, wildcards, regex blocks) and random paths
//! (percent escapes, valid and malformed, included), in both orders.
//!
//! The naive matcher holds each route as one anchored regex over the whole path. Definition order: an
//! exact static route first, then the first route in id order. Specificity order: the rule written on
//! `Order::Specificity`, as a comparison of the routes' steps (one per static byte, one per dynamic
//! piece). Either way, then the same with one trailing slash toggled. Every parameter value found is
//! also percent-decoded and compared with a naive decoder.
//!
//! A failure is saved to `differential.proptest-regressions` (committed) and replayed first on every
//! later run; `PROPTEST_CASES=20000 cargo test -p arbor-router --test differential` hunts longer.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{decode_param, Lookup, Order, Router, RouterOptions, Spans};
use proptest::prelude::*;
use regex::Regex;
use std::cmp::Ordering;

const METHODS: &[&str] = &["GET", "POST", "PUT"];
/// Lookups also use a method no route has.
const LOOKUP_METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE"];

/// One step of a route along the tree: a static byte, or a dynamic piece with its rank (ROUTING.md §3.2:
/// 1 tail starting with a constrained parameter, 2 constrained parameter, 3 tail starting with an
/// unconstrained one, 4 unconstrained parameter, 5 wildcard or regex block) and what identifies its
/// node (the matcher, whatever the parameter names or spellings).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Byte(u8),
    Dyn(u8, &'static str),
}

fn lit(text: &str) -> Vec<Step> {
    text.bytes().map(Step::Byte).collect()
}

/// A generated piece of a route: pattern text, regex fragment, steps.
struct Piece {
    pattern: String,
    regex: String,
    steps: Vec<Step>,
}

fn piece(pattern: String, regex: &str, steps: Vec<Step>) -> Piece {
    Piece {
        pattern,
        regex: regex.to_owned(),
        steps,
    }
}

/// A segment (`/` and what follows); `i` makes parameter names unique within the route.
fn segment(kind: u8, word: &str, i: usize) -> Piece {
    let with = |mut steps: Vec<Step>, dynamic: Step| {
        steps.push(dynamic);
        steps
    };
    match kind {
        0 => piece(
            format!("/{word}"),
            &format!("/{}", regex::escape(word)),
            lit(&format!("/{word}")),
        ),
        1 => piece(
            format!("/:p{i}"),
            "/([^/]+)",
            with(lit("/"), Step::Dyn(4, "s")),
        ),
        2 => piece(
            format!("/{{p{i}}}"),
            "/([^/]+)",
            with(lit("/"), Step::Dyn(4, "s")),
        ),
        3 => piece(
            format!("/:p{i}<int>"),
            r"/(\d+)",
            with(lit("/"), Step::Dyn(2, "int")),
        ),
        4 => piece(
            format!("/:p{i}<[ab]+>"),
            "/([ab]+)",
            with(lit("/"), Step::Dyn(2, "[ab]+")),
        ),
        5 => piece(
            format!("/{{p{i}}}x"),
            "/([^/]+)x",
            with(lit("/"), Step::Dyn(3, "{}x")),
        ),
        6 => piece(
            format!("/:p{i}.:q{i}"),
            r"/([^/]+)\.([^/]+)",
            with(lit("/"), Step::Dyn(3, "{}.{}")),
        ),
        7 => piece(
            format!("/:p{i}<int>-:q{i}"),
            r"/(\d+)-([^/]+)",
            with(lit("/"), Step::Dyn(1, "int-{}")),
        ),
        _ => piece(
            format!("/v:p{i}"),
            "/v([^/]+)",
            with(lit("/v"), Step::Dyn(4, "s")),
        ),
    }
}
const SEGMENT_KINDS: u8 = 9;

/// How a route ends.
enum Tail {
    Plain(Piece),
    /// `/:t?`: steps when absent, steps when present (the optional group is the route's last).
    Optional {
        pattern: String,
        regex: String,
        absent: Vec<Step>,
        present: Vec<Step>,
    },
}

fn tail(kind: u8, only: bool, after_static: bool) -> Tail {
    match kind {
        0 => Tail::Plain(piece(
            "/*".into(),
            "/(.*)",
            vec![Step::Byte(b'/'), Step::Dyn(5, "*")],
        )),
        1 => Tail::Plain(piece(
            "/a*".into(),
            "/a(.*)",
            vec![Step::Byte(b'/'), Step::Byte(b'a'), Step::Dyn(5, "*")],
        )),
        2 => Tail::Optional {
            pattern: "/:t?".into(),
            regex: if only { "/([^/]+)?" } else { "(?:/([^/]+))?" }.into(),
            absent: if only { lit("/") } else { vec![] },
            present: vec![Step::Byte(b'/'), Step::Dyn(4, "s")],
        },
        3 => Tail::Plain(piece("/".into(), "/", lit("/"))),
        // A regex block stands after static text only; as the whole pattern it matches the whole path.
        4 if only => Tail::Plain(piece(
            r"{^/(a|1)(.*)$}".into(),
            "/(a|1)(.*)",
            vec![Step::Dyn(5, "b/(a|1)(.*)")],
        )),
        4 if after_static => Tail::Plain(piece(
            r"/{^([ab]+)/(\d+)$}".into(),
            r"/([ab]+)/(\d+)",
            vec![Step::Byte(b'/'), Step::Dyn(5, r"b([ab]+)/(\d+)")],
        )),
        _ => Tail::Plain(piece(String::new(), "", vec![])),
    }
}
const TAIL_KINDS: u8 = 6;

const WORDS: &[&str] = &["a", "b", "ab", "1"];

#[derive(Debug, Clone)]
struct Route {
    methods: Vec<&'static str>,
    pattern: String,
    regex: String,
    is_static: bool,
    /// The steps of each variant: with a present optional parameter last.
    variants: Vec<Vec<Step>>,
    optional: bool,
}

fn route_strategy() -> impl Strategy<Value = Route> {
    (
        prop::collection::vec((0u8..SEGMENT_KINDS, 0usize..WORDS.len()), 0..4),
        0u8..TAIL_KINDS,
        prop::sample::subsequence(METHODS, 1..=METHODS.len()),
    )
        .prop_map(|(segs, t, methods)| {
            let mut pattern = String::new();
            let mut re = String::from("(?s)^");
            let mut steps = Vec::new();
            let mut is_static = true;
            for (i, (kind, w)) in segs.iter().enumerate() {
                let p = segment(*kind, WORDS[*w], i);
                is_static &= *kind == 0;
                pattern.push_str(&p.pattern);
                re.push_str(&p.regex);
                steps.extend(p.steps);
            }
            let (variants, optional) = match tail(t, segs.is_empty(), is_static) {
                Tail::Plain(p) => {
                    is_static &= !p.steps.iter().any(|s| matches!(s, Step::Dyn(..)));
                    pattern.push_str(&p.pattern);
                    re.push_str(&p.regex);
                    steps.extend(p.steps);
                    (vec![steps], false)
                }
                Tail::Optional {
                    pattern: p,
                    regex,
                    absent,
                    present,
                } => {
                    is_static = false;
                    pattern.push_str(&p);
                    re.push_str(&regex);
                    let mut without = steps.clone();
                    without.extend(absent);
                    steps.extend(present);
                    (vec![without, steps], true)
                }
            };
            let mut variants = variants;
            if pattern.is_empty() {
                pattern.push('/');
                re.push('/');
                variants = vec![lit("/")];
            }
            re.push('$');
            Route {
                methods,
                pattern,
                regex: re,
                is_static,
                variants,
                optional,
            }
        })
}

fn path_strategy() -> impl Strategy<Value = String> {
    const SEGS: &[&str] = &[
        "a",
        "b",
        "ab",
        "1",
        "12",
        "x",
        "1x",
        "a.b",
        "a.b.c",
        "va",
        "v1",
        "",
        "ax",
        "1-2",
        "1-a",
        "ab1",
        "a%20b",
        "%2F",
        "%zz",
        "caf%C3%A9",
        "%E0%A4%A",
        "%41",
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

/// A registered route as the naive matcher keeps it.
struct Known {
    id: u32,
    route: Route,
    regex: Regex,
}

struct Naive {
    order: Order,
    routes: Vec<Known>,
}

/// A match of one route: its id, its spans, and the steps of the variant that matched.
type Candidate<'a> = (u32, Vec<u32>, &'a [Step]);

impl Naive {
    fn of(&self, method: &str) -> Vec<&Known> {
        self.routes
            .iter()
            .filter(|k| k.route.methods.contains(&method))
            .collect()
    }

    fn candidates<'a>(&'a self, method: &str, path: &str) -> Vec<Candidate<'a>> {
        self.of(method)
            .into_iter()
            .filter_map(|k| {
                let caps = k.regex.captures(path)?;
                let spans = (1..caps.len())
                    .flat_map(|g| match caps.get(g) {
                        Some(m) => [m.start() as u32, m.end() as u32],
                        None => [u32::MAX, u32::MAX],
                    })
                    .collect();
                let present = !k.route.optional || caps.get(caps.len() - 1).is_some();
                let variant = &k.route.variants[if present {
                    k.route.variants.len() - 1
                } else {
                    0
                }];
                Some((k.id, spans, variant.as_slice()))
            })
            .collect()
    }

    /// The smallest id of the routes of `method` having a variant that starts with `prefix`: the
    /// tree orders sibling nodes of equal rank by it.
    fn first_below(&self, method: &str, prefix: &[Step]) -> u32 {
        self.of(method)
            .into_iter()
            .filter(|k| k.route.variants.iter().any(|v| v.starts_with(prefix)))
            .map(|k| k.id)
            .min()
            .unwrap_or(u32::MAX)
    }

    /// `Order::Specificity` between two matches of `method` (Less: `a` wins).
    fn specificity(&self, method: &str, a: &Candidate, b: &Candidate) -> Ordering {
        let (sa, sb) = (a.2, b.2);
        let Some(i) = (0..sa.len().max(sb.len())).find(|&i| sa.get(i) != sb.get(i)) else {
            return a.0.cmp(&b.0); // identical steps: the earlier route
        };
        match (sa.get(i), sb.get(i)) {
            (None, _) => Ordering::Less, // `a` ends here
            (_, None) => Ordering::Greater,
            (Some(Step::Byte(x)), Some(Step::Byte(y))) => x.cmp(y),
            (Some(Step::Byte(_)), Some(Step::Dyn(..))) => Ordering::Less,
            (Some(Step::Dyn(..)), Some(Step::Byte(_))) => Ordering::Greater,
            (Some(Step::Dyn(ra, _)), Some(Step::Dyn(rb, _))) => ra.cmp(rb).then_with(|| {
                self.first_below(method, &sa[..=i])
                    .cmp(&self.first_below(method, &sb[..=i]))
            }),
        }
    }

    fn once(&self, method: &str, path: &str) -> Option<(u32, Vec<u32>)> {
        if let Some(k) = self
            .of(method)
            .into_iter()
            .find(|k| k.route.is_static && k.route.pattern == path)
        {
            return Some((k.id, vec![]));
        }
        let candidates = self.candidates(method, path);
        let best = match self.order {
            Order::Specificity => candidates
                .into_iter()
                .min_by(|a, b| self.specificity(method, a, b)),
            _ => candidates.into_iter().min_by_key(|c| c.0),
        };
        best.map(|(id, spans, _)| (id, spans))
    }

    fn lookup(&self, method: &str, path: &str) -> Option<(u32, Vec<u32>)> {
        self.once(method, path).or_else(|| {
            if path.len() <= 1 {
                return None;
            }
            match path.strip_suffix('/') {
                Some(shorter) => self.once(method, shorter),
                None => self.once(method, &format!("{path}/")),
            }
        })
    }
}

/// Percent-decoding as ROUTING.md §3 rule 6 states it: `%XX` is a byte, everything else itself; a `%` without
/// two hex digits, or bytes that are not UTF-8, is malformed (`None`).
fn naive_decode(raw: &str) -> Option<String> {
    let mut bytes = Vec::new();
    let mut rest = raw.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                return None;
            }
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn tree_agrees_with_naive_matcher(
        specificity in any::<bool>(),
        routes in prop::collection::vec(route_strategy(), 1..12),
        paths in prop::collection::vec(path_strategy(), 1..24),
    ) {
        let order = if specificity { Order::Specificity } else { Order::Definition };
        let mut router = Router::new(RouterOptions { order, ..RouterOptions::default() });
        let mut naive = Naive { order, routes: vec![] };
        for route in &routes {
            if let Ok(inserted) = router.insert(&route.methods, &route.pattern) {
                naive.routes.push(Known { id: inserted.id, route: route.clone(), regex: Regex::new(&route.regex).unwrap() });
            }
        }
        let table: Vec<_> = routes.iter().map(|r| (r.methods.join(","), &r.pattern)).collect();
        let mut spans = Spans::new();
        for path in &paths {
            let mut allowed = vec![];
            for &method in LOOKUP_METHODS {
                let got = match router.find(method, path, &mut spans) {
                    Lookup::Found(id) => Some((id, spans.as_slice().to_vec())),
                    Lookup::NotFound => None,
                };
                let want = naive.lookup(method, path);
                prop_assert_eq!(&got, &want, "{:?} routes {:?} {} {:?}", order, table, method, path);
                if let Some((_, found)) = got {
                    allowed.push(method.to_owned());
                    // Decoding may be needed exactly when there are values and the part of the path
                    // matched holds a `%` (a non-ASCII character is matched percent-encoded).
                    let matched = path.split(['?', '#']).next().unwrap_or_default();
                    let escaped = !found.is_empty() && matched.bytes().any(|b| b == b'%' || b >= 0x80);
                    prop_assert_eq!(spans.escaped(), escaped, "escaped {:?}", path);
                    // Values are sliced from the raw path (one past its end when a slash was added).
                    for pair in found.chunks(2).filter(|p| p[0] != u32::MAX) {
                        let raw = path.get(pair[0] as usize..pair[1] as usize).unwrap_or_default();
                        prop_assert_eq!(decode_param(raw).ok().map(|v| v.into_owned()), naive_decode(raw), "value {:?}", raw);
                    }
                }
            }
            allowed.sort();
            prop_assert_eq!(router.allowed_methods(path.as_bytes()), allowed, "allowed methods of {:?}", path);
        }
    }
}

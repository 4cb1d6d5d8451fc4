//! Registration: errors with positions (ROUTING.md §2, last paragraph), conflicts (ROUTING.md §3 rule 4), shadowing
//! (ROUTING.md §3.2), names, route metadata and its JSON, and `decode_param` (ROUTING.md §3 rule 6).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use arbor_router::{
    decode_param, InsertError, Lookup, Order, ParamKind, Router, RouterOptions, Spans,
};

fn definition() -> Router {
    Router::new(RouterOptions::default())
}

/// (pattern, expected code, expected position (None: the variant has none)).
const INVALID: &[(&str, &str, Option<usize>)] = &[
    ("", "INVALID_PATTERN", Some(0)),
    ("users", "INVALID_PATTERN", Some(0)),
    ("/a/:", "INVALID_PATTERN", Some(3)),
    ("/a/:/b", "INVALID_PATTERN", Some(3)),
    ("/a/{}", "INVALID_PATTERN", Some(3)),
    ("/a/{id", "INVALID_PATTERN", Some(3)),
    ("/a/{id/b}", "INVALID_PATTERN", Some(6)),
    ("/a/}", "INVALID_PATTERN", Some(3)),
    ("/a/:id<int", "INVALID_PATTERN", Some(6)),
    ("/a/:id<(?P<x>\\d+)", "INVALID_PATTERN", Some(6)),
    ("/a/*/b", "INVALID_PATTERN", Some(3)),
    ("/a/*b", "INVALID_PATTERN", Some(3)),
    ("/a?b", "INVALID_PATTERN", Some(2)),
    ("/a#b", "INVALID_PATTERN", Some(2)),
    ("/a/:x-*", "INVALID_PATTERN", Some(6)),
    ("/a/{^x$}/b", "INVALID_PATTERN", Some(8)),
    // The scanner finds no end, but the block's regex is the mistake: the regex crate's message.
    ("/a/{^(x$}", "INVALID_CONSTRAINT", Some(3)),
    ("/a/:id<[0-9>", "INVALID_CONSTRAINT", Some(7)), // `[0-9>` leaves a class open
    ("/a/:id<[>", "INVALID_CONSTRAINT", Some(7)),
    ("/a/:id<integer>", "INVALID_CONSTRAINT", Some(7)), // a bare word must be a shortcut
    ("/a/:id<>", "INVALID_CONSTRAINT", Some(7)),
    ("/a/:id<a{2,1}>", "INVALID_CONSTRAINT", Some(7)),
    ("/a/:id<(x>", "INVALID_CONSTRAINT", Some(7)),
    ("/a/:id<x)>", "INVALID_CONSTRAINT", Some(7)),
    ("/a/{^x)$}", "INVALID_CONSTRAINT", Some(3)),
    (r"/a/:id<\w{1000}{1000}>", "INVALID_CONSTRAINT", Some(7)), // over the size limit
    ("/a/:b?/c", "INVALID_OPTIONAL", Some(3)),
    ("/a-:b?", "INVALID_OPTIONAL", Some(3)),
    ("/a/:b?.json", "INVALID_OPTIONAL", Some(3)),
    ("/a/:id/:id", "DUPLICATE_PARAM", Some(7)), // the second occurrence
    ("/a/:id.{id}", "DUPLICATE_PARAM", Some(7)),
    (r"/a/:year/{^(?P<year>\d+)$}", "DUPLICATE_PARAM", Some(9)), // the block of the named group
];

#[test]
fn invalid_patterns_name_the_pattern_and_the_position() {
    for (pattern, code, position) in INVALID {
        let Err(err) = definition().insert(&["GET"], pattern) else {
            panic!("{pattern} was accepted");
        };
        assert_eq!(err.code(), *code, "{pattern}: {err}");
        assert_eq!(err.position(), *position, "{pattern}: {err}");
        assert_eq!(err.pattern(), Some(*pattern));
        let message = err.to_string();
        assert!(message.contains(&format!("{pattern:?}")), "{message}");
        if let Some(p) = position {
            assert!(message.contains(&format!("byte {p}")), "{message}");
        }
    }
}

#[test]
fn constraints_with_nested_brackets_parse() {
    let mut router = definition();
    for pattern in [
        r"/a/:id<(?P<x>\d+)>",
        r"/b/:id<\d{2}>",
        r"/c/:id<[>]+>",
        r"/d/:id<\>>",
        r"/e/{id<[a-z]{2,3}>}",
        r"/f/{^(?P<x>[{}]+)$}",
    ] {
        router
            .insert(&["GET"], pattern)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"));
    }
}

#[test]
fn too_many_params() {
    let ok: String = (0..32).map(|i| format!("/:p{i}")).collect();
    definition().insert(&["GET"], &ok).unwrap();
    let too_many: String = (0..33).map(|i| format!("/:p{i}")).collect();
    let err = definition().insert(&["GET"], &too_many).unwrap_err();
    assert!(
        matches!(err, InsertError::TooManyParams { count: 33, .. }),
        "{err}"
    );
    assert_eq!(err.code(), "TOO_MANY_PARAMS");
    // Named groups count as a parameter and a capture.
    let block = format!(
        "/x{{^{}$}}",
        (0..17).map(|i| format!("(?P<g{i}>a)")).collect::<String>()
    );
    assert_eq!(
        definition().insert(&["GET"], &block).unwrap_err().code(),
        "TOO_MANY_PARAMS"
    );
}

#[test]
fn conflicts_name_both_routes() {
    let mut router = definition();
    router.insert(&["GET", "POST"], "/users/:id").unwrap();
    let err = router.insert(&["PUT", "POST"], "/users/:id").unwrap_err();
    assert_eq!(
        err,
        InsertError::Conflict {
            pattern: "/users/:id".into(),
            method: "POST".into(),
            with: 0,
            with_pattern: "/users/:id".into()
        }
    );
    assert_eq!(err.code(), "ROUTE_CONFLICT");
    assert!(err.to_string().contains("/users/:id"));
    // Same shape, other names or syntax: still the same route.
    assert_eq!(
        router.insert(&["GET"], "/users/{name}").unwrap_err().code(),
        "ROUTE_CONFLICT"
    );
    // A refused route leaves the router untouched.
    assert_eq!(router.routes().len(), 1);
    // Other methods, other shapes, `/x` vs `/x/`: no conflict.
    router.insert(&["PUT"], "/users/:id").unwrap();
    router.insert(&["GET"], "/users/:id<int>").unwrap();
    router.insert(&["GET"], "/users/:id/").unwrap();
    router.insert(&["GET"], "/x").unwrap();
    router.insert(&["GET"], "/x/").unwrap();
    // The absent variant of an optional parameter is the same as a shorter route: not a conflict
    // (ROUTING.md §3 rule 4: only the same pattern is); the earlier keeps `/s/x`, but `/s/x/2` still
    // reaches the later, so it is not reported shadowed (issue 13: only a route all of whose paths
    // are taken is). The same optional pattern twice is a conflict.
    router.insert(&["GET"], "/s/:q").unwrap();
    let optional = router.insert(&["GET"], "/s/:q/:page?").unwrap();
    assert_eq!(optional.shadowed_by, None);
    assert_eq!(
        router.insert(&["GET"], "/s/:x/:y?").unwrap_err(),
        InsertError::Conflict {
            pattern: "/s/:x/:y?".into(),
            method: "GET".into(),
            with: optional.id,
            with_pattern: "/s/:q/:page?".into()
        }
    );
    // Static routes conflict as text (after percent-encoding).
    router.insert(&["GET"], "/café").unwrap();
    assert_eq!(
        router.insert(&["GET"], "/caf%C3%A9").unwrap_err().code(),
        "ROUTE_CONFLICT"
    );
}

/// (earlier routes, new route, index of the earlier route expected to shadow it).
const SHADOWING: &[(&[&str], &str, Option<usize>)] = &[
    (
        &["/repos/:o/:r/:format/:ref"],
        "/repos/:o/:r/commits/:ref",
        Some(0),
    ),
    (&["/a/:x"], "/a/:y<int>", Some(0)),
    (&["/a/:x<int>"], "/a/:y", None),
    (&["/a/:x<int>"], "/a/:y<\\d+>", None), // conflict-free: a different matcher text
    (&["/a/:x<int>/b"], "/a/:y<int>/b/:z", None),
    (&["/a/*"], "/a/b/:c", Some(0)),
    (&["/a/*"], "/a", None),
    (&["/*"], "/:x/y/{^(\\d+)$}", Some(0)),
    (&["/a/:x"], "/a/:x.json", Some(0)),
    (&["/a/:x.json"], "/a/:y", None),
    (&["/a/:x.:y"], "/a/b.c", None), // a static route always wins: never shadowed
    (&["/a/:x.:y"], "/a/:p.json", None), // conservative: non-terminal parameter
    (&["/a/b"], "/a/:x", None),
    (&["/s/:q/:p?"], "/s/:x", Some(0)), // identical to the variant without `:p`
    (&["/s/:q/:p?"], "/s/:x/:y/z", None),
    (&["/s/:q/:p?"], "/s/:x/2", Some(0)),
    (&["/s/:q"], "/s/:x/:y?", None), // partly: `/s/x/y` is still reachable (issue 13)
    (&["/s/:q/:p"], "/s/:x/:y?", None), // partly: `/s/x` is still reachable
    (&["/x/:a", "/s/:q", "/s/:q/:p"], "/s/:x/:y?", Some(1)), // each variant by another route
    (&["/s/*"], "/s/:x/:y?", Some(0)), // both variants by one route
    (&["/search/:t/:p"], "/search/:term/:page?", None), // the reported false positive
    (&["/:p.:q/*"], "/:p.:q/a", Some(0)), // identical multi-piece segments contain each other
    (&["/:p.:q/*"], "/:p.:r<int>/a", None), // conservative: not identical
    (&["/x/{^a$}"], "/x/{^a$}", None), // conflict
    (&["/x/{^a+$}"], "/x/{^a$}", None),
    // Constraint and block sources compare by their text (the index keeps them numbered).
    (&["/n/:x<int>/*"], "/n/:y<int>/b", Some(0)),
    (&["/n/:x<int>/*"], "/n/:y<[a-z]+>/b", None), // a source the index has never seen
    (&["/n/:x<int>/*", "/m/:x<alpha>"], "/n/:y<alpha>/b", None), // seen, on another route
    (&["/c/:p/{^(\\d+)$}"], "/c/x/{^(\\d+)$}", Some(0)),
    (&["/c/:p/{^(\\d+)$}"], "/c/x/{^(\\w+)$}", None),
];

#[test]
fn shadowing_is_reported_never_an_error() {
    for (earlier, pattern, want) in SHADOWING {
        let mut router = definition();
        for e in *earlier {
            router.insert(&["GET"], e).unwrap();
        }
        match router.insert(&["GET"], pattern) {
            Ok(inserted) => {
                assert_eq!(
                    inserted.shadowed_by,
                    want.map(|w| w as u32),
                    "{earlier:?} then {pattern}"
                );
                assert_eq!(
                    router.routes()[inserted.id as usize].shadowed_by,
                    inserted.shadowed_by
                );
            }
            Err(e) => assert_eq!((e.code(), *want), ("ROUTE_CONFLICT", None), "{pattern}"),
        }
    }
}

#[test]
fn shadowing_needs_a_shared_method_and_definition_order() {
    let mut router = definition();
    router.insert(&["POST"], "/a/:x").unwrap();
    assert_eq!(
        router.insert(&["GET"], "/a/:y<int>").unwrap().shadowed_by,
        None
    );
    assert_eq!(
        router
            .insert(&["GET", "POST"], "/a/:y<alpha>")
            .unwrap()
            .shadowed_by,
        Some(0)
    );
    let mut specific = Router::new(RouterOptions {
        order: Order::Specificity,
        ..RouterOptions::default()
    });
    specific.insert(&["GET"], "/a/:x").unwrap();
    assert_eq!(
        specific.insert(&["GET"], "/a/:y<int>").unwrap().shadowed_by,
        None
    );
}

#[test]
fn names_are_unique() {
    let mut router = definition();
    let a = router.insert(&["GET"], "/a").unwrap().id;
    let b = router.insert(&["GET"], "/b").unwrap().id;
    router.set_name(a, "a").unwrap();
    router.set_name(a, "a").unwrap(); // renaming to its own name is fine
    let err = router.set_name(b, "a").unwrap_err();
    assert_eq!(
        err,
        InsertError::DuplicateName {
            name: "a".into(),
            with: a
        }
    );
    assert_eq!(err.code(), "DUPLICATE_NAME");
    let err = router.set_name(9, "z").unwrap_err();
    assert_eq!(
        (err.code(), err.to_string()),
        ("UNKNOWN_ROUTE", "unknown route id 9".to_owned())
    );
    // A renamed route frees its old name, and the new one is taken.
    router.set_name(a, "first").unwrap();
    router.set_name(b, "a").unwrap();
    assert_eq!(router.routes()[a as usize].name.as_deref(), Some("first"));
    assert_eq!(router.routes()[b as usize].name.as_deref(), Some("a"));
    assert_eq!(
        router.set_name(a, "a").unwrap_err().code(),
        "DUPLICATE_NAME"
    );
    // A loaded router knows the names the snapshot holds.
    let mut loaded = Router::deserialize(&router.serialize()).unwrap();
    assert_eq!(
        loaded.set_name(b, "first").unwrap_err().code(),
        "DUPLICATE_NAME"
    );
    loaded.set_name(b, "second").unwrap();
    loaded.set_name(a, "a").unwrap();
}

#[test]
fn metadata_describes_each_route() {
    let mut router = definition();
    router
        .insert(&["GET", "HEAD", "GET"], "/posts/:id<int>")
        .unwrap();
    router.insert(&["GET"], "/search/:q/:page?").unwrap();
    router.insert(&["GET"], "/files/*").unwrap();
    router
        .insert(&["GET"], r"/archive/{^(?P<y>\d{4})/(\d{2})$}")
        .unwrap();
    router
        .insert(&["GET"], r"/f/:name<[\w-]+>.:ext<jpg|png>")
        .unwrap();
    router.insert(&["GET"], "/café").unwrap();
    let r = router.routes();
    assert_eq!(r[0].methods, ["GET", "HEAD"]);
    assert_eq!(r[0].template, "/posts/{id}");
    assert_eq!(r[0].params[0].shortcut.as_deref(), Some("int"));
    assert!(!r[0].is_static);
    assert_eq!(r[1].template, "/search/{q}/{page}");
    assert_eq!(
        (r[1].params[1].kind, r[1].params[1].optional),
        (ParamKind::Optional, true)
    );
    assert_eq!(r[2].template, "/files/{*}");
    assert_eq!(
        (r[2].params[0].name.as_str(), r[2].params[0].kind),
        ("*", ParamKind::Wildcard)
    );
    assert_eq!(r[3].template, r"/archive/{^(?P<y>\d{4})/(\d{2})$}");
    assert_eq!(r[3].captures, 2);
    assert_eq!(
        (r[3].params[0].name.as_str(), r[3].params[0].kind),
        ("y", ParamKind::RegexGroup)
    );
    assert_eq!(r[3].span_len(), 6);
    assert_eq!(r[4].template, "/f/{name}.{ext}");
    assert_eq!(r[4].params[1].regex.as_deref(), Some("jpg|png"));
    assert_eq!(r[5].template, "/café");
    assert!(r[5].is_static);
}

#[test]
fn decode_param_table() {
    let ok: &[(&str, &str)] = &[
        ("plain", "plain"),
        ("a%20b", "a b"),
        ("a%2Fb", "a/b"),
        ("a%2fb", "a/b"),
        ("caf%C3%A9", "café"),
        ("a+b", "a+b"),
        ("%25", "%"),
        ("", ""),
    ];
    for (raw, want) in ok {
        assert_eq!(decode_param(raw).unwrap(), *want, "{raw}");
    }
    let bad: &[(&str, usize)] = &[
        ("%", 0),
        ("a%2", 1),
        ("%zz", 0),
        ("x%E0%A4%A", 7),
        ("%C3", 0),
        ("ok%FF", 2),
    ];
    for (raw, position) in bad {
        assert_eq!(decode_param(raw).unwrap_err().position, *position, "{raw}");
    }
}

/// Part A decision (ROUTING.md §3 rule 4, §3.2): an optional route and a route equal to one of its variants
/// are not a conflict; the leaf they share goes to a static route if one is involved, else to the
/// earlier route (definition order). The later dynamic route is reported shadowed only when all its
/// paths are taken (`/f/:b` under `/f/:a?`), not when only one variant is (`/g/:b?` under `/g/:a`).
#[test]
fn shared_variants_go_to_the_earlier_route() {
    let mut router = definition();
    let fa = router.insert(&["GET"], "/f/:a?").unwrap().id;
    let fb = router.insert(&["GET"], "/f/:b").unwrap();
    let f = router.insert(&["GET"], "/f").unwrap();
    let ga = router.insert(&["GET"], "/g/:a").unwrap().id;
    let gb = router.insert(&["GET"], "/g/:b?").unwrap();
    assert_eq!((fb.shadowed_by, f.shadowed_by), (Some(fa), None));
    assert_eq!(gb.shadowed_by, None);
    let mut spans = Spans::new();
    for (path, want) in [
        ("/f/x", fa),
        ("/f", f.id),
        ("/f/", f.id),
        ("/g/x", ga),
        ("/g", gb.id),
    ] {
        assert_eq!(
            router.find("GET", path, &mut spans),
            Lookup::Found(want),
            "{path}"
        );
        let loaded = Router::deserialize(&router.serialize()).unwrap();
        assert_eq!(
            loaded.find("GET", path, &mut spans),
            Lookup::Found(want),
            "{path}"
        );
    }
    // After a snapshot load the index is rebuilt: the same pattern still conflicts.
    let mut loaded = Router::deserialize(&router.serialize()).unwrap();
    assert_eq!(
        loaded.insert(&["GET"], "/g/:c?").unwrap_err().code(),
        "ROUTE_CONFLICT"
    );
    // `/g/x` is taken by `/g/:a`, `/g/x/y` by nothing: not shadowed.
    assert_eq!(
        loaded.insert(&["GET"], "/g/:c/:d?").unwrap().shadowed_by,
        None
    );
    assert_eq!(
        loaded.insert(&["GET"], "/g/:x/:y").unwrap().shadowed_by,
        Some(ga + 2)
    );
}

/// Issue 13: the message a user sees for a misspelt shortcut and for a regex left unbalanced.
#[test]
fn constraint_mistakes_say_what_is_wrong() {
    let message = |pattern: &str| {
        definition()
            .insert(&["GET"], pattern)
            .unwrap_err()
            .to_string()
    };
    let integer = message("/a/:id<integer>");
    assert!(integer.contains("did you mean int?"), "{integer}");
    assert!(
        integer.contains("int, slug, alpha, alnum, uuid, date, year, month, day"),
        "{integer}"
    );
    assert!(message("/a/:s<slg>").contains("did you mean slug?"));
    // A regex that spells the word out is still a regex.
    let mut router = definition();
    router.insert(&["GET"], "/a/:id<(?:integer)>").unwrap();
    let mut spans = Spans::new();
    assert!(matches!(
        router.find("GET", "/a/integer", &mut spans),
        Lookup::Found(0)
    ));
    // The regex crate's own words, not "unclosed '<'" or "unclosed regex block".
    let class = message("/a/:id<[>");
    assert!(class.contains("unclosed character class"), "{class}");
    assert!(!class.contains("unclosed '<'"), "{class}");
    let group = message("/x/{^(a$}");
    assert!(group.contains("unclosed group"), "{group}");
    // A `<` really left open is still reported as such.
    assert!(message(r"/a/:id<(?P<x>\d+)").contains("unclosed '<'"));
}

/// Issue 13: routes carry their pattern as the parser read it; `::` is literal text.
#[test]
fn metadata_carries_the_pattern_pieces() {
    use arbor_router::{pattern_pieces, ConstraintKind, PatternPiece};
    let mut router = definition();
    router
        .insert(&["GET"], r"/v1/:name::publish/{id<int>}/:x<[a-z]+>/*")
        .unwrap();
    router
        .insert(&["GET"], r"/y/{^(?P<year>\d{4})/(\d{2})$}")
        .unwrap();
    let text = |t: &str| PatternPiece::Text(t.to_owned());
    let param =
        |name: &str, constraint, shortcut: Option<&str>, regex: Option<&str>| PatternPiece::Param {
            name: name.to_owned(),
            constraint,
            shortcut: shortcut.map(str::to_owned),
            regex: regex.map(str::to_owned),
            optional: false,
        };
    assert_eq!(
        router.routes()[0].pieces,
        [
            text("/v1/"),
            param("name", ConstraintKind::None, None, None),
            text(":publish/"),
            param("id", ConstraintKind::Shortcut, Some("int"), Some(r"\d+")),
            text("/"),
            param("x", ConstraintKind::Regex, None, Some("[a-z]+")),
            text("/"),
            PatternPiece::Wildcard,
        ]
    );
    assert_eq!(
        router.routes()[1].pieces[1],
        PatternPiece::Regex {
            source: r"^(?P<year>\d{4})/(\d{2})$".to_owned(),
            captures: vec![Some("year".to_owned()), None],
        }
    );
    assert_eq!(pattern_pieces("/y/:q?").unwrap().len(), 2);
}

//! The matching table: ROUTING.md §2 (syntax), §3 (rules), §3.1 (edge cases), §3.2 (order, shadowing).
//! Each test is a list of routes and rows of (path → winning pattern, values cut by its spans:
//! parameters in `RouteInfo::params` order, then regex captures).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use arbor_router::Order::{Definition, Specificity};
use arbor_router::{Lookup, Spans};
use common::{check, check_both, ABSENT};

// ---- ROUTING.md §2: syntax ----------------------------------------------------------------

#[test]
fn static_routes() {
    check_both(
        &["/", "/users", "/users/all", "/user", "/about/team/"],
        &[
            ("/", Some("/"), &[]),
            ("/users", Some("/users"), &[]),
            ("/users/all", Some("/users/all"), &[]),
            ("/user", Some("/user"), &[]),
            ("/use", None, &[]),
            ("/usersx", None, &[]),
            ("/about/team/", Some("/about/team/"), &[]),
            ("/Users", None, &[]), // case-sensitive (ROUTING.md §3 rule 5)
            ("", None, &[]),
            ("users", None, &[]),
        ],
    );
}

#[test]
fn colon_param_is_one_non_empty_segment() {
    check_both(
        &["/users/:id", "/users/:id/posts/:post"],
        &[
            ("/users/42", Some("/users/:id"), &["42"]),
            (
                "/users/42/posts/7",
                Some("/users/:id/posts/:post"),
                &["42", "7"],
            ),
            ("/users/a/b", None, &[]),
            ("/users/", None, &[]),
            ("/users/42/posts/", None, &[]),
            ("/users/%20x", Some("/users/:id"), &["%20x"]), // raw: decoded later (ROUTING.md §3 rule 6)
            ("/users/a%2Fb", Some("/users/:id"), &["a%2Fb"]), // %2F never splits a segment
        ],
    );
}

#[test]
fn optional_param_last_segment() {
    check_both(
        &["/search/:q/:page?", "/:lang?"],
        &[
            ("/search/php", Some("/search/:q/:page?"), &["php", ABSENT]),
            ("/search/php/2", Some("/search/:q/:page?"), &["php", "2"]),
            ("/search/php/", Some("/search/:q/:page?"), &["php", ABSENT]), // trailing slash retry
            ("/search", Some("/:lang?"), &["search"]),
            ("/search/php/2/3", None, &[]),
            ("/", Some("/:lang?"), &[ABSENT]),
            ("/en", Some("/:lang?"), &["en"]),
        ],
    );
    // Same route id both ways.
    let router = common::router(Definition, &["/search/:q/:page?"]);
    let mut spans = Spans::new();
    assert_eq!(
        router.find("GET", "/search/a", &mut spans),
        Lookup::Found(0)
    );
    assert_eq!(
        router.find("GET", "/search/a/1", &mut spans),
        Lookup::Found(0)
    );
}

#[test]
fn optional_param_with_constraint_and_braces() {
    check_both(
        &["/a/:n<int>?", "/b/{n?}", "/c/{n<int>?}", "/d/:n?<int>"],
        &[
            ("/a", Some("/a/:n<int>?"), &[ABSENT]),
            ("/a/5", Some("/a/:n<int>?"), &["5"]),
            ("/a/x", None, &[]),
            ("/b", Some("/b/{n?}"), &[ABSENT]),
            ("/b/x", Some("/b/{n?}"), &["x"]),
            ("/c/7", Some("/c/{n<int>?}"), &["7"]),
            ("/c/x", None, &[]),
            ("/d/7", Some("/d/:n?<int>"), &["7"]),
        ],
    );
}

#[test]
fn brace_param_is_colon_param() {
    check_both(
        &["/posts/{id}", "/posts/{id}/c/{cid<int>}"],
        &[
            ("/posts/abc", Some("/posts/{id}"), &["abc"]),
            (
                "/posts/1/c/2",
                Some("/posts/{id}/c/{cid<int>}"),
                &["1", "2"],
            ),
            ("/posts/1/c/x", None, &[]),
        ],
    );
}

#[test]
fn constraint_shortcuts() {
    check_both(
        &[
            "/int/:v<int>",
            "/slug/:v<slug>",
            "/alpha/:v<alpha>",
            "/alnum/:v<alnum>",
            "/uuid/:v<uuid>",
            "/date/:v<date>",
            "/year/:v<year>",
            "/month/:v<month>",
            "/day/:v<day>",
        ],
        &[
            ("/int/123", Some("/int/:v<int>"), &["123"]),
            ("/int/12a", None, &[]),
            ("/slug/my-post-2", Some("/slug/:v<slug>"), &["my-post-2"]),
            ("/slug/My-Post", None, &[]),
            ("/alpha/abcXYZ", Some("/alpha/:v<alpha>"), &["abcXYZ"]),
            ("/alpha/abc1", None, &[]),
            ("/alnum/abc1", Some("/alnum/:v<alnum>"), &["abc1"]),
            ("/alnum/abc-1", None, &[]),
            (
                "/uuid/123e4567-e89b-12d3-a456-426614174000",
                Some("/uuid/:v<uuid>"),
                &["123e4567-e89b-12d3-a456-426614174000"],
            ),
            ("/uuid/123E4567-E89B-12D3-A456-426614174000", None, &[]), // lowercase only
            ("/uuid/123e4567e89b12d3a456426614174000", None, &[]),
            ("/date/2024-02-29", Some("/date/:v<date>"), &["2024-02-29"]),
            ("/date/2024-2-29", None, &[]),
            ("/year/2024", Some("/year/:v<year>"), &["2024"]),
            ("/year/24", None, &[]),
            ("/month/02", Some("/month/:v<month>"), &["02"]),
            ("/month/2", None, &[]),
            ("/day/31", Some("/day/:v<day>"), &["31"]),
            ("/day/311", None, &[]),
        ],
    );
}

#[test]
fn regex_constraints_are_anchored_and_never_cross_slash() {
    check_both(
        &[
            r"/n/:v<\d+>",
            r"/w/:v<[\w-]+>",
            r"/v/:v<v\d+>",
            "/any/:v<.+>",
            "/alt/:v<jpg|png>",
            r"/nest/:v<(?P<x>a)(b){2}>",
            r"/anch/:v<^\d+$>",
            r"/dw/:v<\d+\w*>",
        ],
        &[
            ("/n/0042", Some(r"/n/:v<\d+>"), &["0042"]),
            ("/n/42x", None, &[]),
            ("/w/my_image-2", Some(r"/w/:v<[\w-]+>"), &["my_image-2"]),
            ("/w/a.b", None, &[]),
            ("/v/v12", Some(r"/v/:v<v\d+>"), &["v12"]),
            ("/v/xv12", None, &[]), // anchored at the start
            ("/v/v12x", None, &[]), // and at the end
            ("/any/a", Some("/any/:v<.+>"), &["a"]),
            ("/any/a/b", None, &[]), // `.+` does not cross `/`
            ("/alt/jpg", Some("/alt/:v<jpg|png>"), &["jpg"]),
            ("/alt/jpgx", None, &[]), // the alternation is anchored as a whole
            ("/alt/xpng", None, &[]),
            ("/nest/abb", Some(r"/nest/:v<(?P<x>a)(b){2}>"), &["abb"]),
            ("/anch/12", Some(r"/anch/:v<^\d+$>"), &["12"]),
            // Not a shortcut's text, so the regex engine runs: `\d` and `\w` need unicode-perl.
            ("/dw/12ab_c", Some(r"/dw/:v<\d+\w*>"), &["12ab_c"]),
            ("/dw/ab", None, &[]),
        ],
    );
}

#[test]
fn several_params_in_one_segment() {
    check_both(
        &[
            r"/files/:name<[\w-]+>.:ext<jpg|png>",
            "/f/:file.:ext",
            "/r/:a-:b",
            "/base/:base...:head",
        ],
        &[
            (
                "/files/my-image.jpg",
                Some(r"/files/:name<[\w-]+>.:ext<jpg|png>"),
                &["my-image", "jpg"],
            ),
            ("/files/my-image.gif", None, &[]),
            ("/files/my.image.png", None, &[]),
            ("/f/a.b.c", Some("/f/:file.:ext"), &["a.b", "c"]), // splits at the last `.`
            ("/f/a.b", Some("/f/:file.:ext"), &["a", "b"]),
            ("/f/ab", None, &[]),
            ("/f/.b", None, &[]), // `:file` is never empty
            ("/f/a.", None, &[]),
            ("/r/x-y-z", Some("/r/:a-:b"), &["x-y", "z"]),
            ("/base/a...b", Some("/base/:base...:head"), &["a", "b"]),
        ],
    );
}

#[test]
fn literal_text_beside_params() {
    check_both(
        &[
            "/user_:name",
            r"/v:version<\d+>/info",
            "/npm/@:pkg",
            "/img/:bar.png",
            "/{id}x",
            "/range/:from-:to",
            "/v1/{name}::publish",
        ],
        &[
            ("/user_bob", Some("/user_:name"), &["bob"]),
            ("/user_", None, &[]),
            ("/v2/info", Some(r"/v:version<\d+>/info"), &["2"]),
            ("/vx/info", None, &[]),
            ("/npm/@scope", Some("/npm/@:pkg"), &["scope"]),
            ("/img/logo.png", Some("/img/:bar.png"), &["logo"]),
            ("/img/logo.jpg", None, &[]),
            ("/42x", Some("/{id}x"), &["42"]),
            ("/x", None, &[]),
            ("/range/1-5", Some("/range/:from-:to"), &["1", "5"]),
            ("/v1/shelf:publish", Some("/v1/{name}::publish"), &["shelf"]),
        ],
    );
}

#[test]
fn wildcard_tail() {
    check_both(
        &["/files/*", "/static*", "/deep/a/*", "/*"],
        &[
            ("/files/a/b.txt", Some("/files/*"), &["a/b.txt"]),
            ("/files/", Some("/files/*"), &[""]),
            ("/files", Some("/*"), &["files"]), // exact match by the root wildcard, no retry
            ("/a/b", Some("/*"), &["a/b"]),     // root wildcard: no leading slash
            ("/", Some("/*"), &[""]),
            ("/static", Some("/static*"), &[""]),
            ("/static.txt", Some("/static*"), &[".txt"]),
            ("/static/a/b", Some("/static*"), &["/a/b"]),
            ("/deep/a/x//y", Some("/deep/a/*"), &["x//y"]),
        ],
    );
}

#[test]
fn regex_blocks() {
    check_both(
        &[
            r"/archive/{^(\d{4})/(\d{2})$}",
            r"{^/legacy/(?P<slug>[a-z]+)\.html$}",
            r"/opt/{^(a)?(b)$}",
            r"/named/{^(?P<year>\d{4})-(?P<month>\d{2})$}",
        ],
        &[
            (
                "/archive/2024/05",
                Some(r"/archive/{^(\d{4})/(\d{2})$}"),
                &["2024", "05"],
            ),
            ("/archive/2024/5", None, &[]),
            ("/archive/2024/05/x", None, &[]),
            (
                "/legacy/about.html",
                Some(r"{^/legacy/(?P<slug>[a-z]+)\.html$}"),
                &["about", "about"],
            ),
            ("/opt/b", Some(r"/opt/{^(a)?(b)$}"), &[ABSENT, "b"]), // non-participating group
            ("/opt/ab", Some(r"/opt/{^(a)?(b)$}"), &["a", "b"]),
            (
                "/named/2024-05",
                Some(r"/named/{^(?P<year>\d{4})-(?P<month>\d{2})$}"),
                &["2024", "05", "2024", "05"],
            ),
        ],
    );
}

// ---- ROUTING.md §3: matching rules --------------------------------------------------------

#[test]
fn query_and_fragment_are_not_matched() {
    check_both(
        &["/users/:id", "/about"],
        &[
            ("/users/1?x=2", Some("/users/:id"), &["1"]),
            ("/about?", Some("/about"), &[]),
            ("/about#team", Some("/about"), &[]),
            ("/about/?x=/y", Some("/about"), &[]),
        ],
    );
}

#[test]
fn exact_static_beats_dynamic_whatever_the_order() {
    check_both(
        &["/posts/:id", "/posts/*", "/posts/create"],
        &[
            ("/posts/create", Some("/posts/create"), &[]),
            ("/posts/7", Some("/posts/:id"), &["7"]),
            ("/posts/a/b", Some("/posts/*"), &["a/b"]),
        ],
    );
}

#[test]
fn definition_order_first_defined_dynamic_wins() {
    let routes = [
        "/repos/:owner/:repo/:archive_format/:ref",
        "/repos/:owner/:repo/commits/:ref",
        "/x/*",
        "/x/:a",
        "/y/:a",
        "/y/:a<int>",
    ];
    check(
        Definition,
        &routes,
        &[
            (
                "/repos/o/r/commits/main",
                Some("/repos/:owner/:repo/:archive_format/:ref"),
                &["o", "r", "commits", "main"],
            ),
            ("/x/1", Some("/x/*"), &["1"]),
            ("/y/1", Some("/y/:a"), &["1"]),
        ],
    );
    check(
        Specificity,
        &routes,
        &[
            (
                "/repos/o/r/commits/main",
                Some("/repos/:owner/:repo/commits/:ref"),
                &["o", "r", "main"],
            ),
            ("/x/1", Some("/x/:a"), &["1"]),
            ("/y/1", Some("/y/:a<int>"), &["1"]),
            ("/y/a", Some("/y/:a"), &["a"]),
        ],
    );
}

#[test]
fn constraint_failure_moves_on_to_the_next_candidate() {
    check_both(
        &[
            "/u/:id<int>/edit",
            "/u/:name/edit",
            "/u/:id<int>",
            "/u/:id<int>/more/:x<alpha>",
            "/u/:any/more/*",
        ],
        &[
            ("/u/5/edit", Some("/u/:id<int>/edit"), &["5"]),
            ("/u/bob/edit", Some("/u/:name/edit"), &["bob"]),
            ("/u/5", Some("/u/:id<int>"), &["5"]),
            ("/u/bob", None, &[]),
            (
                "/u/5/more/abc",
                Some("/u/:id<int>/more/:x<alpha>"),
                &["5", "abc"],
            ),
            ("/u/5/more/1", Some("/u/:any/more/*"), &["5", "1"]), // backtracks across segments
        ],
    );
}

#[test]
fn definition_order_backtracks_to_an_earlier_route_deeper_in_another_branch() {
    // Route 0 only matches through the param branch; route 1 through static text. The static branch
    // is tried first, but route 0 must still win in definition order.
    check(
        Definition,
        &["/a/:x/end", "/a/b/:y"],
        &[
            ("/a/b/end", Some("/a/:x/end"), &["b"]),
            ("/a/b/other", Some("/a/b/:y"), &["other"]),
        ],
    );
    check(
        Specificity,
        &["/a/:x/end", "/a/b/:y"],
        &[("/a/b/end", Some("/a/b/:y"), &["end"])],
    );
}

#[test]
fn specificity_compares_piece_kinds_along_the_path() {
    check(
        Specificity,
        &["/foo/:b", "/foo/{b}one", "/foo/*", "/foo/:b<int>"],
        &[
            ("/foo/xone", Some("/foo/{b}one"), &["x"]),
            ("/foo/x", Some("/foo/:b"), &["x"]),
            ("/foo/1", Some("/foo/:b<int>"), &["1"]),
            ("/foo/x/y", Some("/foo/*"), &["x/y"]),
        ],
    );
    check(
        Definition,
        &["/foo/:b", "/foo/{b}one"],
        &[("/foo/xone", Some("/foo/:b"), &["xone"])],
    );
}

#[test]
fn specificity_orders_segment_tails_by_the_first_character_they_differ_on() {
    // Sibling tails of one class: at the first character of the segment one gives to static text
    // and the other to a parameter, the static text wins (find-my-way's "longer static suffix",
    // matchit's `mixed_wildcard_suffix`); equal, definition order. Whatever the definition order.
    for routes in [
        ["/foo/:bar.png", "/foo/:bar.png.png"],
        ["/foo/:bar.png.png", "/foo/:bar.png"],
    ] {
        check(
            Specificity,
            &routes,
            &[
                ("/foo/value.png.png", Some("/foo/:bar.png.png"), &["value"]),
                ("/foo/value.png", Some("/foo/:bar.png"), &["value"]),
                ("/foo/a.png.png.png", Some("/foo/:bar.png.png"), &["a.png"]),
            ],
        );
    }
    check(
        Specificity,
        &["/{f}o/b", "/{f}oo/b", "/{f}ooo/b", "/{f}oooo/b"],
        &[
            ("/foooo/b", Some("/{f}oooo/b"), &["f"]),
            ("/fooo/b", Some("/{f}ooo/b"), &["f"]),
            ("/fo/b", Some("/{f}o/b"), &["f"]),
            ("/xo/b", Some("/{f}o/b"), &["x"]),
        ],
    );
    // The best tail's subtree fails: the next one on the characters is tried (backtracking).
    check(
        Specificity,
        &["/t/{a}.x/end", "/t/{a}.x.x/other", "/t/{a}-{b}.x/end"],
        &[
            ("/t/v.x.x/end", Some("/t/{a}.x/end"), &["v.x"]),
            ("/t/v.x.x/other", Some("/t/{a}.x.x/other"), &["v"]),
            ("/t/v-w.x/end", Some("/t/{a}-{b}.x/end"), &["v", "w"]),
            ("/t/v-w.x.x/other", Some("/t/{a}.x.x/other"), &["v-w"]),
        ],
    );
    // Definition order is unchanged: the first defined wins.
    check(
        Definition,
        &["/foo/:bar.png", "/foo/:bar.png.png"],
        &[("/foo/value.png.png", Some("/foo/:bar.png"), &["value.png"])],
    );
}

#[test]
fn case_sensitive() {
    check_both(
        &["/About", "/p/:x<[a-z]+>"],
        &[
            ("/about", None, &[]),
            ("/About", Some("/About"), &[]),
            ("/p/AB", None, &[]),
        ],
    );
}

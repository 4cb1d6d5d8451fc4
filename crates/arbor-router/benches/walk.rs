//! Native timing and instruction-count harness of the lookup (the walk without the wasm boundary).
//!
//! ```text
//! cargo bench -p arbor-router --bench walk                  # ns per lookup, per case
//! cargo bench -p arbor-router --bench walk -- --callgrind    # + instructions per lookup
//! cargo bench -p arbor-router --bench walk -- --register     # + registration of 10k routes
//! cargo bench -p arbor-router --bench walk -- --case 3       # one case only
//! cargo bench -p arbor-router --bench walk -- --load FILE    # loading a snapshot, ms
//! ```
//!
//! Cases: the 12-route standard set (`delvedor-hono-rou3-small-set.json`, its 7 requests one by one
//! and all together), the GitHub API set (`medley-github-api.json`, its 516 request URLs; also its
//! static and dynamic requests apart), and a generated 10,000-route table (1,000 requests), each in
//! definition and in specificity order. Every case prints a checksum of its answers (route ids and
//! spans) so an optimisation that changes an answer shows. Instruction counts come from callgrind
//! (`valgrind` on `PATH`), counted only inside the measured loop, divided by the lookups made and net
//! of the loop's own instructions (`measured_baseline`):
//! unlike nanoseconds they do not drift with machine noise.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use arbor_router::{Lookup, Order, Router, RouterOptions, Spans};

mod tables;
use tables::{github, Pairs, DATA};

struct Case {
    name: String,
    router: Router,
    /// (method id, path).
    requests: Vec<(u32, Vec<u8>)>,
}

fn options(order: Order) -> RouterOptions {
    RouterOptions {
        order,
        ..RouterOptions::default()
    }
}

fn build(routes: &[(String, String)], order: Order) -> Router {
    let mut router = Router::new(options(order));
    for (method, pattern) in routes {
        router.insert(&[method.as_str()], pattern).unwrap();
    }
    router
}

fn requests(router: &Router, list: &[(String, String)]) -> Vec<(u32, Vec<u8>)> {
    list.iter()
        .map(|(m, p)| (router.method_id(m).unwrap(), p.as_bytes().to_vec()))
        .collect()
}

fn small_routes() -> (Pairs, Vec<(String, String, String)>) {
    // Read from the data file so the set is exactly the published one; fall back to a copy.
    let routes = [
        ("GET", "/user"),
        ("GET", "/user/comments"),
        ("GET", "/user/avatar"),
        ("GET", "/user/lookup/username/:username"),
        ("GET", "/user/lookup/email/:address"),
        ("GET", "/event/:id"),
        ("GET", "/event/:id/comments"),
        ("POST", "/event/:id/comment"),
        ("GET", "/map/:location/events"),
        ("GET", "/status"),
        ("GET", "/very/deeply/nested/route/hello/there"),
        ("GET", "/static/*"),
    ];
    let requests = [
        ("short static", "GET", "/user"),
        ("static with same radix", "GET", "/user/comments"),
        ("dynamic route", "GET", "/user/lookup/username/hey"),
        ("mixed static dynamic", "GET", "/event/abcd1234/comments"),
        ("post", "POST", "/event/abcd1234/comment"),
        (
            "long static",
            "GET",
            "/very/deeply/nested/route/hello/there",
        ),
        ("wildcard", "GET", "/static/index.html"),
    ];
    if let Ok(json) =
        std::fs::read_to_string(PathBuf::from(DATA).join("delvedor-hono-rou3-small-set.json"))
    {
        for (_, _, path) in requests {
            assert!(json.contains(path), "{path} not in the data file");
        }
    }
    (
        routes
            .iter()
            .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
            .collect(),
        requests
            .iter()
            .map(|(l, m, p)| ((*l).to_owned(), (*m).to_owned(), (*p).to_owned()))
            .collect(),
    )
}

/// A deterministic 10,000-route table shaped like `benches/router/routes.ts`'s `generatedSet`: 25
/// services × 2 versions × 10 resources × 20 routes (lists, items, sub-collections, constrained
/// routes, wildcards), and 1,000 requests that match routes picked at random.
fn generated() -> (Pairs, Pairs) {
    const SERVICES: [&str; 25] = [
        "accounts",
        "billing",
        "catalog",
        "checkout",
        "content",
        "crm",
        "delivery",
        "documents",
        "events",
        "fleet",
        "forms",
        "hr",
        "identity",
        "inventory",
        "invoices",
        "ledger",
        "logistics",
        "media",
        "messaging",
        "orders",
        "payments",
        "projects",
        "reports",
        "search",
        "support",
    ];
    const NOUNS: [&str; 30] = [
        "users", "teams", "orgs", "items", "files", "tags", "notes", "jobs", "tasks", "rules",
        "plans", "keys", "hooks", "logs", "sites", "pages", "groups", "roles", "assets", "tickets",
        "comments", "labels", "batches", "carts", "refunds", "reviews", "threads", "folders",
        "vendors", "zones",
    ];
    const SUBS: [&str; 8] = [
        "members",
        "history",
        "attachments",
        "events",
        "settings",
        "versions",
        "links",
        "audits",
    ];
    let mut seed: u64 = 0xa4b0;
    let mut rand = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n
    };
    let mut defs: Vec<(String, String)> = Vec::new();
    let push = |defs: &mut Vec<(String, String)>, m: &str, p: String| defs.push((m.to_owned(), p));
    let mut resources = 0;
    'outer: for svc in SERVICES {
        for version in ["v1", "v2"] {
            let base = format!("/{svc}/{version}");
            let start = rand(NOUNS.len());
            for k in 0..10 {
                let noun = NOUNS[(start + 3 * k) % NOUNS.len()];
                let res = format!("{base}/{noun}");
                push(&mut defs, "GET", res.clone());
                push(&mut defs, "POST", res.clone());
                push(&mut defs, "GET", format!("{res}/search"));
                for m in ["GET", "PUT", "PATCH", "DELETE"] {
                    push(&mut defs, m, format!("{res}/:id"));
                }
                let first = rand(SUBS.len());
                for j in 0..3 {
                    let sub = SUBS[(first + j) % SUBS.len()];
                    push(&mut defs, "GET", format!("{res}/:id/{sub}"));
                    push(&mut defs, "POST", format!("{res}/:id/{sub}"));
                    push(&mut defs, "GET", format!("{res}/:id/{sub}/:subId"));
                    push(&mut defs, "DELETE", format!("{res}/:id/{sub}/:subId"));
                }
                push(&mut defs, "GET", format!("{res}/:id/archive/:year<year>"));
                resources += 1;
                if resources % 10 == 0 {
                    push(&mut defs, "GET", format!("{res}/:id/files/*"));
                } else {
                    push(&mut defs, "GET", format!("{res}/:id/revisions/:rev<int>"));
                }
                if defs.len() >= 10_000 {
                    break 'outer;
                }
            }
            push(&mut defs, "GET", format!("{base}/static/*"));
        }
    }
    defs.truncate(10_000);
    let mut requests = Vec::new();
    for _ in 0..1_000 {
        let (method, pattern) = &defs[rand(defs.len())];
        let mut path = String::new();
        for (k, segment) in pattern.split('/').enumerate() {
            if k > 0 {
                path.push('/');
            }
            if segment == "*" {
                path.push_str(&format!("assets/{}/app.js", rand(1 << 20)));
            } else if segment.starts_with(":year") {
                path.push_str(&(1990 + rand(40)).to_string());
            } else if segment.starts_with(":rev") {
                path.push_str(&rand(100_000).to_string());
            } else if segment.starts_with(':') {
                path.push_str(&format!("{:x}", rand(1 << 40) * 7919));
            } else {
                path.push_str(segment);
            }
        }
        requests.push((method.clone(), path));
    }
    (defs, requests)
}

type MakeCase = Box<dyn Fn() -> Case>;

/// Every case, built on demand (callgrind runs build only the one they measure).
fn cases() -> Vec<MakeCase> {
    let mut out: Vec<MakeCase> = Vec::new();
    let (routes, small_requests) = small_routes();
    let all: Vec<(String, String)> = small_requests
        .iter()
        .map(|(_, m, p)| (m.clone(), p.clone()))
        .collect();
    for (label, method, path) in small_requests {
        let routes = routes.clone();
        out.push(Box::new(move || {
            let router = build(&routes, Order::Definition);
            let requests = requests(&router, &[(method.clone(), path.clone())]);
            Case {
                name: format!("small: {label}"),
                router,
                requests,
            }
        }));
    }
    for (order, suffix) in [
        (Order::Definition, ""),
        (Order::Specificity, " (specificity)"),
    ] {
        let (routes, all) = (routes.clone(), all.clone());
        out.push(Box::new(move || {
            let router = build(&routes, order);
            let requests = requests(&router, &all);
            Case {
                name: format!("small: all 7{suffix}"),
                router,
                requests,
            }
        }));
    }
    for (order, suffix) in [
        (Order::Definition, ""),
        (Order::Specificity, " (specificity)"),
    ] {
        out.push(Box::new(move || {
            let (gh_routes, gh_requests) = github();
            let router = build(&gh_routes, order);
            let requests = requests(&router, &gh_requests);
            Case {
                name: format!("github: all 516{suffix}"),
                router,
                requests,
            }
        }));
    }
    // GitHub, static and dynamic requests apart (by the pattern they were made for).
    for (want_static, label) in [(true, "static"), (false, "dynamic")] {
        out.push(Box::new(move || {
            let (gh_routes, gh_requests) = github();
            let router = build(&gh_routes, Order::Definition);
            let list: Vec<(String, String)> = gh_routes
                .iter()
                .zip(&gh_requests)
                .filter(|((_, pattern), _)| pattern.contains(':') != want_static)
                .map(|(_, r)| r.clone())
                .collect();
            let requests = requests(&router, &list);
            Case {
                name: format!("github: {label} {}", list.len()),
                router,
                requests,
            }
        }));
    }
    // GitHub 404s: every request URL under an unknown first segment (fails at once), and with an
    // unknown segment appended (fails at the end): the trailing-slash retry's cost shows here.
    for (label, make) in [
        (
            "unknown prefix",
            (|p: &str| format!("/zz{p}")) as fn(&str) -> String,
        ),
        ("unknown suffix", |p: &str| format!("{p}/zz")),
    ] {
        out.push(Box::new(move || {
            let (gh_routes, gh_requests) = github();
            let router = build(&gh_routes, Order::Definition);
            let list: Vec<(String, String)> = gh_requests
                .iter()
                .map(|(m, p)| (m.clone(), make(p)))
                .collect();
            let requests = requests(&router, &list);
            Case {
                name: format!("github: 404, {label}"),
                router,
                requests,
            }
        }));
    }
    for (order, suffix) in [
        (Order::Definition, ""),
        (Order::Specificity, " (specificity)"),
    ] {
        out.push(Box::new(move || {
            let (gen_routes, gen_requests) = generated();
            let router = build(&gen_routes, order);
            let requests = requests(&router, &gen_requests);
            Case {
                name: format!("10k: 1000 requests{suffix}"),
                router,
                requests,
            }
        }));
    }
    out
}

/// FNV-1a over the answers: changes when any route id or span changes.
fn checksum(case: &Case) -> u64 {
    let mut spans = Spans::new();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: u32| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (method, path) in &case.requests {
        match case.router.lookup(*method, path, &mut spans) {
            Lookup::Found(id) => {
                mix(id);
                spans.as_slice().iter().for_each(|&v| mix(v));
            }
            Lookup::NotFound if case.name.contains("404") => mix(u32::MAX),
            Lookup::NotFound => {
                panic!("{}: {} not found", case.name, String::from_utf8_lossy(path))
            }
        }
    }
    h
}

/// The measured loop: `passes` passes over the case's requests. Not inlined, so callgrind can count
/// instructions inside it only (`--toggle-collect`).
#[inline(never)]
fn measured(case: &Case, spans: &mut Spans, passes: usize) -> u32 {
    let mut acc = 0u32;
    for _ in 0..passes {
        for (method, path) in &case.requests {
            if let Lookup::Found(id) =
                case.router
                    .lookup(black_box(*method), black_box(path), spans)
            {
                acc = acc.wrapping_add(id);
            }
        }
    }
    acc
}

/// `measured` without the lookup: the loop's own instructions, subtracted from the counts.
#[inline(never)]
fn measured_baseline(case: &Case, spans: &mut Spans, passes: usize) -> u32 {
    let mut acc = 0u32;
    for _ in 0..passes {
        for (method, path) in &case.requests {
            let (m, p) = (black_box(*method), black_box(path));
            acc = acc.wrapping_add(m + p.len() as u32 + black_box(spans.len()) as u32);
        }
    }
    acc
}

/// Median ns per lookup over 7 rounds of ~60 ms each.
fn time(case: &Case) -> f64 {
    let mut spans = Spans::new();
    black_box(measured(case, &mut spans, 100));
    let per_pass = case.requests.len();
    let start = Instant::now();
    let mut passes = 0;
    while start.elapsed().as_millis() < 20 {
        black_box(measured(case, &mut spans, 1));
        passes += 1;
    }
    let passes = (passes * 3).max(1);
    let mut rounds: Vec<f64> = (0..7)
        .map(|_| {
            let t = Instant::now();
            black_box(measured(case, &mut spans, passes));
            t.elapsed().as_nanos() as f64 / (passes * per_pass) as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[3]
}

/// Runs one case under callgrind and returns instructions per lookup.
fn instructions(index: usize, lookups: usize, baseline: bool) -> Option<f64> {
    let exe = std::env::current_exe().ok()?;
    let out =
        std::env::temp_dir().join(format!("walk-callgrind-{}-{index}.out", std::process::id()));
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg("--toggle-collect=*measured*")
        .arg(&exe)
        .arg(if baseline { "--baseline" } else { "--one" })
        .arg(index.to_string())
        .output()
        .ok()?;
    if !status.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&status.stderr));
        return None;
    }
    let text = std::fs::read_to_string(&out).ok()?;
    let _ = std::fs::remove_file(&out);
    let total: f64 = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(total / lookups as f64)
}

/// Lookups made by `--one` for a case (enough passes that the per-lookup average is stable).
fn one_passes(case: &Case) -> usize {
    (2_000 / case.requests.len()).max(2)
}

fn register_10k() {
    let (routes, _) = generated();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let router = build(&routes, Order::Definition);
        let mut spans = Spans::new();
        black_box(router.lookup(0, b"/", &mut spans)); // includes the flatten
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("register 10k routes (+ first lookup): {best:.1} ms (best of 5)");
}

/// Loads a snapshot (`Router::serialize` bytes, e.g. the route cache's, extracted) 5 times. Under
/// callgrind, `--toggle-collect=*load_snapshot*` counts the loads alone.
fn load_file(file: &str) {
    let bytes = std::fs::read(file).unwrap();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        black_box(load_snapshot(&bytes));
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("load {} bytes: {best:.1} ms (best of 5)", bytes.len());
}

#[inline(never)]
fn load_snapshot(bytes: &[u8]) -> Router {
    Router::deserialize(black_box(bytes)).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--load") {
        load_file(&args[at + 1]);
        return;
    }
    let cases = cases();
    if let Some(at) = args.iter().position(|a| a == "--one" || a == "--baseline") {
        let index: usize = args[at + 1].parse().unwrap();
        let case = cases[index]();
        let case = &case;
        let mut spans = Spans::new();
        black_box(case.router.lookup(0, b"/", &mut spans)); // the flatten, outside the count
        if args[at] == "--one" {
            black_box(measured(case, &mut spans, one_passes(case)));
        } else {
            black_box(measured_baseline(case, &mut spans, one_passes(case)));
        }
        return;
    }
    let callgrind = args.iter().any(|a| a == "--callgrind");
    if args.iter().any(|a| a == "--register") {
        register_10k();
    }
    println!(
        "| case | ns/lookup |{} checksum |",
        if callgrind {
            " instr/lookup (net) |"
        } else {
            ""
        }
    );
    println!("|---|---:|{}---|", if callgrind { "---:|" } else { "" });
    let only: Option<usize> = args
        .iter()
        .position(|a| a == "--case")
        .map(|at| args[at + 1].parse().unwrap());
    for (index, make) in cases.iter().enumerate() {
        if only.is_some_and(|o| o != index) {
            continue;
        }
        let case = &make();
        let sum = checksum(case);
        let ns = time(case);
        let instr = if callgrind {
            let lookups = one_passes(case) * case.requests.len();
            // Net of the harness loop's own instructions (a few per lookup).
            match (
                instructions(index, lookups, false),
                instructions(index, lookups, true),
            ) {
                (Some(i), Some(b)) => format!(" {:.0} |", i - b),
                _ => " ? |".to_owned(),
            }
        } else {
            String::new()
        };
        println!("| {} | {ns:.1} |{instr} {sum:016x} |", case.name);
    }
}

/**
 * SPEC §3.2: `order: 'specificity'`, as decided by the lead (the first wording of §3.2): at each point of
 * the path static text is tried before a constrained parameter, before an unconstrained one, before a
 * wildcard or regex block; among equals, definition order; with backtracking; the first match wins (the
 * full rule is in tests/support/reference-engine/specificity.ts). Each table lists the generic route first, so
 * definition order would choose differently (the contrast table shows it).
 */
import type { MatchTable } from './harness.js';

const specificity = { order: 'specificity' } as const;

export const specificityTables: MatchTable[] = [
  {
    name: 'definition order (contrast): the first defined wins',
    spec: '§3 rule 3',
    routes: ['/foo/:b', '/foo/{b}one', '/users/:id', '/users/:id<int>'],
    cases: [
      { path: '/foo/xone', expect: { route: '/foo/:b', params: { b: 'xone' } } },
      { path: '/users/42', expect: { route: '/users/:id', params: { id: '42' } } },
    ],
  },
  {
    name: 'specificity: literal text beats a parameter at the first point they differ',
    spec: '§3.2',
    options: specificity,
    routes: ['/foo/:b', '/foo/{b}one', '/a/:x/c', '/a/b/:y', '/w/:x', '/w/ab*'],
    cases: [
      { path: '/foo/xone', expect: { route: '/foo/{b}one', params: { b: 'x' } } },
      { path: '/foo/xtwo', expect: { route: '/foo/:b', params: { b: 'xtwo' } } },
      { path: '/a/b/c', expect: { route: '/a/b/:y', params: { y: 'c' } } },
      { path: '/a/z/c', expect: { route: '/a/:x/c', params: { x: 'z' } } },
      { path: '/w/abc', expect: { route: '/w/ab*', params: { '*': 'c' } } },
      { path: '/w/xbc', expect: { route: '/w/:x', params: { x: 'xbc' } } },
    ],
  },
  {
    name: 'specificity: the GitHub case',
    spec: '§3.2',
    options: specificity,
    routes: ['/repos/:owner/:repo/:archive_format/:ref', '/repos/:owner/:repo/commits/:ref'],
    cases: [
      {
        path: '/repos/o/r/commits/main',
        expect: { route: '/repos/:owner/:repo/commits/:ref', params: { owner: 'o', repo: 'r', ref: 'main' } },
      },
      {
        path: '/repos/o/r/zipball/main',
        expect: {
          route: '/repos/:owner/:repo/:archive_format/:ref',
          params: { owner: 'o', repo: 'r', archive_format: 'zipball', ref: 'main' },
        },
      },
    ],
  },
  {
    name: 'specificity: constrained before unconstrained before wildcard',
    spec: '§3.2',
    options: specificity,
    routes: ['/files/*', '/files/:name', '/users/:id', '/users/:id<int>', '/n/:a/:b<int>', '/n/:c<alpha>/:d'],
    cases: [
      { path: '/users/42', expect: { route: '/users/:id<int>', params: { id: '42' } } },
      { path: '/users/bob', expect: { route: '/users/:id', params: { id: 'bob' } } },
      { path: '/files/a', expect: { route: '/files/:name', params: { name: 'a' } } },
      { path: '/files/a/b', expect: { route: '/files/*', params: { '*': 'a/b' } } },
      { path: '/files/', expect: { route: '/files/*', params: { '*': '' } } },
      { path: '/n/ab/12', expect: { route: '/n/:c<alpha>/:d', params: { c: 'ab', d: '12' } } },
      { path: '/n/a1/12', expect: { route: '/n/:a/:b<int>', params: { a: 'a1', b: '12' } } },
    ],
  },
  {
    name: 'specificity: among equals, definition order',
    spec: '§3.2',
    options: specificity,
    routes: ['/q/:a<\\d+>', '/q/:b<[0-9]+>', '/r/*', '/r/{^(.*)$}'],
    cases: [
      { path: '/q/7', expect: { route: '/q/:a<\\d+>', params: { a: '7' } } },
      { path: '/r/x/y', expect: { route: '/r/*', params: { '*': 'x/y' } } },
    ],
  },
  {
    name: 'specificity: static routes still come first; trailing slash still exact first',
    spec: '§3.2, §3.1',
    options: specificity,
    routes: ['/s/*', '/s/:x', '/s/new', '/t/:x', '/t/:x/*'],
    cases: [
      { path: '/s/new', expect: { route: '/s/new' } },
      { path: '/s/old', expect: { route: '/s/:x', params: { x: 'old' } } },
      { path: '/t/a/', expect: { route: '/t/:x/*', params: { x: 'a', '*': '' } } },
      { path: '/t/a', expect: { route: '/t/:x', params: { x: 'a' } } },
    ],
  },
  {
    name: 'specificity: a route that ends beats an empty wildcard at the end of the path',
    spec: '§3.2 (decided: the end of the path is a point where static comes before a wildcard)',
    options: specificity,
    routes: ['/m/:x/*', '/m/:x/', '/n/:x/{^(.*)$}', '/n/:x/'],
    cases: [
      { path: '/m/a/', expect: { route: '/m/:x/', params: { x: 'a' } } },
      { path: '/m/a/b', expect: { route: '/m/:x/*', params: { x: 'a', '*': 'b' } } },
      { path: '/n/a/', expect: { route: '/n/:x/', params: { x: 'a' } } },
    ],
  },
  {
    // Decided by the lead: the FIRST wording of SPEC §3.2 ("at each point of the path, static text is
    // tried before a constrained parameter, before an unconstrained one, before a wildcard; among equals,
    // definition order; with backtracking"), i.e. a depth-first walk where the first match wins. Two
    // constrained parameters at the same point are equals: the earlier-defined branch is tried first
    // and its match is final, even if the other would differ later (`/a/` static vs `*`).
    name: 'specificity: among equal kinds at a point, the earlier branch is tried first and wins',
    spec: '§3.2 first wording (lead decision: depth-first, first match wins)',
    options: specificity,
    routes: ['/k/:a<slug>/*', '/k/:b<int>/a/'],
    cases: [
      { path: '/k/1/a/', expect: { route: '/k/:a<slug>/*', params: { a: '1', '*': 'a/' } } },
      { path: '/k/1/b/', expect: { route: '/k/:a<slug>/*', params: { a: '1', '*': 'b/' } } },
    ],
  },
  {
    // Issue 13 item 3, from the peers' own suites; not yet implemented by any engine: inside one segment,
    // a parameter followed by literal text is one "segment tail" piece, and two tails of the same class
    // are ordered by definition instead of by §3.2's character-by-character rule (static beats dynamic at
    // the first character where they differ). Each row runs as a known gap (it.fails) with the reason,
    // so the day the engines follow the rule the suite says so.
    name: 'specificity: literal text after a parameter in one segment (peer cases, known gap)',
    spec: '§3.2 character-by-character rule',
    options: specificity,
    routes: ['/foo/:bar.png', '/foo/:bar.png.png', '/{f}o/b', '/{f}oo/b', '/{f}ooo/b', '/{f}oooo/b'],
    cases: [
      {
        // find-my-way, "longer static suffix"
        path: '/foo/value.png.png',
        expect: { route: '/foo/:bar.png.png', params: { bar: 'value' } },
        unsupported: {
          reference: 'segment tails of one class are compared by definition order, not by character',
          wasm: 'segment tails of one class are tried in definition order (tree.rs child order)',
        },
      },
      { path: '/foo/value.png', expect: { route: '/foo/:bar.png', params: { bar: 'value' } } },
      {
        // matchit, mixed_wildcard_suffix
        path: '/foooo/b',
        expect: { route: '/{f}oooo/b', params: { f: 'f' } },
        unsupported: {
          reference: 'segment tails of one class are compared by definition order, not by character',
          wasm: 'segment tails of one class are tried in definition order (tree.rs child order)',
        },
      },
      { path: '/fo/b', expect: { route: '/{f}o/b', params: { f: 'f' } } },
    ],
  },
];

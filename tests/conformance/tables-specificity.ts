/**
 * ROUTING.md §3.2: `order: 'specificity'`: at each point of the path static text is tried before a
 * constrained parameter, before an unconstrained one, before a wildcard or regex block; among equals,
 * definition order; with backtracking; the first match wins (the full rule is in
 * tests/support/reference-engine/specificity.ts). Each table lists the generic route first, so
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
    // ROUTING.md §3.2, rule 5 ("at each point of the path, static text is tried before a constrained
    // parameter, before an unconstrained one, before a wildcard; among equals, definition order; with
    // backtracking"): a depth-first walk where the first match wins. Two
    // constrained parameters at the same point are equals: the earlier-defined branch is tried first
    // and its match is final, even if the other would differ later (`/a/` static vs `*`).
    name: 'specificity: among equal kinds at a point, the earlier branch is tried first and wins',
    spec: '§3.2 rule 5 (depth-first, first match wins)',
    options: specificity,
    routes: ['/k/:a<slug>/*', '/k/:b<int>/a/'],
    cases: [
      { path: '/k/1/a/', expect: { route: '/k/:a<slug>/*', params: { a: '1', '*': 'a/' } } },
      { path: '/k/1/b/', expect: { route: '/k/:a<slug>/*', params: { a: '1', '*': 'b/' } } },
    ],
  },
  {
    // Issue 13 item 3, from the peers' own suites. Inside one segment, a parameter followed by literal
    // text is one "segment tail" piece; sibling tails of one class are compared on the path: at the first
    // character of the segment that one gives to static text and the other to a parameter, static text
    // wins (whatever the definition order); equal on every character, definition order.
    name: 'specificity: literal text after a parameter in one segment (peer cases)',
    spec: '§3.2 rule 4 (segment tails, character by character)',
    options: specificity,
    routes: ['/foo/:bar.png', '/foo/:bar.png.png', '/{f}o/b', '/{f}oo/b', '/{f}ooo/b', '/{f}oooo/b'],
    cases: [
      // find-my-way, "longer static suffix"
      { path: '/foo/value.png.png', expect: { route: '/foo/:bar.png.png', params: { bar: 'value' } } },
      { path: '/foo/value.png', expect: { route: '/foo/:bar.png', params: { bar: 'value' } } },
      { path: '/foo/a.png.png.png', expect: { route: '/foo/:bar.png.png', params: { bar: 'a.png' } } },
      // matchit, mixed_wildcard_suffix
      { path: '/foooo/b', expect: { route: '/{f}oooo/b', params: { f: 'f' } } },
      { path: '/fooo/b', expect: { route: '/{f}ooo/b', params: { f: 'f' } } },
      { path: '/fo/b', expect: { route: '/{f}o/b', params: { f: 'f' } } },
      { path: '/xo/b', expect: { route: '/{f}o/b', params: { f: 'x' } } },
    ],
  },
  {
    name: 'specificity: find-my-way "longer static suffix", the longer route defined first',
    spec: '§3.2 rule 4 (segment tails, character by character)',
    options: specificity,
    routes: ['/foo/:bar.png.png', '/foo/:bar.png'],
    cases: [
      { path: '/foo/value.png', expect: { route: '/foo/:bar.png', params: { bar: 'value' } } },
      { path: '/foo/value.png.png', expect: { route: '/foo/:bar.png.png', params: { bar: 'value' } } },
    ],
  },
  {
    // When the best tail's subtree fails, the next tail in character order is tried (backtracking); a
    // tail with static text earlier in the segment beats one whose parameter runs on.
    name: 'specificity: segment tails backtrack in character order',
    spec: '§3.2 rule 4',
    options: specificity,
    routes: [
      '/t/{a}.x/end',
      '/t/{a}.x.x/other',
      '/t/{a}-{b}.x/end',
      '/u/:a<int>.x',
      '/u/:b<int>.x.x',
      '/u/:c.x.x',
    ],
    cases: [
      { path: '/t/v.x.x/end', expect: { route: '/t/{a}.x/end', params: { a: 'v.x' } } },
      { path: '/t/v.x.x/other', expect: { route: '/t/{a}.x.x/other', params: { a: 'v' } } },
      { path: '/t/v-w.x/end', expect: { route: '/t/{a}-{b}.x/end', params: { a: 'v', b: 'w' } } },
      { path: '/t/v-w.x.x/other', expect: { route: '/t/{a}.x.x/other', params: { a: 'v-w' } } },
      // Constrained tails come before unconstrained ones at their first character (rule 3).
      { path: '/u/1.x.x', expect: { route: '/u/:b<int>.x.x', params: { b: '1' } } },
      { path: '/u/1.x', expect: { route: '/u/:a<int>.x', params: { a: '1' } } },
      { path: '/u/a.x.x', expect: { route: '/u/:c.x.x', params: { c: 'a' } } },
    ],
  },
  {
    // find-my-way test/params-collisions.test.js (`:bar(123)` is `:bar<(?:123)>` here: a bare word is
    // not a shortcut).
    name: 'specificity: find-my-way params collisions',
    spec: '§3.2',
    options: specificity,
    routes: [
      '/a/:bar',
      '/a/:bar<(?:123)>',
      '/b/:bar',
      '/b/:bar.png',
      '/c/:bar.png',
      '/c/:bar.jpeg',
      '/d/:bar<(?:123)>.png',
      '/d/:bar<(?:456)>.jpeg',
      '/e/:bar<(?:123)>',
      '/e/:bar<(?:123)>.jpeg',
    ],
    cases: [
      { path: '/a/value', expect: { route: '/a/:bar', params: { bar: 'value' } } },
      { path: '/a/123', expect: { route: '/a/:bar<(?:123)>', params: { bar: '123' } } },
      { path: '/b/value', expect: { route: '/b/:bar', params: { bar: 'value' } } },
      { path: '/b/value.png', expect: { route: '/b/:bar.png', params: { bar: 'value' } } },
      { path: '/c/value.png', expect: { route: '/c/:bar.png', params: { bar: 'value' } } },
      { path: '/c/value.jpeg', expect: { route: '/c/:bar.jpeg', params: { bar: 'value' } } },
      { path: '/d/123.png', expect: { route: '/d/:bar<(?:123)>.png', params: { bar: '123' } } },
      { path: '/d/456.jpeg', expect: { route: '/d/:bar<(?:456)>.jpeg', params: { bar: '456' } } },
      { path: '/d/123.jpeg', expect: null },
      { path: '/e/123.jpeg', expect: { route: '/e/:bar<(?:123)>.jpeg', params: { bar: '123' } } },
      { path: '/e/123', expect: { route: '/e/:bar<(?:123)>', params: { bar: '123' } } },
    ],
  },
  {
    // find-my-way test/issue-17.test.js, "Parametric route with fixed suffix" and its regexp variants
    // (`:param(^\w{3})bar` is `:param<\w{3}>bar`: constraints are anchored).
    name: 'specificity: find-my-way parameters with a fixed suffix',
    spec: '§3.1, §3.2',
    options: specificity,
    routes: ['/a/:param-static', '/b/:param.static', '/c/:param<\\w{3}>bar', '/d/:param<\\w{3}-\\w{3}>foo'],
    cases: [
      { path: '/a/param-static', expect: { route: '/a/:param-static', params: { param: 'param' } } },
      { path: '/b/param.static', expect: { route: '/b/:param.static', params: { param: 'param' } } },
      {
        path: '/a/param-param-static',
        expect: { route: '/a/:param-static', params: { param: 'param-param' } },
      },
      {
        path: '/b/param.param.static',
        expect: { route: '/b/:param.static', params: { param: 'param.param' } },
      },
      {
        path: '/a/param.param-static',
        expect: { route: '/a/:param-static', params: { param: 'param.param' } },
      },
      {
        path: '/b/param-param.static',
        expect: { route: '/b/:param.static', params: { param: 'param-param' } },
      },
      { path: '/c/foobar', expect: { route: '/c/:param<\\w{3}>bar', params: { param: 'foo' } } },
      { path: '/c/$mebar', expect: null },
      { path: '/c/foolol', expect: null },
      { path: '/c/foolbar', expect: null },
      {
        path: '/d/abc-deffoo',
        expect: { route: '/d/:param<\\w{3}-\\w{3}>foo', params: { param: 'abc-def' } },
      },
    ],
  },
  {
    // matchit tests/match.rs `mixed_wildcard_suffix` in full (`{b}` is our brace parameter). matchit has
    // no trailing-slash tolerance, hence `trailingSlash: false`.
    name: 'specificity: matchit mixed_wildcard_suffix',
    spec: '§3.2',
    options: { order: 'specificity', trailingSlash: false },
    routes: [
      '/',
      '/{f}o/b',
      '/{f}oo/b',
      '/{f}ooo/b',
      '/{f}oooo/b',
      '/foo/b',
      '/foo/{b}',
      '/foo/{b}one',
      '/foo/{b}one/',
      '/foo/{b}two',
      '/foo/{b}/one',
      '/foo/{b}one/one',
      '/foo/{b}two/one',
      '/foo/{b}one/one/',
      '/bar/{b}one',
      '/bar/{b}',
      '/bar/{b}/baz',
      '/bar/{b}one/baz',
      '/baz/{b}/bar',
      '/baz/{b}one/bar',
    ],
    cases: [
      { path: '/', expect: { route: '/' } },
      { path: '/o/b', expect: null },
      { path: '/fo/b', expect: { route: '/{f}o/b', params: { f: 'f' } } },
      { path: '/foo/b', expect: { route: '/foo/b' } },
      { path: '/fooo/b', expect: { route: '/{f}ooo/b', params: { f: 'f' } } },
      { path: '/foooo/b', expect: { route: '/{f}oooo/b', params: { f: 'f' } } },
      { path: '/foo/b/', expect: null },
      { path: '/foooo/b/', expect: null },
      { path: '/foo/bb', expect: { route: '/foo/{b}', params: { b: 'bb' } } },
      { path: '/foo/bone', expect: { route: '/foo/{b}one', params: { b: 'b' } } },
      { path: '/foo/bone/', expect: { route: '/foo/{b}one/', params: { b: 'b' } } },
      { path: '/foo/btwo', expect: { route: '/foo/{b}two', params: { b: 'b' } } },
      { path: '/foo/btwo/', expect: null },
      { path: '/foo/b/one', expect: { route: '/foo/{b}/one', params: { b: 'b' } } },
      { path: '/foo/bone/one', expect: { route: '/foo/{b}one/one', params: { b: 'b' } } },
      { path: '/foo/bone/one/', expect: { route: '/foo/{b}one/one/', params: { b: 'b' } } },
      { path: '/foo/btwo/one', expect: { route: '/foo/{b}two/one', params: { b: 'b' } } },
      { path: '/bar/b', expect: { route: '/bar/{b}', params: { b: 'b' } } },
      { path: '/bar/b/baz', expect: { route: '/bar/{b}/baz', params: { b: 'b' } } },
      { path: '/bar/bone', expect: { route: '/bar/{b}one', params: { b: 'b' } } },
      { path: '/bar/bone/baz', expect: { route: '/bar/{b}one/baz', params: { b: 'b' } } },
      { path: '/baz/b/bar', expect: { route: '/baz/{b}/bar', params: { b: 'b' } } },
      { path: '/baz/bone/bar', expect: { route: '/baz/{b}one/bar', params: { b: 'b' } } },
    ],
  },
  {
    // matchit tests/match.rs `wildcard_suffix` (a parameter before literal text at the root).
    name: 'specificity: matchit wildcard_suffix',
    spec: '§3.1, §3.2',
    options: { order: 'specificity', trailingSlash: false },
    routes: ['/', '/{foo}x', '/foox', '/{foo}x/bar', '/{foo}x/bar/baz'],
    cases: [
      { path: '/', expect: { route: '/' } },
      { path: '/foox', expect: { route: '/foox' } },
      { path: '/barx', expect: { route: '/{foo}x', params: { foo: 'bar' } } },
      { path: '/mx', expect: { route: '/{foo}x', params: { foo: 'm' } } },
      { path: '/mx/', expect: null },
      { path: '/mxm', expect: null },
      { path: '/mx/bar', expect: { route: '/{foo}x/bar', params: { foo: 'm' } } },
      { path: '/mxm/bar', expect: null },
      { path: '/x', expect: null },
      { path: '/xfoo', expect: null },
      { path: '/xfoox', expect: { route: '/{foo}x', params: { foo: 'xfoo' } } },
      { path: '/xfoox/bar', expect: { route: '/{foo}x/bar', params: { foo: 'xfoo' } } },
      { path: '/xfoox/bar/baz', expect: { route: '/{foo}x/bar/baz', params: { foo: 'xfoo' } } },
    ],
  },
  {
    // matchit tests/match.rs `param_suffix_flag_issue` (matchit issue 83), `overlapping_param_backtracking`
    // (issue 12) and `blog`.
    name: 'specificity: matchit suffix flag, backtracking and blog',
    spec: '§3.2',
    options: specificity,
    routes: [
      '/foo/{foo}suffix',
      '/foo/{foo}/bar',
      '/{object}/{id}',
      '/secret/{id}/path',
      '/posts/{year}/{month}/{post}',
      '/posts/{year}/{month}/index',
      '/posts/{year}/top',
      '/static/*',
      '/favicon.ico',
    ],
    cases: [
      { path: '/foo/barsuffix', expect: { route: '/foo/{foo}suffix', params: { foo: 'bar' } } },
      { path: '/foo/bar/bar', expect: { route: '/foo/{foo}/bar', params: { foo: 'bar' } } },
      { path: '/secret/978/path', expect: { route: '/secret/{id}/path', params: { id: '978' } } },
      {
        path: '/something/978',
        expect: { route: '/{object}/{id}', params: { object: 'something', id: '978' } },
      },
      { path: '/secret/978', expect: { route: '/{object}/{id}', params: { object: 'secret', id: '978' } } },
      {
        path: '/posts/2021/01/rust',
        expect: {
          route: '/posts/{year}/{month}/{post}',
          params: { year: '2021', month: '01', post: 'rust' },
        },
      },
      {
        path: '/posts/2021/01/index',
        expect: { route: '/posts/{year}/{month}/index', params: { year: '2021', month: '01' } },
      },
      { path: '/posts/2021/top', expect: { route: '/posts/{year}/top', params: { year: '2021' } } },
      { path: '/static/foo.png', expect: { route: '/static/*', params: { '*': 'foo.png' } } },
      { path: '/favicon.ico', expect: { route: '/favicon.ico' } },
    ],
  },
  {
    // matchit tests/match.rs `double_overlap`.
    name: 'specificity: matchit double_overlap',
    spec: '§3.2',
    options: { order: 'specificity', trailingSlash: false },
    routes: [
      '/{object}/{id}',
      '/secret/{id}/path',
      '/secret/978',
      '/other/{object}/{id}/',
      '/other/an_object/{id}',
      '/other/static/path',
      '/other/long/static/path/',
    ],
    cases: [
      { path: '/secret/978/path', expect: { route: '/secret/{id}/path', params: { id: '978' } } },
      {
        path: '/some_object/978',
        expect: { route: '/{object}/{id}', params: { object: 'some_object', id: '978' } },
      },
      { path: '/secret/978', expect: { route: '/secret/978' } },
      { path: '/super_secret/978/', expect: null },
      {
        path: '/other/object/1/',
        expect: { route: '/other/{object}/{id}/', params: { object: 'object', id: '1' } },
      },
      { path: '/other/object/1/2', expect: null },
      { path: '/other/an_object/1', expect: { route: '/other/an_object/{id}', params: { id: '1' } } },
      { path: '/other/static/path', expect: { route: '/other/static/path' } },
      { path: '/other/long/static/path/', expect: { route: '/other/long/static/path/' } },
    ],
  },
  {
    // matchit tests/match.rs `overlap` and `wildcard_overlap` (`{*bar}` is a trailing `*`).
    name: 'specificity: matchit overlap',
    spec: '§3.1, §3.2',
    options: specificity,
    routes: [
      '/foo',
      '/bar',
      '/*',
      '/baz',
      '/baz/',
      '/baz/x',
      '/baz/{xxx}',
      '/',
      '/xxx/*',
      '/xxx/',
      '/path/foo',
      '/path/*',
    ],
    cases: [
      { path: '/foo', expect: { route: '/foo' } },
      { path: '/baz/', expect: { route: '/baz/' } },
      { path: '/baz/x', expect: { route: '/baz/x' } },
      { path: '/baz/y', expect: { route: '/baz/{xxx}', params: { xxx: 'y' } } },
      { path: '/qqq', expect: { route: '/*', params: { '*': 'qqq' } } },
      { path: '/', expect: { route: '/' } },
      { path: '/xxx/y', expect: { route: '/xxx/*', params: { '*': 'y' } } },
      { path: '/xxx/', expect: { route: '/xxx/' } },
      { path: '/xxx', expect: { route: '/*', params: { '*': 'xxx' } } },
      { path: '/path/bar', expect: { route: '/path/*', params: { '*': 'bar' } } },
      { path: '/path/foo/', expect: { route: '/path/*', params: { '*': 'foo/' } } },
    ],
  },
];

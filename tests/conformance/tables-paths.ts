/** ROUTING.md §3 rules 5–6 and §3.1: trailing slashes, percent-decoding, malformed escapes, non-ASCII. */
import type { MatchTable } from './harness.js';

export const pathTables: MatchTable[] = [
  {
    name: 'exact before tolerant: one trailing slash toggled only when nothing matches',
    spec: '§3.1',
    routes: ['/path/foo', '/path/*', '/users', '/dir/', '/x', '/x/'],
    cases: [
      { path: '/path/foo', expect: { route: '/path/foo' } },
      { path: '/path/foo/', expect: { route: '/path/*', params: { '*': 'foo/' } } },
      { path: '/users/', expect: { route: '/users' } },
      { path: '/users//', expect: null },
      { path: '/dir', expect: { route: '/dir/' } },
      { path: '/dir/', expect: { route: '/dir/' } },
      { path: '/x', expect: { route: '/x' } },
      { path: '/x/', expect: { route: '/x/' } },
    ],
  },
  {
    name: 'trailing slash with parameters',
    spec: '§3.1',
    routes: ['/a/:p', '/b/:p/', '/c/:p<int>'],
    cases: [
      { path: '/a/x/', expect: { route: '/a/:p', params: { p: 'x' } } },
      { path: '/b/x', expect: { route: '/b/:p/', params: { p: 'x' } } },
      { path: '/c/1/', expect: { route: '/c/:p<int>', params: { p: '1' } } },
      { path: '/c/x/', expect: null },
    ],
  },
  {
    name: '/ is never toggled',
    spec: '§3.1',
    routes: ['/home', '//'],
    cases: [
      { path: '/', expect: null },
      { path: '//', expect: { route: '//' } },
    ],
  },
  {
    name: 'strict trailing slash',
    spec: '§3 rule 5 (option)',
    options: { trailingSlash: false },
    routes: ['/users', '/dir/', '/static/*'],
    cases: [
      { path: '/users', expect: { route: '/users' } },
      { path: '/users/', expect: null },
      { path: '/dir', expect: null },
      { path: '/static', expect: null },
      { path: '/static/', expect: { route: '/static/*', params: { '*': '' } } },
    ],
    allowed: [
      { path: '/users', methods: ['GET'] },
      { path: '/users/', methods: [] },
    ],
  },
  {
    name: 'parameter values are percent-decoded after the match',
    spec: '§3 rule 6',
    routes: ['/q/:term', '/f/:dir/:file', '/w/*', '/c/:id<int>', '/plus/:v'],
    cases: [
      { path: '/q/hello%20world', expect: { route: '/q/:term', params: { term: 'hello world' } } },
      { path: '/q/a%2Fb', expect: { route: '/q/:term', params: { term: 'a/b' } } },
      { path: '/f/a%2Fb/c', expect: { route: '/f/:dir/:file', params: { dir: 'a/b', file: 'c' } } },
      { path: '/q/a%2Fb/c', expect: null },
      { path: '/w/a%20b/c%2Fd', expect: { route: '/w/*', params: { '*': 'a b/c/d' } } },
      { path: '/q/caf%C3%A9', expect: { route: '/q/:term', params: { term: 'café' } } },
      { path: '/q/%25', expect: { route: '/q/:term', params: { term: '%' } } },
      { path: '/plus/a+b', expect: { route: '/plus/:v', params: { v: 'a+b' } } },
      // Constraints see the raw value: `%31` is not a digit.
      { path: '/c/%31', expect: null },
    ],
  },
  {
    name: 'a malformed escape in a matched value is reported, never thrown',
    spec: '§3.1 malformed escapes',
    routes: ['/q/:term', '/w/*', '/static%zz', '/re/{^(.+)$}'],
    cases: [
      { path: '/q/%zz', expect: { route: '/q/:term', params: { term: '%zz' }, malformed: true } },
      { path: '/q/%E0%A4%A', expect: { route: '/q/:term', params: { term: '%E0%A4%A' }, malformed: true } },
      { path: '/q/%', expect: { route: '/q/:term', params: { term: '%' }, malformed: true } },
      { path: '/q/%C3', expect: { route: '/q/:term', params: { term: '%C3' }, malformed: true } },
      { path: '/w/ok/%zz', expect: { route: '/w/*', params: { '*': 'ok/%zz' }, malformed: true } },
      { path: '/static%zz', expect: { route: '/static%zz' } },
      { path: '/re/%zz', expect: { route: '/re/{^(.+)$}', captures: ['%zz'], malformed: true } },
      { path: '/nothing/%zz', expect: null },
    ],
  },
  {
    name: 'non-ASCII: static text stored encoded, raw request characters encoded before matching',
    spec: '§3.1 non-ASCII',
    routes: ['/café', '/naïve/:x', '/ü/*', '/emoji/:e'],
    cases: [
      { path: '/caf%C3%A9', expect: { route: '/café' } },
      { path: '/café', expect: { route: '/café' } },
      { path: '/caf%c3%a9', expect: null },
      { path: '/cafe%CC%81', expect: null },
      { path: '/naïve/été', expect: { route: '/naïve/:x', params: { x: 'été' } } },
      { path: '/na%C3%AFve/%C3%A9t%C3%A9', expect: { route: '/naïve/:x', params: { x: 'été' } } },
      { path: '/ü/ä/ö', expect: { route: '/ü/*', params: { '*': 'ä/ö' } } },
      { path: '/emoji/😀', expect: { route: '/emoji/:e', params: { e: '😀' } } },
      { path: '/emoji/\ud800', expect: { route: '/emoji/:e', params: { e: '\ufffd' } } },
    ],
  },
];

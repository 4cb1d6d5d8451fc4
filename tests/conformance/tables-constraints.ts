/** ROUTING.md §2: constraint shortcuts and custom regexes in the Rust `regex` dialect. */
import type { MatchTable, Unsupported } from './harness.js';

const uuid = '123e4567-e89b-12d3-a456-426614174000';

/** The reference engine maps `(?i)` to a JS modifier group, which V8 has only from 12.5 (Node 24, not 22). */
const jsHasModifiers = (() => {
  try {
    // A string, not a literal: a literal would be a syntax error of the whole module on such a Node.
    const probe = '(?i:a)';
    new RegExp(probe);
    return true;
  } catch {
    return false;
  }
})();
const needsModifiers: { unsupported?: Unsupported } = jsHasModifiers
  ? {}
  : {
      unsupported: {
        reference: 'this Node has no RegExp modifier groups (V8 < 12.5), so it cannot express (?i)',
      },
    };

export const constraintTables: MatchTable[] = [
  {
    name: 'constraint shortcuts',
    spec: '§2 shortcuts',
    routes: [
      '/int/:v<int>',
      '/slug/:v<slug>',
      '/alpha/:v<alpha>',
      '/alnum/:v<alnum>',
      '/uuid/:v<uuid>',
      '/date/:v<date>',
      '/year/:v<year>',
      '/month/:v<month>',
      '/day/:v<day>',
    ],
    cases: [
      { path: '/int/0042', expect: { route: '/int/:v<int>', params: { v: '0042' } } },
      { path: '/int/-1', expect: null },
      { path: '/int/1.5', expect: null },
      { path: '/slug/hello-world-2', expect: { route: '/slug/:v<slug>', params: { v: 'hello-world-2' } } },
      { path: '/slug/Hello', expect: null },
      { path: '/slug/a_b', expect: null },
      { path: '/alpha/AbC', expect: { route: '/alpha/:v<alpha>', params: { v: 'AbC' } } },
      { path: '/alpha/ab1', expect: null },
      { path: '/alnum/aB3', expect: { route: '/alnum/:v<alnum>', params: { v: 'aB3' } } },
      { path: '/alnum/a-b', expect: null },
      { path: `/uuid/${uuid}`, expect: { route: '/uuid/:v<uuid>', params: { v: uuid } } },
      { path: `/uuid/${uuid.toUpperCase()}`, expect: null },
      { path: `/uuid/${uuid}0`, expect: null },
      { path: '/date/2024-02-29', expect: { route: '/date/:v<date>', params: { v: '2024-02-29' } } },
      { path: '/date/2024-2-29', expect: null },
      { path: '/year/2024', expect: { route: '/year/:v<year>', params: { v: '2024' } } },
      { path: '/year/24', expect: null },
      { path: '/year/20245', expect: null },
      { path: '/month/07', expect: { route: '/month/:v<month>', params: { v: '07' } } },
      { path: '/month/7', expect: null },
      { path: '/day/31', expect: { route: '/day/:v<day>', params: { v: '31' } } },
      { path: '/day/311', expect: null },
    ],
  },
  {
    name: 'custom constraints are matched against the whole value',
    spec: '§2 :name<c>',
    routes: [
      '/api/:version<v\\d+>/users',
      '/ext/:e<jpg|png>',
      '/anchored/:a<^x+$>',
      '/dot/:d<.+>',
      '/class/:c<[^.]+>.txt',
    ],
    cases: [
      { path: '/api/v2/users', expect: { route: '/api/:version<v\\d+>/users', params: { version: 'v2' } } },
      { path: '/api/v/users', expect: null },
      { path: '/api/xv2/users', expect: null },
      { path: '/ext/png', expect: { route: '/ext/:e<jpg|png>', params: { e: 'png' } } },
      { path: '/ext/jpgx', expect: null },
      { path: '/ext/xpng', expect: null },
      { path: '/anchored/xxx', expect: { route: '/anchored/:a<^x+$>', params: { a: 'xxx' } } },
      // A constraint never matches across `/`, even `.+`.
      { path: '/dot/a/b', expect: null },
      { path: '/dot/a.b', expect: { route: '/dot/:d<.+>', params: { d: 'a.b' } } },
      { path: '/class/notes.txt', expect: { route: '/class/:c<[^.]+>.txt', params: { c: 'notes' } } },
      { path: '/class/a/b.txt', expect: null },
    ],
  },
  {
    name: 'Rust regex dialect in constraints',
    spec: '§2 regex crate dialect',
    routes: [
      '/named/:n<(?P<inner>\\d+)-\\d+>',
      '/posix/:p<[[:digit:]]+>',
      '/word/:w<\\w+>',
      '/hex/:h<\\x{41}+>',
      '/esc/:e<a\\-b>',
    ],
    cases: [
      { path: '/named/1-2', expect: { route: '/named/:n<(?P<inner>\\d+)-\\d+>', params: { n: '1-2' } } },
      { path: '/posix/123', expect: { route: '/posix/:p<[[:digit:]]+>', params: { p: '123' } } },
      { path: '/posix/12a', expect: null },
      { path: '/word/a_1', expect: { route: '/word/:w<\\w+>', params: { w: 'a_1' } } },
      { path: '/hex/AA', expect: { route: '/hex/:h<\\x{41}+>', params: { h: 'AA' } } },
      { path: '/esc/a-b', expect: { route: '/esc/:e<a\\-b>', params: { e: 'a-b' } } },
    ],
  },
  {
    name: 'case-insensitive flag in a constraint',
    spec: '§2 regex crate dialect',
    routes: ['/ci/:c<(?i)abc>', '/cg/:c<x(?i:ab)>'],
    cases: [
      { path: '/ci/AbC', expect: { route: '/ci/:c<(?i)abc>', params: { c: 'AbC' } }, ...needsModifiers },
      {
        path: '/cg/xAB',
        expect: { route: '/cg/:c<x(?i:ab)>', params: { c: 'xAB' } },
        ...needsModifiers,
      },
      { path: '/cg/XAB', expect: null, ...needsModifiers },
    ],
  },
];

/** Route metadata: templates, parameter info (ROUTING.md §2, §6), and shadowed routes (ROUTING.md §3.2). */
import type { MetadataTable } from './harness.js';

const param = (name: string, shortcut: string | null = null, regex: string | null = null) =>
  ({ name, kind: 'param', shortcut, regex, optional: false }) as const;

const text = (t: string) => ({ kind: 'text', text: t }) as const;

export const metadataTables: MetadataTable[] = [
  {
    name: 'pieces: the pattern as the core parsed it (issue 13)',
    spec: '§2',
    routes: [
      '/v1/:name::publish',
      '/u/{id<int>}/:tag<[a-z]+>/:page?',
      '/café/*',
      '/y/{^(?P<year>\\d{4})/(\\d+)$}',
    ],
    expect: [
      {
        pattern: '/v1/:name::publish',
        pieces: [
          text('/v1/'),
          { kind: 'param', name: 'name', constraint: 'none', shortcut: null, regex: null, optional: false },
          text(':publish'),
        ],
      },
      {
        pattern: '/u/{id<int>}/:tag<[a-z]+>/:page?',
        pieces: [
          text('/u/'),
          {
            kind: 'param',
            name: 'id',
            constraint: 'shortcut',
            shortcut: 'int',
            regex: '\\d+',
            optional: false,
          },
          text('/'),
          {
            kind: 'param',
            name: 'tag',
            constraint: 'regex',
            shortcut: null,
            regex: '[a-z]+',
            optional: false,
          },
          text('/'),
          { kind: 'param', name: 'page', constraint: 'none', shortcut: null, regex: null, optional: true },
        ],
      },
      { pattern: '/café/*', pieces: [text('/café/'), { kind: 'wildcard' }] },
      {
        pattern: '/y/{^(?P<year>\\d{4})/(\\d+)$}',
        pieces: [
          text('/y/'),
          { kind: 'regex', source: '^(?P<year>\\d{4})/(\\d+)$', captures: ['year', null] },
        ],
      },
    ],
  },
  {
    name: 'templates',
    spec: 'OPENAPI.md path templates',
    routes: [
      '/posts/:id',
      '/posts/{id<int>}/:slug?',
      '/files/*',
      '/files*',
      '/archive/{^(\\d{4})/(\\d{2})$}',
      '/v1/{name}::publish',
      '/café/:x',
      '/',
    ],
    expect: [
      { pattern: '/posts/:id', template: '/posts/{id}', isStatic: false },
      { pattern: '/posts/{id<int>}/:slug?', template: '/posts/{id}/{slug}' },
      { pattern: '/files/*', template: '/files/{*}' },
      { pattern: '/files*', template: '/files{*}' },
      { pattern: '/archive/{^(\\d{4})/(\\d{2})$}', template: '/archive/{^(\\d{4})/(\\d{2})$}', captures: 2 },
      { pattern: '/v1/{name}::publish', template: '/v1/{name}:publish' },
      { pattern: '/café/:x', template: '/café/{x}' },
      { pattern: '/', template: '/', isStatic: true, captures: 0, params: [] },
    ],
  },
  {
    name: 'parameter info',
    spec: '§2, OPENAPI.md',
    routes: [
      [['GET', 'HEAD'], '/u/:id<int>/:tag<[a-z]+>/:page?'],
      '/d/{day<date>}/*',
      '/r/{^(?P<year>\\d{4})/(\\d+)$}',
      '/v/:v<^v\\d+$>',
    ],
    expect: [
      {
        pattern: '/u/:id<int>/:tag<[a-z]+>/:page?',
        methods: ['GET', 'HEAD'],
        params: [
          param('id', 'int', '\\d+'),
          param('tag', null, '[a-z]+'),
          { name: 'page', kind: 'optional', shortcut: null, regex: null, optional: true },
        ],
        captures: 0,
      },
      {
        pattern: '/d/{day<date>}/*',
        params: [
          param('day', 'date', '\\d{4}-\\d{2}-\\d{2}'),
          { name: '*', kind: 'wildcard', shortcut: null, regex: null, optional: false },
        ],
      },
      {
        pattern: '/r/{^(?P<year>\\d{4})/(\\d+)$}',
        // A named group's `regex` is null (decided: it is part of the block, not a constraint of its own).
        params: [{ name: 'year', kind: 'regex-group', shortcut: null, regex: null, optional: false }],
        captures: 2,
      },
      { pattern: '/v/:v<^v\\d+$>', params: [param('v', null, 'v\\d+')] },
    ],
  },
  {
    name: 'every shortcut expands in the metadata',
    spec: '§2 shortcuts',
    routes: ['/:a<slug>/:b<alpha>/:c<alnum>/:d<uuid>/:e<year>/:f<month>/:g<day>'],
    expect: [
      {
        pattern: '/:a<slug>/:b<alpha>/:c<alnum>/:d<uuid>/:e<year>/:f<month>/:g<day>',
        params: [
          param('a', 'slug', '[a-z0-9-]+'),
          param('b', 'alpha', '[a-zA-Z]+'),
          param('c', 'alnum', '[a-zA-Z0-9]+'),
          param('d', 'uuid', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'),
          param('e', 'year', '\\d{4}'),
          param('f', 'month', '\\d{2}'),
          param('g', 'day', '\\d{2}'),
        ],
      },
    ],
  },
  {
    name: 'shadowed routes are reported, never falsely',
    spec: '§3.2',
    routes: [
      '/repos/:owner/:repo/:archive_format/:ref',
      '/repos/:owner/:repo/commits/:ref',
      '/a/*',
      '/a/:x/b',
      '/a',
      '/c/:x<int>',
      '/c/:y<\\d{2}>',
      '/c/5',
      '/d/:x',
      '/d/:y<int>',
      '/d/:p.:q',
      '/e/*',
      '/e',
      '/g/:a',
      '/g/:b?',
      '/search/:t/:p',
      '/search/:term/:page?',
      '/k/:a',
      '/k/:a/:b',
      '/k/:x/:y?',
      '/m/*',
      '/m/:x/:y?',
      ['GET', '/h/:a'],
      ['POST', '/h/:b<int>'],
      '/files*',
      '/files/:x',
      '/filesx.:y',
      '/:x.:y',
      '/:a.png',
      '/:p.:q/*',
      '/:p.:q/a',
    ],
    expect: [
      { pattern: '/repos/:owner/:repo/:archive_format/:ref', shadowedBy: null },
      { pattern: '/repos/:owner/:repo/commits/:ref', shadowedBy: '/repos/:owner/:repo/:archive_format/:ref' },
      { pattern: '/a/:x/b', shadowedBy: '/a/*' },
      { pattern: '/a', shadowedBy: null },
      { pattern: '/c/:y<\\d{2}>', shadowedBy: null },
      { pattern: '/c/5', shadowedBy: null },
      { pattern: '/d/:y<int>', shadowedBy: '/d/:x' },
      { pattern: '/d/:p.:q', shadowedBy: '/d/:x' },
      { pattern: '/e', shadowedBy: null },
      // Decided (issue 13): a route is reported only when every path it matches is taken by earlier
      // routes. `/g/:b?` is only partly taken (`/g/:a` keeps `/g/x`, `/g` still reaches it): not
      // reported; likewise `/search/:term/:page?` under `/search/:t/:p` (`/search/php` reaches it).
      { pattern: '/g/:b?', shadowedBy: null },
      { pattern: '/search/:term/:page?', shadowedBy: null },
      // Each variant taken by another earlier route: reported, naming the earliest of them.
      { pattern: '/k/:x/:y?', shadowedBy: '/k/:a' },
      // Both variants taken by one route.
      { pattern: '/m/:x/:y?', shadowedBy: '/m/*' },
      { pattern: '/h/:b<int>', shadowedBy: null },
      { pattern: '/files/:x', shadowedBy: '/files*' },
      { pattern: '/filesx.:y', shadowedBy: '/files*' },
      { pattern: '/:a.png', shadowedBy: null },
      // Identical segments of several pieces contain each other.
      { pattern: '/:p.:q/a', shadowedBy: '/:p.:q/*' },
    ],
  },
  {
    name: 'an optional parameter shadows the same route without it (a warning, not a conflict)',
    spec: '§3.2, §3 rule 4',
    routes: ['/f/:a?', '/f/:b', '/f'],
    expect: [
      { pattern: '/f/:b', shadowedBy: '/f/:a?' },
      { pattern: '/f', shadowedBy: null, isStatic: true },
    ],
  },
  {
    name: 'nothing is shadowed under specificity order',
    spec: '§3.2',
    options: { order: 'specificity' },
    routes: ['/repos/:owner/:repo/:archive_format/:ref', '/repos/:owner/:repo/commits/:ref', '/a/*', '/a/:x'],
    expect: [
      { pattern: '/repos/:owner/:repo/commits/:ref', shadowedBy: null },
      { pattern: '/a/:x', shadowedBy: null },
    ],
  },
];

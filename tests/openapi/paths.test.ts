/** Engine metadata → OpenAPI paths and path-parameter schemas (docs/OPENAPI.md), as a table. */
import { describe, expect, it } from 'vitest';
import { exportWithDiagnostics } from '../../ts/src/openapi/index.js';
import { normalisePath, openApiPaths } from '../../ts/src/openapi/paths.js';
import { engineInfo, source, table } from './helpers.js';

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const cases: [pattern: string, expected: { path: string; params: { name: string; schema: object }[] }[]][] = [
  ['/users', [{ path: '/users', params: [] }]],
  ['/tasks/:id<int>', [{ path: '/tasks/{id}', params: [{ name: 'id', schema: { type: 'integer' } }] }]],
  ['/tasks/:id', [{ path: '/tasks/{id}', params: [{ name: 'id', schema: { type: 'string' } }] }]],
  [
    '/t/:id<uuid>',
    [{ path: '/t/{id}', params: [{ name: 'id', schema: { type: 'string', format: 'uuid' } }] }],
  ],
  [
    '/d/:day<date>',
    [{ path: '/d/{day}', params: [{ name: 'day', schema: { type: 'string', format: 'date' } }] }],
  ],
  [
    '/y/:y<year>',
    [{ path: '/y/{y}', params: [{ name: 'y', schema: { type: 'string', pattern: '^(?:\\d{4})$' } }] }],
  ],
  [
    '/v/:v<v\\d+>',
    [{ path: '/v/{v}', params: [{ name: 'v', schema: { type: 'string', pattern: '^(?:v\\d+)$' } }] }],
  ],
  [
    '/search/:q/:page?',
    [
      { path: '/search/{q}', params: [{ name: 'q', schema: { type: 'string' } }] },
      {
        path: '/search/{q}/{page}',
        params: [
          { name: 'q', schema: { type: 'string' } },
          { name: 'page', schema: { type: 'string' } },
        ],
      },
    ],
  ],
  [
    '/:lang?',
    [
      { path: '/', params: [] },
      { path: '/{lang}', params: [{ name: 'lang', schema: { type: 'string' } }] },
    ],
  ],
  ['/static/*', [{ path: '/static/{wildcard}', params: [{ name: 'wildcard', schema: { type: 'string' } }] }]],
  ['/files*', [{ path: '/files{wildcard}', params: [{ name: 'wildcard', schema: { type: 'string' } }] }]],
];

describe('engine metadata → OpenAPI paths', () => {
  it.each(cases)('%s', (pattern, expected) => {
    const [route] = table([{ pattern }]);
    expect(route && openApiPaths(route)).toMatchObject(expected);
  });

  it('reads the braced template the engine produces, whatever the registered spelling', () => {
    const info = engineInfo('/t/{id<uuid>}');
    expect(info.template).toBe('/t/{id}');
    expect(info.params).toEqual([
      { name: 'id', kind: 'param', shortcut: 'uuid', regex: uuid, optional: false },
    ]);
    const [route] = table([{ pattern: '/t/{id<uuid>}' }]);
    expect(route && openApiPaths(route)).toEqual([
      { path: '/t/{id}', params: [{ name: 'id', schema: { type: 'string', format: 'uuid' } }] },
    ]);
  });

  it('a {^regex$} block becomes one {regex} parameter with the expression', () => {
    const pattern = '/archive/{^(\\d{4})/(\\d{2})$}';
    expect(engineInfo(pattern)).toMatchObject({ params: [], captures: 2 });
    const [route] = table([{ pattern }]);
    expect(route && openApiPaths(route)).toMatchObject([
      {
        path: '/archive/{regex}',
        params: [{ name: 'regex', schema: { type: 'string', pattern: '^(?:(\\d{4})/(\\d{2}))$' } }],
      },
    ]);
  });

  it('multi-parameter segments keep their literal separators', () => {
    const [route] = table([{ pattern: '/files/:name<[\\w-]+>.:ext<jpg|png>' }]);
    expect(route && openApiPaths(route)[0]?.path).toBe('/files/{name}.{ext}');
  });

  it.each([
    ['/tasks/:id<int>', '/tasks/{id}'],
    ['/tasks/{id<int>}', '/tasks/{id}'],
    ['/a/:x<(?P<y>\\d+)>/b', '/a/{x}/b'],
    ['/s/:q/:p?', '/s/{q}/{p}'],
    ['/static/*', '/static/{*}'],
  ])('normalisePath(%s) = %s', (input, expected) => expect(normalisePath(input)).toBe(expected));

  it('optional parameters give two operations with unique operationIds', () => {
    const routes = table([{ pattern: '/search/:q/:page?', name: 'search' }]);
    const { document } = exportWithDiagnostics(source(routes));
    expect(Object.keys(document.paths)).toEqual(['/search/{q}', '/search/{q}/{page}']);
    expect(document.paths['/search/{q}']?.get?.operationId).toBe('search');
    expect(document.paths['/search/{q}/{page}']?.get?.operationId).toBe('search_get');
  });
});

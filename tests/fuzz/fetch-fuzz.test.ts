// Property tests: random methods, paths, headers and bodies thrown at an application through
// `app.fetch()` (and, for targets no URL parser would produce, straight at `app.dispatch()`).
// Whatever arrives, the application answers: never a rejection, never a 5xx except from the handlers
// that throw on purpose (and 501 for a method nobody implements), a JSON error body that parses, and
// afterwards the engine still routes the known requests exactly as before.
import fc from 'fast-check';
import '../support/fast-check.js';
import { describe, expect, it } from 'vitest';
import { headersFromMap, VERBS } from '../../ts/src/app/index.js';
import { createFuzzApp } from './fuzz-app.js';

const { app, logger } = createFuzzApp();
const KNOWN_METHODS = new Set<string>(VERBS);
/** The throttled routes need a client address: without one the throttle refuses to count (a 500). */
const CLIENT = { remoteAddress: '127.0.0.1' };

/** Requests with a known answer, checked before and after the fuzzing. */
const KNOWN: [method: string, path: string, status: number, body: unknown][] = [
  ['GET', '/users/42', 200, { route: 'users.show', params: { id: '42' }, captures: [] }],
  ['GET', '/users/me', 200, { route: 'users.me', params: {}, captures: [] }],
  ['GET', '/users/bob', 200, { route: 'users.byName', params: { name: 'bob' }, captures: [] }],
  ['GET', '/search/php/2', 200, { q: 'php', page: '2' }],
  ['GET', '/search/php', 200, { q: 'php', page: '1' }],
  [
    'GET',
    '/files/my-image.jpg',
    200,
    { route: 'files.image', params: { name: 'my-image', ext: 'jpg' }, captures: [] },
  ],
  ['GET', '/files/a.b.c', 200, { route: 'files.any', params: { file: 'a.b', ext: 'c' }, captures: [] }],
  ['GET', '/range/x-y-z', 200, { route: 'range', params: { from: 'x-y', to: 'z' }, captures: [] }],
  ['GET', '/archive/2024/05', 200, { route: 'archive', params: {}, captures: ['2024', '05'] }],
  ['GET', '/static/a%2Fb', 200, { route: 'static', params: { '*': 'a/b' }, captures: [] }],
  ['GET', '/caf%C3%A9', 200, { route: 'cafe', params: {}, captures: [] }],
  ['GET', '/api/v1/things/7', 200, { route: 'api.v1.thing', params: { id: '7' }, captures: [] }],
  ['GET', '/posts/7', 200, { post: { id: '7' } }],
  ['GET', '/posts/404', 404, undefined],
  ['GET', '/photos', 200, { route: 'photos.index' }],
  ['DELETE', '/users/1', 204, undefined],
  ['PATCH', '/users/1', 405, undefined],
  ['GET', '/users/%E0%A4%A', 400, undefined],
  ['GET', '/nowhere', 404, undefined],
];

async function checkKnown(): Promise<void> {
  for (const [method, path, status, body] of KNOWN) {
    const response = await app.fetch(new Request(`http://fuzz.test${path}`, { method }), CLIENT);
    const text = await response.text();
    expect({ method, path, status: response.status }).toEqual({ method, path, status });
    if (body !== undefined) expect(JSON.parse(text)).toEqual(body);
  }
}

/** Checks one answer; `expectedErrors` is how many on-purpose errors the logger held before. */
async function checkAnswer(
  method: string,
  response: globalThis.Response,
  errorsBefore: number,
): Promise<void> {
  const fresh = logger.errors.slice(errorsBefore);
  const onPurpose = fresh.every(({ error }) => error instanceof Error && /on purpose/.test(error.message));
  // Any error logged that a handler did not throw on purpose is a bug, whatever the status said.
  expect(onPurpose, `unexpected error logged: ${fresh.map((e) => String(e.error)).join('; ')}`).toBe(true);
  const status = response.status;
  expect(status).toBeGreaterThanOrEqual(200);
  expect(status).toBeLessThan(600);
  if (status >= 500) {
    const allowed = (status === 500 && fresh.length > 0) || (status === 501 && !KNOWN_METHODS.has(method));
    expect(allowed, `${status} for ${method} ${response.url}`).toBe(true);
  }
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') && text !== '') expect(() => JSON.parse(text)).not.toThrow();
  if (method === 'HEAD' || status === 204 || status === 304) expect(text).toBe('');
}

const SEGMENTS = [
  'users',
  'me',
  '42',
  '-1',
  '007',
  'files',
  'static',
  'api',
  'v1',
  'v2',
  'things',
  'search',
  'range',
  'archive',
  'redos',
  'nested',
  'pair',
  'split',
  'posts',
  'photos',
  'create',
  'edit',
  'boom',
  'boom-async',
  'any',
  'both',
  'items',
  'café',
  'caf%C3%A9',
  '%2F',
  '%252F',
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%FF',
  '..',
  '.',
  '',
  'a-b-c',
  'x.y.z',
  'a.jpg',
  '2024',
  '05',
  '*',
  ':id',
  '{x}',
  '?',
  '#',
  ' ',
  '\u00e9',
  '\ud83d\ude00',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab',
];
const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.webSegment() },
);
/** Shapes of the registered routes, `{}` filled with random values: most requests reach a handler. */
const TEMPLATES = [
  '/',
  '/users',
  '/users/me',
  '/users/{}',
  '/search/{}',
  '/search/{}/{}',
  '/files/{}.{}',
  '/files/{}',
  '/range/{}-{}',
  '/v{}/status',
  '/items/{}',
  '/archive/{}/{}',
  '/static/{}',
  '/static/{}/{}',
  '/any/{}',
  '/both',
  '/café',
  '/posts/{}',
  '/photos',
  '/photos/{}',
  '/photos/create',
  '/photos/{}/edit',
  '/api/ping',
  '/api/v1/things/{}',
  '/redos/nested/{}',
  '/redos/pair/{}',
  '/redos/split/{}-{}',
  '/redos/multi/{}-{}',
  '/redos/dots/{}.{}.{}',
  '/redos/words/{}',
  '/boom',
];
const routeShaped = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.array(segment, { minLength: 3, maxLength: 3 }))
  .map(([template, values]) => {
    let i = 0;
    return template.replace(/\{\}/g, () => values[i++ % values.length] ?? '');
  });
const randomShaped = fc.array(segment, { maxLength: 7 }).map((segments) => `/${segments.join('/')}`);
const path = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: routeShaped }, { weight: 2, arbitrary: randomShaped }),
    fc.boolean(),
    fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  )
  .map(
    ([p, trailing, query]) =>
      `${p}${trailing && !p.endsWith('/') ? '/' : ''}${query === undefined ? '' : `?${query}`}`,
  );
/** More runs for a longer hunt: ARBOR_FUZZ_RUNS=20000. */
const RUNS = Number(process.env.ARBOR_FUZZ_RUNS ?? 1500);
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VERBS) },
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'patch', 'PROPFIND', 'FOO', 'M-SEARCH', 'purge') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/) },
);
const headerName = fc.oneof(
  fc.constantFrom(
    'content-type',
    'accept',
    'authorization',
    'x-forwarded-for',
    'origin',
    'cookie',
    'if-none-match',
    'range',
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);
const headerValue = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/x-www-form-urlencoded',
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/vnd.api+json',
    'Bearer x',
    '*/*',
    '',
  ),
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/).map((v) => v.trim()),
);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 5 });
const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((j) => j as string),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 512 }),
  fc.constantFrom('{"title":', '{}', '[]', 'null', 'a=1&b=2&a=3', '\u0000', '{"__proto__":{"x":1}}'),
);

describe('fuzzing the application through app.fetch()', () => {
  it('answers the known requests correctly before fuzzing', checkKnown);

  it('answers any request without rejecting, without an unexpected 5xx, with well-formed bodies', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
        let request: globalThis.Request;
        try {
          const init: RequestInit = { method: m, headers: h };
          if (b !== undefined && !['GET', 'HEAD'].includes(m.toUpperCase())) init.body = b as BodyInit;
          request = new Request(`http://fuzz.test${p}`, init);
        } catch {
          fc.pre(false); // not a request a client can send (forbidden method, invalid header, …)
          return;
        }
        const before = logger.errors.length;
        const response = await app.fetch(request, CLIENT);
        await checkAnswer(request.method, response, before);
      }),
      { numRuns: RUNS },
    );
    // Within the same test, so it holds whichever tests ran before or alone.
    await checkKnown();
  }, 120_000);

  it('answers raw request targets that no URL parser would produce (straight to the kernel)', async () => {
    const rawTarget = fc.oneof(
      fc.string({ maxLength: 60 }).map((s) => `/${s}`),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => `/files/${s}`),
      fc
        .array(
          fc.constantFrom('/', '//', '..', '.', '%', '%2', '%2F', '%zz', 'users', '42', '?', '#', '*', ' '),
          { maxLength: 10 },
        )
        .map((parts) => `/${parts.join('')}`),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(method, rawTarget, async (m, target) => {
        const before = logger.errors.length;
        const response = await app.dispatch({
          method: m,
          target,
          headers: headersFromMap(new Map()),
          ip: '127.0.0.1',
          hasBody: false,
          readBody: async () => new Uint8Array(0),
        });
        const status = response.getStatus();
        const fresh = logger.errors.slice(before);
        expect(fresh.every(({ error }) => error instanceof Error && /on purpose/.test(error.message))).toBe(
          true,
        );
        expect(status).toBeGreaterThanOrEqual(200);
        if (status >= 500)
          expect((status === 500 && fresh.length > 0) || (status === 501 && !KNOWN_METHODS.has(m))).toBe(
            true,
          );
      }),
      { numRuns: RUNS },
    );
    // Within the same test, so it holds whichever tests ran before or alone.
    await checkKnown();
  }, 120_000);
});

// A corpus of historical router bugs, replayed against Arbor's engine (the WebAssembly router) and, for
// the ones a user meets through HTTP, the application. Each row names the bug it pins.
//
// ReDoS: routers that compile patterns to backtracking regular expressions have shipped denial-of-service
// bugs where one crafted path costs seconds of CPU:
// - path-to-regexp CVE-2024-45296 (GHSA-9wv6-86v2-598j): two parameters in one segment (`/:a-:b`)
//   compiled to `([^/]+?)-([^/]+?)` backtrack quadratically-to-exponentially on `/-a-a-a…/x`;
// - find-my-way CVE-2024-45813 (GHSA-rrr8-f88r-h8q6): multi-parametric segments with regexes
//   (`/:a(\d+)-:b(\d+)`) backtrack the same way;
// - and the textbook shapes a user may write as a constraint: `(a+)+b`, `(a|aa)+c`, `(\w+\s?)*`.
// Arbor's constraints run on the Rust `regex` crate (finite automata, linear in the input), and its
// segment splitting is a bounded search: each crafted path must be answered in milliseconds.
import { describe, expect, it } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { Router } from '../../ts/src/router/index.js';

/** Generous on a shared two-core machine; a backtracking engine needs seconds to years on these inputs.
 * Every time compared with it is the best of several runs after a warm-up (see {@link timed}). */
const BOUND_MS = 250;

interface RedosCase {
  name: string;
  pattern: string;
  /** A path that makes a backtracking matcher explode (near-miss: it must NOT match). */
  attack: (n: number) => string;
  /** A path of the same family that must match, with its parameters. */
  good: [path: string, params: Record<string, string>];
}

const REDOS: RedosCase[] = [
  {
    name: 'path-to-regexp CVE-2024-45296: two parameters in one segment',
    pattern: '/split/:a-:b',
    attack: (n) => `/split/${'-a'.repeat(n)}/x`,
    good: ['/split/x-y-z', { a: 'x-y', b: 'z' }],
  },
  {
    name: 'path-to-regexp CVE-2024-45296: three parameters with dots',
    pattern: '/dots/:a.:b.:c',
    attack: (n) => `/dots/${'.a'.repeat(n)}/x`,
    good: ['/dots/a.b.c.d', { a: 'a.b', b: 'c', c: 'd' }],
  },
  {
    name: 'find-my-way CVE-2024-45813: multi-parametric segment with regexes',
    pattern: '/multi/:a<\\d+>-:b<\\d+>',
    attack: (n) => `/multi/${'1-'.repeat(n)}x`,
    good: ['/multi/12-34', { a: '12', b: '34' }],
  },
  {
    name: 'nested quantifier constraint (a+)+b',
    pattern: '/nested/:v<(a+)+b>',
    attack: (n) => `/nested/${'a'.repeat(n)}c`,
    good: ['/nested/aaab', { v: 'aaab' }],
  },
  {
    name: 'overlapping alternation (a|aa)+c',
    pattern: '/alt/:v<(a|aa)+c>',
    attack: (n) => `/alt/${'a'.repeat(n)}`,
    good: ['/alt/aaac', { v: 'aaac' }],
  },
  {
    name: 'capture groups around a separator (\\d+)-(\\d+)',
    pattern: '/pair/:x<(\\d+)-(\\d+)>',
    attack: (n) => `/pair/${'1'.repeat(n)}-${'1'.repeat(n)}-`,
    good: ['/pair/12-34', { x: '12-34' }],
  },
  {
    name: 'word/space star (\\w+\\s?)*',
    pattern: '/words/:v<(\\w+\\s?)*>',
    attack: (n) => `/words/${'a'.repeat(n)}!`,
    good: ['/words/hello', { v: 'hello' }],
  },
  {
    name: 'regex block after a static prefix ^(a+)+$',
    pattern: '/block/{^(a+)+$}',
    attack: (n) => `/block/${'a'.repeat(n)}!`,
    good: ['/block/aaa', {}],
  },
];

/**
 * `fn`'s result and its best time over `runs` runs, after one untimed run. The warm-up keeps one-off
 * costs out of the figure (the engine builds its matcher on the first lookup, regex caches fill); the
 * minimum keeps out what a busy machine adds (a preempted run is slower, never faster), so only a real
 * super-linear cost can cross the bound.
 */
function timed<T>(fn: () => T, runs = 5): [T, number] {
  let value = fn();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = fn();
    best = Math.min(best, performance.now() - started);
  }
  return [value, best];
}

/** {@link timed} for an asynchronous `fn`. */
async function timedAsync<T>(fn: () => Promise<T>, runs = 3): Promise<[T, number]> {
  let value = await fn();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    value = await fn();
    best = Math.min(best, performance.now() - started);
  }
  return [value, best];
}

describe('ReDoS corpus: crafted paths are answered in linear time', () => {
  const router = new Router<string>();
  for (const c of REDOS) router.add('GET', c.pattern, c.name);

  for (const c of REDOS) {
    it(`${c.name} (${c.pattern})`, () => {
      const [path, params] = c.good;
      const match = router.find('GET', path);
      expect(match?.value).toBe(c.name);
      expect(match?.params).toEqual(expect.objectContaining(params));
      for (const n of [32, 1000, 3000]) {
        const attack = c.attack(n);
        const [result, ms] = timed(() => router.find('GET', attack));
        expect(result?.value, `${attack.length}-char attack must not match`).not.toBe(c.name);
        expect(ms, `${attack.length}-char attack took ${ms.toFixed(1)} ms`).toBeLessThan(BOUND_MS);
      }
    });
  }

  it('answers the attacks through HTTP semantics too (app.fetch, 404 within the bound)', async () => {
    const app = new Application({ logger: memoryLogger() });
    for (const c of REDOS) app.get(c.pattern, (_req, res) => res.json({ name: c.name }));
    for (const c of REDOS) {
      const [status, ms] = await timedAsync(
        async () => (await app.fetch(new Request(`http://redos.test${c.attack(2000)}`))).status,
      );
      expect(status, c.name).toBe(404);
      expect(ms, `${c.name}: ${ms.toFixed(1)} ms`).toBeLessThan(BOUND_MS);
    }
  });
});

interface Row {
  bug: string;
  routes: string[];
  path: string;
  /** Index into `routes` of the expected match, or null for no match. */
  expect: number | null;
  params?: Record<string, string>;
}

// Matching bugs other routers shipped, as a table: routes in definition order, one request, the answer.
const ROWS: Row[] = [
  {
    bug: '%2F in a parameter must not split segments',
    routes: ['/files/:name'],
    path: '/files/a%2Fb',
    expect: 0,
    params: { name: 'a/b' },
  },
  { bug: 'a raw / still splits', routes: ['/files/:name'], path: '/files/a/b', expect: null },
  {
    bug: '%2F inside a wildcard tail is decoded once',
    routes: ['/static/*'],
    path: '/static/a%2Fb/c',
    expect: 0,
    params: { '*': 'a/b/c' },
  },
  {
    bug: 'double encoding is decoded once (%252F → %2F)',
    routes: ['/files/:name'],
    path: '/files/a%252Fb',
    expect: 0,
    params: { name: 'a%2Fb' },
  },
  { bug: '%2F must not reach a static route', routes: ['/a/b'], path: '/a%2Fb', expect: null },
  {
    bug: 'static beats dynamic whatever the order',
    routes: ['/users/:id', '/users/me'],
    path: '/users/me',
    expect: 1,
  },
  {
    bug: 'a failed constraint falls through to the next route',
    routes: ['/users/:id<int>', '/users/:name'],
    path: '/users/bob',
    expect: 1,
    params: { name: 'bob' },
  },
  {
    bug: 'overlapping params: the earlier takes the longest value',
    routes: ['/:from-:to'],
    path: '/x-y-z',
    expect: 0,
    params: { from: 'x-y', to: 'z' },
  },
  {
    bug: 'file.ext splits on the last dot',
    routes: ['/:file.:ext'],
    path: '/a.b.c',
    expect: 0,
    params: { file: 'a.b', ext: 'c' },
  },
  {
    bug: 'constrained neighbours backtrack to a valid split',
    routes: ['/files/:name<[\\w-]+>.:ext<jpg|png>'],
    path: '/files/my.image.png',
    expect: null,
  },
  { bug: 'a parameter never matches an empty segment', routes: ['/a/:p'], path: '/a//', expect: null },
  {
    bug: 'optional last parameter, absent',
    routes: ['/search/:q/:page?'],
    path: '/search/php',
    expect: 0,
    params: { q: 'php' },
  },
  {
    bug: 'optional last parameter, present',
    routes: ['/search/:q/:page?'],
    path: '/search/php/2',
    expect: 0,
    params: { q: 'php', page: '2' },
  },
  { bug: 'matching is case-sensitive', routes: ['/users'], path: '/USERS', expect: null },
  { bug: 'duplicate slashes are not collapsed', routes: ['/a/b'], path: '/a//b', expect: null },
  {
    bug: 'dot segments are not resolved by the router',
    routes: ['/static/*'],
    path: '/static/../etc/passwd',
    expect: 0,
    params: { '*': '../etc/passwd' },
  },
  {
    bug: 'non-ASCII pattern matches its percent-encoded request',
    routes: ['/café'],
    path: '/caf%C3%A9',
    expect: 0,
  },
  { bug: 'non-ASCII request path is matched encoded', routes: ['/café'], path: '/café', expect: 0 },
  { bug: 'lower-case hex is not folded to upper-case', routes: ['/café'], path: '/caf%c3%a9', expect: null },
  {
    bug: 'trailing * after literal text',
    routes: ['/files*'],
    path: '/files.txt',
    expect: 0,
    params: { '*': '.txt' },
  },
  {
    bug: 'query string is not part of matching',
    routes: ['/a/:p'],
    path: '/a/x?y=/z',
    expect: 0,
    params: { p: 'x' },
  },
  {
    bug: 'a very long segment is not a crash',
    routes: ['/a/:p'],
    path: `/a/${'x'.repeat(100_000)}`,
    expect: 0,
  },
  { bug: 'many segments are not a crash', routes: ['/a/*'], path: `/a${'/x'.repeat(20_000)}`, expect: 0 },
];

describe('historical router bugs', () => {
  for (const row of ROWS) {
    it(`${row.bug}: ${row.routes.join(' , ')} ← ${row.path.length > 60 ? `${row.path.slice(0, 40)}… (${row.path.length} chars)` : row.path}`, () => {
      const router = new Router<number>();
      row.routes.forEach((pattern, index) => {
        router.add('GET', pattern, index);
      });
      const [match, ms] = timed(() => router.find('GET', row.path));
      expect(ms).toBeLessThan(BOUND_MS);
      if (row.expect === null) {
        expect(match).toBeNull();
        return;
      }
      expect(match?.value).toBe(row.expect);
      expect(match?.malformed).toBe(false);
      if (row.params) expect(match?.params).toEqual(row.params);
    });
  }

  it('a malformed escape in a value is reported, never thrown, and answers 400 over HTTP', async () => {
    const router = new Router<number>();
    router.add('GET', '/files/:name', 0);
    for (const path of ['/files/%E0%A4%A', '/files/%zz', '/files/%', '/files/%C3']) {
      expect(router.find('GET', path)?.malformed, path).toBe(true);
    }
    const app = new Application({ logger: memoryLogger() });
    app.get('/files/:name', (req, res) => res.json({ name: req.param('name') }));
    const response = await app.fetch(new Request('http://bugs.test/files/%E0%A4%A'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(expect.objectContaining({ code: 400 }));
  });

  it('a whole-path regex block registered on an application matches the whole path (ROUTING.md §2)', async () => {
    const app = new Application({ logger: memoryLogger() });
    app.get('{^/archive/(\\d{4})/(\\d{2})$}', (req, res) => res.json({ captures: req.captures() }));
    const response = await app.fetch(new Request('http://bugs.test/archive/2024/05'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ captures: ['2024', '05'] });
  });
});

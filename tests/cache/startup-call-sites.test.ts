/**
 * A start from the route cache takes each route's call site from the cache instead of capturing a stack
 * trace per registration — but only where that gives the call site a capture would: same route at the
 * same position, source file unchanged, and one real capture per file agreeing. Everywhere else (an
 * edited file, a route the cache does not hold, a cache that names call sites differently) the call site
 * is captured, so error messages, shadowing warnings and tooling read exactly what a compiled start reads.
 *
 * The routes are registered from real module files written to a temporary directory; the caches are
 * written by the same code `arbor route:cache` uses.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { ExpectedRoutes, registrationIndex } from '../../ts/src/cache/expected.js';
import { fingerprint, type RouteKey, tableOptions } from '../../ts/src/cache/fingerprint.js';
import { type CachedRoute, decodeCache, encodeCache, parseSection } from '../../ts/src/cache/format.js';
import { buildRouteCache, writeCacheFile } from '../../ts/src/cache/write.js';
import { RouteError } from '../../ts/src/errors.js';
import type { AnnotationSet } from '../../ts/src/openapi/types.js';

const dir = mkdtempSync(join(tmpdir(), 'arbor-call-sites-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROUTES = `export function register(app) {
  const ok = (_req, res) => res.json({ ok: true });
  app.get('/a', ok);
  app.get('/b/:id', ok).name('b');
  app.post('/c', ok);
  app.get('/d/*', ok);
}
`;
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

let modules = 0;
/** A module of its own (ES modules are cached by URL), registering `source`'s routes. */
async function routesModule(source: string = ROUTES) {
  const file = join(dir, `routes-${++modules}.mjs`);
  writeFileSync(file, source);
  const { register } = (await import(pathToFileURL(file).href)) as { register(app: Application): void };
  return { file, register };
}

/** Writes the cache of a compiled application registering `register`'s routes; `edit` alters its header. */
function writeCache(
  register: (app: Application) => void,
  edit?: (header: ReturnType<typeof decodeCache>['header']) => void,
): string {
  const compiled = new Application({ routeCache: false });
  register(compiled);
  const file = join(dir, `cache-${++modules}.bin`);
  let bytes = buildRouteCache(compiled).bytes;
  if (edit !== undefined) {
    const { header, snapshot, routes, annotations } = decodeCache(bytes);
    edit(header);
    const { format: _f, sections: _s, crc32: _c, routeCount: _r, ...meta } = header;
    bytes = encodeCache(meta, {
      snapshot,
      routes: parseSection<CachedRoute[]>(routes),
      annotations: parseSection<AnnotationSet | null>(annotations),
    });
  }
  writeCacheFile(file, bytes);
  return file;
}

const sites = (app: Application) => app.routeTable().map((r) => r.callSite && `${r.callSite.line}`);

describe('call sites of a start from the route cache', () => {
  it('are those of a compiled start, and the cache is used', async () => {
    const { register } = await routesModule();
    const cache = writeCache(register);
    const compiled = new Application({ routeCache: false });
    register(compiled);
    const cached = new Application({ routeCache: cache });
    register(cached);
    expect(sites(cached)).toEqual(sites(compiled));
    expect(sites(cached)).toEqual(['3', '4', '5', '6']);
    expect(cached.cachedAnnotations()).not.toBeNull();
    expect(cached.routeTable().map((r) => r.handlerLocation)).toEqual(
      compiled.routeTable().map((r) => r.handlerLocation),
    );
  });

  it('come from the cache, not from a capture, for an unchanged file once one capture agreed', async () => {
    const { register } = await routesModule();
    // A cache that claims route 2 was registered on line 99: only a start that reads it says so.
    const cache = writeCache(register, (header) => {
      if (header.registrations) header.registrations.sites[2 * 2 + 1] = 99;
    });
    const cached = new Application({ routeCache: cache });
    register(cached);
    expect(sites(cached)).toEqual(['3', '4', '99', '6']);
  });

  it('are captured when the file changed since the cache was written', async () => {
    const { file, register } = await routesModule();
    const cache = writeCache(register, (header) => {
      if (header.registrations) header.registrations.sites[2 * 2 + 1] = 99;
    });
    writeFileSync(file, `// edited\n${readFileSync(file, 'utf8')}`);
    const cached = new Application({ routeCache: cache });
    register(cached); // the code loaded before the edit: its real lines
    expect(sites(cached)).toEqual(['3', '4', '5', '6']);
  });

  it('are captured when the one capture per file disagrees with the cache', async () => {
    const { register } = await routesModule();
    const cache = writeCache(register, (header) => {
      if (!header.registrations) return;
      header.registrations.sites[1] = 98; // the first route, the one captured to confirm the file
      header.registrations.sites[2 * 2 + 1] = 99;
    });
    const cached = new Application({ routeCache: cache });
    register(cached);
    expect(sites(cached)).toEqual(['3', '4', '5', '6']);
  });

  it('are captured for routes the cache does not hold, and a stale start reports them exactly', async () => {
    const { register } = await routesModule();
    const cache = writeCache(register);
    const source = ROUTES.replace(
      "  app.get('/d/*', ok);\n",
      "  app.get('/d/*', ok);\n  app.get('/e/:id<[>', ok);\n",
    );
    const stale = await routesModule(source);
    const warnings: Error[] = [];
    const listener = (w: Error) => warnings.push(w);
    process.on('warning', listener);
    let error: unknown;
    try {
      const app = new Application({ routeCache: cache });
      stale.register(app);
      app.ready();
    } catch (e) {
      error = e;
    } finally {
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      process.off('warning', listener);
    }
    expect(error).toBeInstanceOf(RouteError);
    expect((error as Error).message).toContain(
      `(registered at ${stale.file}:${lineOf(source, "'/e/:id<[>'")})`,
    );
    expect(warnings.map((w) => (w as { code?: string }).code)).toContain('ARBOR_ROUTE_CACHE_STALE');
  });

  it('a registration mistake names its own line whatever the cache says', async () => {
    const { register } = await routesModule();
    const cache = writeCache(register);
    const app = new Application({ routeCache: cache });
    register(app);
    const here = lineOf(readFileSync(new URL(import.meta.url), 'utf8'), `${'MISTAKE'}_LINE`);
    // biome-ignore format: the registration stays on the line the test looks for
    expect(() => app.get('/f', 42 as never)).toThrow(new RegExp(`registered at .*startup-call-sites\\.test\\.ts:${here}\\b`)); // MISTAKE_LINE
  });
});

describe('a start from the route cache', () => {
  it('serves the cached table and decides staleness from the stored index like the fingerprint', async () => {
    const { register } = await routesModule();
    const cache = writeCache(register);
    const app = new Application({ routeCache: cache });
    register(app);
    const answer = await app.fetch(new Request('http://t/b/7'));
    expect(answer.status).toBe(200);
    expect(app.cachedAnnotations()).not.toBeNull();
    expect(app.route('b', { id: 7 })).toBe('/b/7');

    // Registered as 'b' when the cache was written; here as 'b2': stale, as the fingerprint would say.
    const renamed = new Application({ routeCache: cache });
    const ok = (_req: unknown, res: { json(v: unknown): unknown }) => res.json({});
    renamed.get('/a', ok as never);
    renamed.get('/b/:id', ok as never).name('b2');
    renamed.post('/c', ok as never);
    renamed.get('/d/*', ok as never);
    const warnings: Error[] = [];
    const listener = (w: Error) => warnings.push(w);
    process.on('warning', listener);
    try {
      expect(renamed.cachedAnnotations()).toBeNull();
      expect(renamed.route('b2', { id: 7 })).toBe('/b/7');
    } finally {
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', listener);
    }
    expect(warnings.map((w) => (w as { code?: string }).code)).toEqual(['ARBOR_ROUTE_CACHE_STALE']);
  });
});

describe('the registration index decides like the fingerprint', () => {
  const routes: RouteKey[] = [
    { methods: ['GET'], pattern: '/tasks', name: 'tasks.index' },
    { methods: ['GET', 'HEAD'], pattern: '/tasks/:id', name: null },
  ];
  const written = routes.map((r) => ({ ...r, callSite: null }));
  const expected = new ExpectedRoutes(registrationIndex(written));
  const options = tableOptions({});
  const print = fingerprint(routes, options);

  it.each([
    ['the same routes', routes],
    [
      'methods spelled otherwise',
      [routes[0], { ...(routes[1] as RouteKey), methods: ['get', 'GET', 'head'] }],
    ],
    ['a route added', [...routes, { methods: ['POST'], pattern: '/tasks', name: null }]],
    ['a route removed', routes.slice(1)],
    ['routes reordered', [...routes].reverse()],
    ['a route renamed', [{ ...(routes[0] as RouteKey), name: 'tasks.all' }, routes[1]]],
    ['a name added', [routes[0], { ...(routes[1] as RouteKey), name: 'tasks.show' }]],
    ['methods reordered', [routes[0], { ...(routes[1] as RouteKey), methods: ['HEAD', 'GET'] }]],
    ['another method', [routes[0], { ...(routes[1] as RouteKey), methods: ['GET', 'POST'] }]],
  ])('%s', (_what, now) => {
    expect(expected.matches(now as RouteKey[])).toBe(fingerprint(now as RouteKey[], options) === print);
  });
});

describe('a snapshot that does not hold the routes its header lists', () => {
  const ok = (_req: unknown, res: { json(v: unknown): unknown }) => res.json({ ok: true });
  const routesOf = (count: number) => (app: Application) => {
    for (let i = 0; i < count; i++) app.get(`/r${i}`, ok as never);
  };

  /** A cache whose header, route list and annotations are those of 3 routes, and whose snapshot is not. */
  function mismatched(snapshotRoutes: number): string {
    const listed = decodeCache(buildRouteCacheOf(routesOf(3)));
    const other = decodeCache(buildRouteCacheOf(routesOf(snapshotRoutes)));
    const { format: _f, sections: _s, crc32: _c, routeCount: _r, ...meta } = listed.header;
    const file = join(dir, `mismatched-${++modules}.bin`);
    writeCacheFile(
      file,
      encodeCache(meta, {
        snapshot: other.snapshot,
        routes: parseSection<CachedRoute[]>(listed.routes),
        annotations: parseSection<AnnotationSet | null>(listed.annotations),
      }),
    );
    return file;
  }

  function buildRouteCacheOf(register: (app: Application) => void): Buffer {
    const app = new Application({ routeCache: false });
    register(app);
    return buildRouteCache(app).bytes;
  }

  it.each([
    ['more', 4],
    ['fewer', 2],
  ])('(%s routes) is reported as corrupt and the routes are compiled', async (_what, count) => {
    const file = mismatched(count);
    const warnings: Error[] = [];
    const listener = (w: Error) => warnings.push(w);
    process.on('warning', listener);
    let statuses: number[] = [];
    try {
      const app = new Application({ routeCache: file });
      routesOf(3)(app);
      statuses = await Promise.all(
        ['/r0', '/r2', '/r3'].map(async (path) => (await app.fetch(new Request(`http://t${path}`))).status),
      );
      expect(app.cachedAnnotations()).toBeNull();
    } finally {
      await new Promise((resolve) => setImmediate(resolve));
      process.off('warning', listener);
    }
    expect(statuses).toEqual([200, 200, 404]);
    expect(warnings.map((w) => `${(w as { code?: string }).code}: ${w.message}`)).toEqual([
      expect.stringMatching(/^ARBOR_ROUTE_CACHE_CORRUPT: .*does not match its own header/),
    ]);
  });
});

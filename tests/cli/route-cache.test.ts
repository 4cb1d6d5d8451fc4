/**
 * `route:cache` / `route:clear` and what a start does with the file: a fresh cache is used (nothing
 * compiled, annotations from the cache), anything else — stale, corrupt, another format or Arbor version —
 * warns once and the routes registered are compiled and served. Every command and start is a process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countWarnings, DemoCopy } from './support.js';

const REQUESTS: [string, string][] = [
  ['GET', '/tasks'],
  ['GET', '/api/products/1'],
  ['GET', '/api/products/abc'],
  ['POST', '/api/products'],
];

/** What the demo answers without a cache: the expectation for every start below. */
const EXPECTED = [
  { path: '/tasks', status: 200 },
  { path: '/api/products/1', status: 200 },
  { path: '/api/products/abc', status: 404 },
  { path: '/api/products', status: 401 },
];

// Every test starts at least one process (tsx + the demo): generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const statuses = (probe: { responses: { path: string; status: number }[] }) =>
  probe.responses.map(({ path, status }) => ({ path, status }));

describe('route:cache and start-up', () => {
  const demo = new DemoCopy();
  let pristine: Buffer;

  beforeAll(async () => {
    const run = await demo.arbor(['route:cache', '--app', 'server.ts']);
    expect(run.stderr).not.toContain('arbor: error');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Routes cached: \d+ routes → \.arbor\/routes\.cache/);
    pristine = readFileSync(demo.cacheFile);
  });
  afterAll(() => demo.remove());

  let copies = 0;
  /** A cache file of the test's own (so no test sees what another left), and the variable that selects it. */
  const ownCache = (bytes: Buffer = pristine) => {
    mkdirSync(demo.path('caches'), { recursive: true });
    const file = demo.path(`caches/${++copies}.cache`);
    writeFileSync(file, bytes);
    return { ARBOR_ROUTE_CACHE: file };
  };

  it('writes one file at the documented default location, with magic bytes and format version', () => {
    expect(pristine.subarray(0, 8).toString('latin1')).toBe('ARBORRC\n');
    expect(pristine.readUInt32LE(8)).toBe(2);
  });

  it('a start with a matching cache uses it and routes like a compiled start', async () => {
    const cold = await demo.probe(REQUESTS, { ARBOR_ROUTE_CACHE: 'off' });
    const warm = await demo.probe(REQUESTS, ownCache());
    expect(cold.cached).toBe(false);
    expect(warm.cached).toBe(true);
    expect(statuses(warm)).toEqual(EXPECTED);
    // Same answers, byte for byte, but for the seed data's creation times.
    const stable = (probe: typeof cold) =>
      probe.responses.map((r) => ({ ...r, body: r.body.replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"') }));
    expect(stable(warm)).toEqual(stable(cold));
    expect(warm.stderr).not.toContain('ARBOR_ROUTE_CACHE');
  });

  it('a stale cache (a route added since) warns once and serves the new table', async () => {
    const cache = ownCache();
    demo.edit('server.ts', (t) =>
      t.replace(
        'app.run();',
        "app.get('/added', (_req, res) => res.json({ added: true })).validate(false);\napp.run();",
      ),
    );
    try {
      const probe = await demo.probe([...REQUESTS, ['GET', '/added']], cache);
      expect(probe.cached).toBe(false);
      expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_STALE')).toBe(1);
      expect(statuses(probe)).toEqual([...EXPECTED, { path: '/added', status: 200 }]);
      expect(JSON.parse(probe.responses.at(-1)?.body ?? '')).toEqual({ added: true });
    } finally {
      demo.edit('server.ts', (t) =>
        t.replace("app.get('/added', (_req, res) => res.json({ added: true })).validate(false);\n", ''),
      );
    }
  });

  it('a renamed route makes the cache stale too (names are part of the fingerprint)', async () => {
    const cache = ownCache();
    demo.edit('tasks/app.ts', (t) => t.replace(".name('tasks.index')", ".name('tasks.all')"));
    try {
      const probe = await demo.probe(REQUESTS, cache);
      expect(probe.cached).toBe(false);
      expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_STALE')).toBe(1);
      expect(statuses(probe)).toEqual(EXPECTED);
    } finally {
      demo.edit('tasks/app.ts', (t) => t.replace(".name('tasks.all')", ".name('tasks.index')"));
    }
  });

  it.each([
    [
      'altered snapshot bytes',
      (b: Buffer) => b.fill(0x5a, 16 + b.readUInt32LE(12) + 40, 16 + b.readUInt32LE(12) + 48),
    ],
    [
      'altered snapshot bytes',
      (b: Buffer) => b.fill(0x20, 16 + b.readUInt32LE(12) + 40, 16 + b.readUInt32LE(12) + 50),
    ],
    ['a truncated file', (b: Buffer) => b.subarray(0, b.length >> 1)],
    ['garbage', () => Buffer.from('not a cache at all')],
    ['an empty file', () => Buffer.alloc(0)],
  ])('a corrupt cache (%s) warns once and serves the compiled routes', async (_what, corrupt) => {
    const probe = await demo.probe(REQUESTS, ownCache(corrupt(Buffer.from(pristine))));
    expect(probe.cached).toBe(false);
    expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_CORRUPT')).toBe(1);
    expect(statuses(probe)).toEqual(EXPECTED);
  });

  it('a corrupt annotations section is found when they are first read: warned once, the docs come from the sources', async () => {
    // A start reads only the header and the snapshot (so its routes still come from the cache); the
    // annotations section is read, and checked, when first asked for.
    const corrupt = Buffer.from(pristine).fill(0x20, pristine.length - 40, pristine.length - 30);
    const docs: [string, string] = ['GET', '/api/docs.json'];
    const fromSources = await demo.probe([docs], { ARBOR_ROUTE_CACHE: 'off' });
    const probe = await demo.probe([...REQUESTS, docs, docs], ownCache(corrupt));
    expect(probe.cached).toBe(false); // no annotations from the cache
    expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_CORRUPT')).toBe(1);
    expect(probe.stderr).toContain('checksum mismatch (annotations)');
    expect(statuses(probe).slice(0, REQUESTS.length)).toEqual(EXPECTED);
    const served = probe.responses.slice(REQUESTS.length).map((r) => JSON.parse(r.body));
    expect(served).toEqual([0, 1].map(() => JSON.parse(fromSources.responses[0]?.body ?? '')));
  });

  it('a cache in another format version warns (VERSION, not CORRUPT) and serves the compiled routes', async () => {
    const other = Buffer.from(pristine);
    other.writeUInt32LE(99, 8);
    const probe = await demo.probe(REQUESTS, ownCache(other));
    expect(probe.cached).toBe(false);
    expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_VERSION')).toBe(1);
    expect(probe.stderr).not.toContain('ARBOR_ROUTE_CACHE_CORRUPT');
    expect(statuses(probe)).toEqual(EXPECTED);
  });

  it('a cache written by another Arbor version warns and serves the compiled routes', async () => {
    // Rewrite the header's arborVersion, keeping the length (the header is length-prefixed JSON).
    const text = pristine.toString('latin1');
    const match = /"arborVersion":"([^"]*)"/.exec(text);
    expect(match).not.toBeNull();
    const version = match?.[1] ?? '';
    const other = text.replace(
      `"arborVersion":"${version}"`,
      `"arborVersion":"${'9'.repeat(version.length)}"`,
    );
    const probe = await demo.probe(REQUESTS, ownCache(Buffer.from(other, 'latin1')));
    expect(probe.cached).toBe(false);
    expect(countWarnings(probe.stderr, 'ARBOR_ROUTE_CACHE_VERSION')).toBe(1);
    expect(statuses(probe)).toEqual(EXPECTED);
  });

  it('the docs keep working from the cache when the source comments are gone (a bundled build)', async () => {
    const cache = ownCache();
    const fromSources = await demo.probe([['GET', '/api/docs.json']], { ARBOR_ROUTE_CACHE: 'off' });
    const stripped = (t: string) => t.replace(/\/\*\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ''));
    const originals = ['tasks/app.ts', 'products/app.ts'].map(
      (f) => [f, readFileSync(demo.path(f), 'utf8')] as const,
    );
    try {
      for (const [file] of originals) demo.edit(file, stripped); // same routes, same lines, no comments
      const probe = await demo.probe([['GET', '/api/docs.json']], cache);
      expect(probe.cached).toBe(true);
      const served = JSON.parse(probe.responses[0]?.body ?? '{}');
      expect(served.paths['/tasks'].get.summary).toBe('List tasks');
      expect(served).toEqual(JSON.parse(fromSources.responses[0]?.body ?? ''));
    } finally {
      for (const [file, text] of originals) writeFileSync(demo.path(file), text);
    }
  });

  it('route:clear removes the file, and succeeds when there is none', async () => {
    // The one test that uses the default location: it puts the file there itself.
    writeFileSync(demo.cacheFile, pristine);
    const first = await demo.arbor(['route:clear', '--app', 'server.ts']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Route cache cleared');
    expect(existsSync(demo.cacheFile)).toBe(false);
    const again = await demo.arbor(['route:clear', '--app', 'server.ts']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No route cache');
    const probe = await demo.probe(REQUESTS);
    expect(probe.cached).toBe(false);
    expect(probe.stderr).not.toContain('ARBOR_ROUTE_CACHE');
  });
});

describe('cache location overrides', () => {
  const demo = new DemoCopy();
  afterAll(() => demo.remove());

  it('--cache <file> writes there, and the app finds it through ARBOR_ROUTE_CACHE', async () => {
    const run = await demo.arbor(['route:cache', '--app', 'server.ts', '--cache', 'build/routes.bin']);
    expect(run.code).toBe(0);
    expect(existsSync(demo.path('build/routes.bin'))).toBe(true);
    expect(existsSync(demo.cacheFile)).toBe(false);
    const probe = await demo.probe(REQUESTS, { ARBOR_ROUTE_CACHE: demo.path('build/routes.bin') });
    expect(probe.cached).toBe(true);
    expect(statuses(probe)).toEqual(EXPECTED);
  });

  it('ARBOR_ROUTE_CACHE is honoured by route:cache and route:clear', async () => {
    const env = { ARBOR_ROUTE_CACHE: demo.path('env.cache') };
    expect((await demo.arbor(['route:cache', '--app', 'server.ts'], { env })).code).toBe(0);
    expect(existsSync(demo.path('env.cache'))).toBe(true);
    expect((await demo.arbor(['route:clear', '--app', 'server.ts'], { env })).code).toBe(0);
    expect(existsSync(demo.path('env.cache'))).toBe(false);
  });
});

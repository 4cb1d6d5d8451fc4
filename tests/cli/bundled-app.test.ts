/**
 * Validation never fails open. An application bundled and minified with esbuild (its doc comments gone)
 * that says `validate: true` refuses to start, naming the route, when nothing gives it the contracts; with
 * the route cache written from its sources (`arbor route:cache`) it validates exactly as the unbundled
 * application does. Each start is a real process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbor, bundleLikeADeployment, compiledCliAvailable, PACKAGE, spawnNode } from './support.js';

const APP = `import { Application } from ${JSON.stringify(PACKAGE)};

export const app = new Application({ validate: true });

/**
 * @api POST /tasks
 * @param {string} title.body.required - What to do
 * @param {integer} priority.query.optional - 1 to 5
 */
app.post('/tasks', (req, res) => res.status(201).json({ title: req.json().title }));

app.get('/health', (_req, res) => res.json({ ok: true })).validate(false);
app.run();
`;

/** Starts `entry` (nothing listens) and sends a valid and an invalid POST through app.fetch. */
const PROBE = (entry: string) => `process.env.ARBOR_NO_LISTEN = '1';
const { app } = await import(${JSON.stringify(entry)});
const post = (body) => app.fetch(new Request('http://localhost/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
const good = await post('{"title":"x"}');
const bad = await post('{"title":42}');
console.log(JSON.stringify({ good: good.status, bad: bad.status, cached: app.cachedAnnotations() !== null }));
`;

describe.skipIf(!compiledCliAvailable())('a bundled application under validate: true', () => {
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-bundle-'));
    writeFileSync(join(dir, 'package.json'), '{ "name": "bundled", "private": true, "type": "module" }\n');
    writeFileSync(join(dir, 'app.ts'), APP);
    await bundleLikeADeployment(dir, 'app.ts');
    writeFileSync(join(dir, 'probe-bundle.mjs'), PROBE('./dist/app.mjs'));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses to start without the contracts, naming the route and the ways out', async () => {
    const run = await spawnNode([join(dir, 'probe-bundle.mjs')], { cwd: dir, env: { ARBOR_NO_LISTEN: '1' } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/CONTRACT_MISSING/);
    expect(run.stderr).toMatch(/route POST \/tasks \(.*app\.mjs:\d+\) is validated/);
    expect(run.stderr).toMatch(/route cache/);
    // The route opted out is not named.
    expect(run.stderr).not.toMatch(/GET \/health/);
  }, 60_000);

  it('with the route cache written from its sources, validates as the unbundled app', async () => {
    const cache = join(dir, 'routes.cache');
    const written = await arbor(['route:cache', '--app', 'app.ts', '--cache', cache], {
      cwd: dir,
      compiled: true,
    });
    expect(written.code, written.stderr).toBe(0);
    const run = await spawnNode([join(dir, 'probe-bundle.mjs')], {
      cwd: dir,
      env: { ARBOR_ROUTE_CACHE: cache },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ good: 201, bad: 400, cached: true });
  }, 60_000);
});

/** Help, exit codes and error messages that scripts and people rely on. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertPresent, skipWhenMissing } from '../support/prerequisites.js';
import { arbor, COMPILED_CLI, compiledCliAvailable, DemoCopy, ROOT } from './support.js';

// Every test starts tsx processes: generous on a loaded two-core machine (the default is 30 s).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const COMMANDS = ['route:cache', 'route:clear', 'route:list', 'openapi:export'];

describe('help and usage errors', () => {
  const empty = mkdtempSync(join(tmpdir(), 'arbor-cli-empty-'));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it.each(COMMANDS)('%s --help describes the command and the exit codes (exit 0)', async (command) => {
    const run = await arbor([command, '--help'], { cwd: empty });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: arbor ${command}`);
    expect(run.stdout).toContain('--app <file>');
    expect(run.stdout).toMatch(/Exit codes:\n\s+0\s+success\n\s+1\s+failure[^\n]*\n\s+2\s+usage error/);
  });

  it('arbor --help lists every command', async () => {
    const run = await arbor(['--help'], { cwd: empty });
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(command);
  });

  it.each([
    ['no command', []],
    ['an unknown command', ['route:nope']],
    ['an unknown option', ['route:list', '--nope']],
    ['a missing option value', ['route:list', '--method']],
  ])('%s is a usage error (exit 2)', async (_what, args) => {
    const run = await arbor(args, { cwd: empty });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toBe('');
  });

  it('a missing app file is a usage error that names the file', async () => {
    const run = await arbor(['route:list', '--app', 'missing/app.ts'], { cwd: empty });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`application entry not found: ${join(empty, 'missing/app.ts')}`);
    const fromEnv = await arbor(['route:cache'], { cwd: empty, env: { ARBOR_APP: 'gone.js' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('(from ARBOR_APP)');
  });

  it('no entry found by the default search is a usage error that says where it looked', async () => {
    const run = await arbor(['route:list'], { cwd: empty });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /no application entry found in .*: pass --app <file> or set ARBOR_APP \(looked for src\/app, app,/,
    );
  });

  it('an entry that throws, or that makes no application, is a failure (exit 1)', async () => {
    writeFileSync(join(empty, 'throws.mjs'), "throw new Error('boom at import');\n");
    writeFileSync(join(empty, 'nothing.mjs'), 'export const x = 1;\n');
    const throws = await arbor(['route:list', '--app', 'throws.mjs'], { cwd: empty });
    expect(throws.code).toBe(1);
    expect(throws.stderr).toContain('boom at import');
    const nothing = await arbor(['openapi:export', '--app', 'nothing.mjs'], { cwd: empty });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('did not create an application');
  });

  it('a registration error is a failure that names the pattern', async () => {
    writeFileSync(
      join(empty, 'bad.ts'),
      `import { Application } from '${ROOT}/ts/src/app/index.js';
export const app = new Application();
app.get('/x/:id<[>', (_req, res) => res.json({}));
`,
    );
    const run = await arbor(['route:cache', '--app', 'bad.ts'], { cwd: empty });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('/x/:id<[>');
  });
});

describe('finding the application', () => {
  const demo = new DemoCopy();
  beforeAll(() =>
    writeFileSync(
      demo.path('bare.ts'),
      `import { Application } from '${ROOT}/ts/src/app/index.js';
const app = new Application();
app.get('/bare/:id<int>', (_req, res) => res.json({})).name('bare');
app.run();
`,
    ),
  );
  afterAll(() => demo.remove());

  it('uses the default search (server.ts) when neither --app nor ARBOR_APP is given', async () => {
    const run = await demo.arbor(['route:list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).length).toBeGreaterThan(10);
  });

  it('finds an application its entry does not export (it only calls run())', async () => {
    const run = await demo.arbor(['route:list', '--app', 'bare.ts', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject([{ pattern: '/bare/:id<int>', name: 'bare' }]);
  });

  const missing = compiledCliAvailable() ? null : `${COMPILED_CLI} (npm run build)`;
  it.skipIf(skipWhenMissing(missing))(
    'the compiled CLI (dist/) loads a TypeScript entry and caches its routes',
    async () => {
      assertPresent(missing);
      const list = await demo.arbor(['route:list', '--app', 'bare.ts', '--json'], { compiled: true });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).toMatchObject([{ pattern: '/bare/:id<int>' }]);
      const cache = await demo.arbor(['route:cache', '--app', 'server.ts'], { compiled: true });
      expect(cache.code, cache.stderr).toBe(0);
      // The cache is switched on explicitly (ARBOR_ROUTE_CACHE or `routeCache`): a start never probes the disk.
      const probe = await demo.probe([['GET', '/tasks']], { ARBOR_ROUTE_CACHE: demo.cacheFile });
      expect(probe.cached).toBe(true);
      expect(probe.responses[0]?.status).toBe(200);
    },
  );
});

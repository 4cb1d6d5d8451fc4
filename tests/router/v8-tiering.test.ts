/**
 * docs/ARCHITECTURE.md, "V8 tiering flags": loading the wasm engine sets V8's wasm tiering flags process-wide, and
 * `ARBOR_V8_TIERING=off` opts out. Each case is a fresh Node process (the flags are per process) that
 * imports the engine, routes, and reports which flags it was asked to set: `v8.setFlagsFromString` is
 * wrapped by a preloaded script before the engine loads (V8 has no way to read a flag back).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';

// Two Node processes with tsx: generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const dir = mkdtempSync(join(tmpdir(), 'arbor-tiering-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const preload = join(dir, 'record-flags.cjs');
writeFileSync(
  preload,
  `const v8 = require('node:v8');
const { syncBuiltinESMExports } = require('node:module');
const set = v8.setFlagsFromString;
globalThis.__flags = [];
v8.setFlagsFromString = (flags) => { globalThis.__flags.push(flags); return set(flags); };
syncBuiltinESMExports(); // so \`import { setFlagsFromString } from 'node:v8'\` gets the wrapper too
`,
);
const child = join(dir, 'child.ts');
writeFileSync(
  child,
  `import { Router } from ${JSON.stringify(pathToFileURL(join(ROOT, 'ts/src/router/index.ts')).href)};
const router = new Router<string>();
router.add('GET', '/users/:id<int>', 'user');
const match = router.find('GET', '/users/42');
console.log(JSON.stringify({ value: match?.value, params: match?.params, flags: globalThis.__flags }));
`,
);

function run(env: Record<string, string>): Promise<{ value: string; params: object; flags: string[] }> {
  return new Promise((done, fail) => {
    const { ARBOR_V8_TIERING: _, ...inherited } = process.env;
    execFile(
      process.execPath,
      ['--require', preload, '--import', TSX, child],
      { cwd: ROOT, env: { ...inherited, ...env } },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`${error.message}\n${stderr}`));
        else done(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
      },
    );
  });
}

describe('ARBOR_V8_TIERING', () => {
  test('by default the engine sets the wasm tiering budget (the recorder sees it)', async () => {
    const result = await run({});
    expect(result.value).toBe('user');
    expect(result.flags).toContain('--wasm-tiering-budget=20000');
  });

  test('=off: the engine loads and routes, and sets no V8 flag', async () => {
    const result = await run({ ARBOR_V8_TIERING: 'off' });
    expect(result).toEqual({ value: 'user', params: { id: '42' }, flags: [] });
  });
});

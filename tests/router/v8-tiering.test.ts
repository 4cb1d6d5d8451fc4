/**
 * docs/OPERATIONS.md, "Supported Node versions": a library does not change its host, so loading the wasm engine
 * sets no V8 flag unless the application asks with `ARBOR_V8_TIERING=on`. Each case is a fresh Node
 * process (flags are per process) that imports the engine, routes, and reports every call to
 * `v8.setFlagsFromString` (wrapped by a preloaded script before the engine loads: V8 cannot read a flag
 * back) and its own `process.execArgv` (the other way a flag reaches V8).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { tieringFlags } from '../../ts/src/engine/v8-tiering.js';

// Several Node processes with tsx: generous on a loaded two-core machine.
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
const flags = [...process.execArgv.filter((a) => a.startsWith('--') && !['--require', '--import'].includes(a)), ...globalThis.__flags];
console.log(JSON.stringify({ value: match?.value, params: match?.params, flags }));
`,
);

interface Outcome {
  code: number;
  stderr: string;
  result: { value: string; params: object; flags: string[] } | null;
}

/** The child with `ARBOR_V8_TIERING` as given (undefined: not set at all, whatever this process has). */
function run(setting: string | undefined): Promise<Outcome> {
  const { ARBOR_V8_TIERING: _, NODE_OPTIONS: __, ...inherited } = process.env;
  const env = setting === undefined ? inherited : { ...inherited, ARBOR_V8_TIERING: setting };
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--require', preload, '--import', TSX, child],
      { cwd: ROOT, env },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stderr, result: code === 0 ? JSON.parse(last) : null });
      },
    );
  });
}

describe('ARBOR_V8_TIERING', () => {
  // The table: the switch's value → the flags the engine sets on this Node's V8.
  test.each([
    ['not set', undefined, []],
    ['empty', '', []],
    ['off', 'off', []],
    ['on', 'on', tieringFlags(process.versions.v8)],
  ])('%s: the engine loads, routes, and sets exactly the expected flags', async (_, setting, flags) => {
    const outcome = await run(setting);
    expect(outcome.stderr).toBe(''); // no warning, and no V8 error for a flag this V8 does not know
    expect(outcome.result).toEqual({ value: 'user', params: { id: '42' }, flags });
  });

  test('on sets at least the wasm tiering budget (the switch is not a no-op on any supported V8)', () => {
    expect(tieringFlags(process.versions.v8)).toContain('--wasm-tiering-budget=20000');
  });

  test('any other value stops the import and names the variable and its values', async () => {
    const outcome = await run('1');
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toMatch(/ARBOR_V8_TIERING.*'1'.*'on'.*'off'/);
  });
});

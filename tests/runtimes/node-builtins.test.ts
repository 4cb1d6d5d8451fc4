/**
 * Node's built-ins only where they are used: importing the package and serving through `app.fetch` asks
 * for none of the modules a runtime may lack, and on a runtime without Node's modules (no
 * `process.getBuiltinModule`, as on Workers) the import still works, the router says how to load its
 * WebAssembly, and a feature that needs a missing module names it. Each case is a fresh Node process
 * importing the built package (dist/ts/src/bundle/index.js).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BUNDLE = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'index.js');
const missing = existsSync(BUNDLE) ? null : 'the built package (npm run build)';

/** Runs `body` as an ECMAScript module after `prelude`; returns what it printed as JSON. */
function run(prelude: string, body: string): unknown {
  const source = `${prelude}\nconst arbor = await import(${JSON.stringify(BUNDLE)});\n${body}`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed (${child.status}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? 'null');
}

const serveOne = `
const app = new arbor.Application();
app.get('/users/:id', (req, res) => res.json({ id: req.param('id') }));
const answer = await app.fetch(new Request('http://127.0.0.1/users/7'));
const body = await answer.json();`;

describe.skipIf(skipWhenMissing(missing))(titled("Node's built-ins, loaded where used", missing), () => {
  test('importing and serving through app.fetch asks for node:fs alone (the WebAssembly file), at the first router', () => {
    assertPresent(missing);
    const asked = run(
      `const asked = [];
const original = process.getBuiltinModule;
process.getBuiltinModule = (specifier) => { asked.push(specifier); return original.call(process, specifier); };`,
      `const atImport = [...asked];
${serveOne}
console.log(JSON.stringify({ atImport, atServe: asked.slice(atImport.length), body }));`,
    );
    // node:diagnostics_channel is the tracing channels' (Node loads it at start; Workers' nodejs_compat has it).
    expect(asked).toEqual({
      atImport: ['node:diagnostics_channel'],
      atServe: ['node:fs'],
      body: { id: '7' },
    });
  });

  test('without Node modules: the import works, the router asks for its WebAssembly, features name what they miss', () => {
    assertPresent(missing);
    const seen = run(
      `const original = process.getBuiltinModule.bind(process);
const diagnostics = original('node:diagnostics_channel');
const bytes = original('node:fs').readFileSync(${JSON.stringify(join(ROOT, 'dist', 'ts', 'src', 'engine', 'wasm-pkg', 'arbor_wasm_bg.wasm'))});
// A runtime that has the tracing channels and nothing else of Node's.
process.getBuiltinModule = (specifier) => (specifier === 'node:diagnostics_channel' ? diagnostics : undefined);`,
      `const error = (f) => { try { f(); return null; } catch (e) { return { name: e.name, code: e.code, message: e.message }; } };
const beforeWasm = error(() => new arbor.Application());
arbor.provideWasm(bytes);
${serveOne}
const files = error(() => arbor.serveStatic('public'));
console.log(JSON.stringify({ beforeWasm, body, files }));`,
    ) as {
      beforeWasm: { name: string; code: string; message: string };
      body: unknown;
      files: { name: string; code: string; message: string };
    };
    expect(seen.beforeWasm).toMatchObject({ name: 'WasmNotLoadedError', code: 'WASM_NOT_LOADED' });
    expect(seen.beforeWasm.message).toMatch(/loadWasm\(\).*provideWasm\(module\)/);
    expect(seen.body).toEqual({ id: '7' });
    expect(seen.files).toMatchObject({ name: 'NodeBuiltinMissingError', code: 'NODE_BUILTIN_MISSING' });
    expect(seen.files.message).toMatch(/^node:fs is not available on this runtime/);
  });
});

/**
 * Importing Arbor loads no more of Node than it uses. `node:http` imported as an ECMAScript module makes
 * Node load undici and TLS for its lazy `WebSocket` exports (~150 ms at every start): `ts/src/builtins.ts`
 * takes such modules without it. A child process imports the entry point and lists the built-in modules
 * it loaded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../../ts/src/index.ts');
const BUNDLE = resolve(import.meta.dirname, '../../dist/ts/src/bundle/index.js');
const VALIDATION = resolve(import.meta.dirname, '../../ts/src/validation/validation.ts');

/** The built-in modules a fresh process has loaded after importing `specifier` (through tsx, unless told). */
function loadedAfterImport(specifier: string, throughTsx = true): string[] {
  // The import is proven by what it exports (a built-in has no `Application`; Arbor's entries do).
  const script = `const m = await import(${JSON.stringify(specifier)});
if (${JSON.stringify(specifier)}.includes('/') && typeof m.Application !== 'function') throw new Error('not imported');
console.log(JSON.stringify(process.moduleLoadList));`;
  const loader = throughTsx ? ['--import', 'tsx'] : [];
  const out = execFileSync(process.execPath, [...loader, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as string[];
}

/** Runs `script` (a module, through tsx) and returns the ajv files node had loaded at each `mark()`. */
function ajvFilesAt(script: string): string[][] {
  const prelude = `import { createRequire } from 'node:module';
const loaded = () => Object.keys(createRequire(process.cwd() + '/').cache).filter((f) => f.includes('/ajv/'));
const marks = []; const mark = () => marks.push(loaded());`;
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `${prelude}\n${script}\nconsole.log(JSON.stringify(marks));`,
    ],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as string[][];
}

describe('the cost of importing Arbor', () => {
  it('ajv is loaded when the first route checks are compiled, not when Arbor is imported', () => {
    const doc = {
      params: [{ name: 'id', in: 'path', type: 'integer', required: true, description: '', line: 1 }],
      produces: [],
      responses: [],
      security: [],
      tags: [],
      deprecated: false,
      responseExamples: {},
      file: 'app.ts',
      line: 1,
    };
    const [afterImport, afterCompile] = ajvFilesAt(`
await import(${JSON.stringify(ENTRY)});
const { ContractCompiler } = await import(${JSON.stringify(VALIDATION)});
mark();
const compiler = new ContractCompiler({}, console);
const param = { name: 'id', kind: 'param', shortcut: null, regex: null, optional: false };
const checks = compiler.compile('GET /tasks/:id', ${JSON.stringify(doc)}, [param], {});
if (checks?.checkRequest == null) throw new Error('no request check compiled');
mark();`);
    expect(afterImport).toEqual([]);
    expect(afterCompile?.some((file) => file.endsWith('/ajv/dist/ajv.js'))).toBe(true);
  });

  it('the check sees undici when node:http is imported as a module', () => {
    expect(loadedAfterImport('node:http').some((m) => m.includes('undici'))).toBe(true);
  });

  it('the check sees what the namespaces of node:fs and node:crypto load', () => {
    expect(loadedAfterImport('node:fs').some((m) => m.includes('internal/fs/promises'))).toBe(true);
    expect(loadedAfterImport('node:crypto').some((m) => m.includes('internal/crypto/webcrypto'))).toBe(true);
  });

  // The package's bundle, in a plain node (tsx's own loader reads both namespaces). `npm test` builds it first.
  it.skipIf(!existsSync(BUNDLE) && process.env.ARBOR_REQUIRE_WASM !== '1')(
    "the package's bundle builds no namespace of node:fs or node:crypto (builtins.ts)",
    () => {
      const loaded = loadedAfterImport(BUNDLE, false);
      // node:http itself waits for a server (issue 53: an app served through app.fetch never loads it).
      expect(loaded.filter((m) => /^NativeModule (http|net|v8)$/.test(m))).toEqual([]);
      // `fs.promises` (readline and the REPL's history with it), `crypto.webcrypto`: lazy exports nothing uses.
      const lazy = loaded.filter((m) =>
        /internal\/fs\/promises|internal\/readline|internal\/crypto\/webcrypto/.test(m),
      );
      expect(lazy).toEqual([]);
      // node:crypto and node:zlib themselves wait for their first use (a cache's source digest, a
      // compressed docs asset, a route cache written): ~4 and ~2–5 ms of every start otherwise.
      expect(loaded.filter((m) => /^NativeModule (crypto|zlib)$/.test(m))).toEqual([]);
    },
  );

  it('importing the framework loads neither undici nor TLS', () => {
    const loaded = loadedAfterImport(ENTRY);
    expect(loaded.filter((m) => m.includes('undici') || /\btls\b/.test(m))).toEqual([]);
  });
});

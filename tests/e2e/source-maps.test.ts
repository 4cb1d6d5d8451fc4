/**
 * Issue 13: call sites, and so doc comments, survive source maps. Under tsx, vitest or
 * `node --enable-source-maps`, Arbor's compiled frames (`dist/ts/src/…`) are reported at their sources
 * (`ts/src/…`); taken for the user's frames, every route's call site became `…/app/call-site.ts:38` and
 * every summary was silently lost. An annotated app runs as a process in each setting and prints the
 * summaries of its exported document.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'index.js');
const SOURCES = join(ROOT, 'ts', 'src', 'index.ts');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const dir = mkdtempSync(join(tmpdir(), 'arbor-source-maps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The app: two documented routes; prints each route's call site and the document's summaries. */
function app(file: string, arbor: string): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    `import { Application, exportWithDiagnostics } from ${JSON.stringify(pathToFileURL(arbor).href)};
const app = new Application({ openapi: { info: { title: 'T', version: '1' } } });

/**
 * @summary List the things
 * @response 200 {array<string>} The things
 */
app.get('/things', (_q, r) => r.json([]));

/** @summary Show a thing */
app.get('/things/:id<int>', (_q, r) => r.json({}));

const { document } = exportWithDiagnostics(app);
console.log(JSON.stringify({
  sites: app.routeTable().map((r) => r.callSite && \`\${r.callSite.file}:\${r.callSite.line}\`),
  summaries: [document.paths['/things']?.get?.summary, document.paths['/things/{id}']?.get?.summary],
}));
`,
  );
  return path;
}

function run(args: string[]): Promise<{ sites: string[]; summaries: string[] }> {
  return new Promise((done, fail) => {
    execFile(process.execPath, args, { cwd: dir }, (error, stdout, stderr) => {
      if (error !== null) fail(new Error(`${error.message}\n${stderr}`));
      else done(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
    });
  });
}

const expected = (file: string) => ({
  sites: [`${join(dir, file)}:8`, `${join(dir, file)}:11`],
  summaries: ['List the things', 'Show a thing'],
});

const missing = existsSync(DIST) ? null : `${DIST} (npm run build)`;

describe.skipIf(skipWhenMissing(missing))(titled('doc comments under source maps', missing), () => {
  it('node --enable-source-maps, Arbor compiled (dist/)', async () => {
    assertPresent(missing);
    expect(await run(['--enable-source-maps', app('compiled.mjs', DIST)])).toEqual(expected('compiled.mjs'));
  });

  it('plain node, Arbor compiled (dist/)', async () => {
    assertPresent(missing);
    expect(await run([app('plain.mjs', DIST)])).toEqual(expected('plain.mjs'));
  });

  it('tsx, the app in TypeScript, Arbor compiled (dist/)', async () => {
    assertPresent(missing);
    expect(await run(['--enable-source-maps', '--import', TSX, app('tsx-dist.ts', DIST)])).toEqual(
      expected('tsx-dist.ts'),
    );
  });
});

describe('doc comments under tsx on the sources', () => {
  it('tsx, the app and Arbor in TypeScript', async () => {
    expect(await run(['--import', TSX, app('tsx-src.ts', SOURCES)])).toEqual(expected('tsx-src.ts'));
  });
});

describe('frames of Arbor in both forms', () => {
  it('a compiled root also owns the sources its maps point to', async () => {
    const { ownRoots, firstForeignFrame } = await import('../../ts/src/registry/call-site.js');
    expect(ownRoots('/pkg/dist/ts/src/')).toEqual(['/pkg/dist/ts/src/', '/pkg/ts/src/']);
    const stack = [
      'Error',
      '    at new LazyCallSite (/pkg/ts/src/app/call-site.ts:38:19)',
      '    at Application.get (file:///pkg/dist/ts/src/routing/registrar.js:30:12)',
      '    at main (/home/me/app/server.ts:12:7)',
    ].join('\n');
    expect(firstForeignFrame(stack, '/pkg/dist/ts/src/')).toEqual({
      file: '/home/me/app/server.ts',
      line: 12,
    });
  });
});

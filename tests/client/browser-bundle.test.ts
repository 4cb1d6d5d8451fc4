/**
 * The client's entry (`arbor-router/client`) as a browser bundler sees it: esbuild bundles it for the
 * browser platform, where a Node built-in or a package would fail to resolve, and nothing is left
 * external; and a bundle of one call site keeps only what it uses (the generators, the framework and the
 * routes' types are not in it).
 */
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

async function bundle(contents: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: join(ROOT, 'tests/client'), loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    minify: true,
    logLevel: 'silent',
  });
  return {
    code: result.outputFiles[0]?.text ?? '',
    inputs: Object.keys(result.metafile.inputs).map((input) => input.replace(/^.*?ts\/src\//, 'ts/src/')),
  };
}

describe('the client entry in a browser bundle', () => {
  it('bundles for the browser from its own modules only, and stays small', async () => {
    const { code, inputs } = await bundle("export * from '../../ts/src/client/index.js';");
    expect(inputs.filter((input) => !input.startsWith('ts/src/client/'))).toEqual(['<stdin>']);
    expect(inputs.filter((input) => input.includes('/emit/'))).toEqual([]);
    expect(code).not.toMatch(/\bfrom\s*["']|\brequire\(/);
    expect(code.length).toBeLessThan(8_000);
  });

  it('a generated client and one call take the runtime and the route table, nothing of the server', async () => {
    const { inputs } = await bundle(
      "import { createApiClient } from './generated/tasks-client.js';\n" +
        "export const answer = createApiClient({ baseUrl: '' }).route('home');\n",
    );
    expect(inputs.sort()).toEqual(
      [
        '<stdin>',
        'tests/client/generated/tasks-client.ts',
        'ts/src/client/client.ts',
        'ts/src/client/errors.ts',
        'ts/src/client/index.ts',
        'ts/src/client/url.ts',
      ].sort(),
    );
  });
});

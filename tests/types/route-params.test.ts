/**
 * Compiles each type subject (route parameters, the request context and error bodies, named middleware
 * once declared, the typed client and the generated route contracts) with the strict configuration,
 * twice: as written, where it must have no error, and with its `@ts-expect-error` directives removed,
 * where each line below a directive must fail and nothing else may — so a directive that silences the
 * wrong mistake is caught as well. One file, so that its compiler runs take turns.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const scratch: string[] = [];

afterAll(() => {
  for (const path of scratch) rmSync(path, { force: true, recursive: true });
});

/** Diagnostics of `file` only (other files of the tree are not this test's subject), as `line: code`. */
async function diagnostics(file: string): Promise<string[]> {
  const config = join(here, `.tsconfig-${process.pid}-${scratch.length}.json`);
  scratch.push(config);
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '/', typeRoots: [join(root, 'node_modules', '@types')] },
      files: [file],
      include: [],
    }),
  );
  const output = await promisify(execFile)(tsc, ['-p', config, '--pretty', 'false'], { cwd: root }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  const name = file.slice(file.lastIndexOf('/') + 1);
  return output
    .split('\n')
    .filter((line) => line.includes(`${name}(`))
    .map((line) => {
      const match = /\((\d+),\d+\): error (TS\d+)/.exec(line);
      return match === null ? line : `${match[1]}: ${match[2]}`;
    });
}

/** Each subject, and how many `@ts-expect-error` lines it must hold at least (so none is emptied by mistake). */
const SUBJECTS: [file: string, atLeast: number][] = [
  ['route-params.ts', 12],
  ['request-context.ts', 10],
  ['augmented/middleware-names.ts', 3],
  // The typed client of the tasks app, and req.valid() typed by its generated declarations (docs/CLIENT.md).
  ['client.ts', 8],
  ['augmented/tasks-contracts.ts', 4],
  // secureHeaders()'s CSP nonce, typed where it runs.
  ['secure-headers.ts', 3],
];

// Each compiler run reads the framework's types: 20-60 s on a loaded two-core machine.
describe.each(SUBJECTS)('types of %s (tsc --strict)', (file, atLeast) => {
  const subject = join(here, file);

  it('compiles as written', async () => {
    expect(await diagnostics(subject)).toEqual([]);
  }, 120_000);

  it('fails on exactly the lines under @ts-expect-error once the directives are gone', async () => {
    const lines = readFileSync(subject, 'utf8').split('\n');
    const expected: number[] = [];
    const stripped = lines.map((line, index) => {
      if (!line.trim().startsWith('// @ts-expect-error')) return line;
      expected.push(index + 2); // the line after the directive, 1-based
      return '';
    });
    expect(expected.length).toBeGreaterThanOrEqual(atLeast);
    // Under node_modules/.cache: outside what `tsc -p tsconfig.check.json` compiles (a concurrent run never
    // sees the failing copy), yet its bare imports (`zod`) resolve from the project's node_modules.
    const cache = join(root, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const copy = join(mkdtempSync(join(cache, 'arbor-types-')), `${file.replace(/\W/g, '-')}-stripped.mts`);
    scratch.push(dirname(copy));
    // The copy lives elsewhere: its relative imports (and module augmentations) point back into the tree.
    const source = stripped
      .join('\n')
      .replace(/(['"])(\.\.?\/[^'"]+)\1/g, (_all, _quote, path: string) =>
        JSON.stringify(join(dirname(subject), path)),
      );
    writeFileSync(copy, source);
    const failing = [...new Set((await diagnostics(copy)).map((d) => Number(d.split(':')[0])))];
    expect(failing.sort((a, b) => a - b)).toEqual(expected);
  }, 120_000);
});

/**
 * Compiles tests/types/route-params.ts with the strict configuration, twice: as written, where it must
 * have no error, and with its `@ts-expect-error` directives removed, where each line below a directive
 * must fail and nothing else may — so a directive that silences the wrong mistake is caught as well.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const subject = join(here, 'route-params.ts');
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

describe('route parameter types (tsc --strict)', () => {
  it('compiles as written', async () => {
    expect(await diagnostics(subject)).toEqual([]);
  }, 60_000);

  it('fails on exactly the lines under @ts-expect-error once the directives are gone', async () => {
    const lines = readFileSync(subject, 'utf8').split('\n');
    const expected: number[] = [];
    const stripped = lines.map((line, index) => {
      if (!line.trim().startsWith('// @ts-expect-error')) return line;
      expected.push(index + 2); // the line after the directive, 1-based
      return '';
    });
    expect(expected.length).toBeGreaterThanOrEqual(12);
    // Outside the tree, so that a concurrent `tsc -p tsconfig.check.json` never sees the failing copy.
    const copy = join(mkdtempSync(join(tmpdir(), 'arbor-types-')), 'route-params-stripped.mts');
    scratch.push(dirname(copy));
    const source = stripped
      .join('\n')
      .replace("'../../ts/src/index.js'", JSON.stringify(join(root, 'ts/src/index.js')));
    writeFileSync(copy, source);
    const failing = [...new Set((await diagnostics(copy)).map((d) => Number(d.split(':')[0])))];
    expect(failing.sort((a, b) => a - b)).toEqual(expected);
  }, 60_000);
});

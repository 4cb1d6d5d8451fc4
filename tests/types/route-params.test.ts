/**
 * Compiles tests/types/route-params.ts with the strict configuration, twice: as written, where it must
 * have no error, and with its `@ts-expect-error` directives removed, where each line below a directive
 * must fail and nothing else may — so a directive that silences the wrong mistake is caught as well.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  for (const file of scratch) rmSync(file, { force: true });
});

/** Diagnostics of `file` only (other files of the tree are not this test's subject), as `line: code`. */
async function diagnostics(file: string): Promise<string[]> {
  const config = join(here, `.tsconfig-${process.pid}-${scratch.length}.json`);
  scratch.push(config);
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '../..' },
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
    .filter((line) => line.includes(`tests/types/${name}(`))
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
    const copy = join(here, `.route-params-stripped-${process.pid}.ts`);
    scratch.push(copy);
    writeFileSync(copy, stripped.join('\n'));
    const failing = [...new Set((await diagnostics(copy)).map((d) => Number(d.split(':')[0])))];
    expect(failing.sort((a, b) => a - b)).toEqual(expected);
  }, 60_000);
});

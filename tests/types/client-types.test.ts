/**
 * Compiles the typed client's type subjects (the tasks client, `req.valid()` typed by the generated
 * contracts) with the strict configuration, twice: as written, where nothing may fail, and with their
 * `@ts-expect-error` directives removed, where exactly the lines below them must fail — so a directive
 * that silences some other mistake is caught too. The same harness as route-params.test.ts, with every
 * relative import (and `/// <reference>`) of the moved copy pointed back into the tree.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const here = import.meta.dirname;
const root = join(here, '..', '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const scratch: string[] = [];

afterAll(() => {
  for (const path of scratch) rmSync(path, { force: true, recursive: true });
});

/** Each file's diagnostics, as `line: code`, from one `tsc` run over all of them (a run costs the framework's types once). */
async function diagnostics(files: readonly string[]): Promise<Map<string, string[]>> {
  const config = join(here, `.tsconfig-client-${process.pid}-${scratch.length}.json`);
  scratch.push(config);
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '/', typeRoots: [join(root, 'node_modules', '@types')] },
      files,
      include: [],
    }),
  );
  const output = await promisify(execFile)(tsc, ['-p', config, '--pretty', 'false'], { cwd: root }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  const byFile = new Map<string, string[]>();
  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    byFile.set(
      file,
      output
        .split('\n')
        .filter((line) => line.includes(`${name}(`))
        .map((line) => {
          const match = /\((\d+),\d+\): error (TS\d+)/.exec(line);
          return match === null ? line : `${match[1]}: ${match[2]}`;
        }),
    );
  }
  return byFile;
}

/** Each subject, and how many `@ts-expect-error` lines it must hold at least (so none is emptied by mistake). */
const SUBJECTS: [file: string, atLeast: number][] = [
  ['client.ts', 8],
  ['augmented/tasks-contracts.ts', 4],
];

/** A subject with its directives removed, moved under node_modules/.cache, and the lines that must fail there. */
function stripped(file: string): { copy: string; expected: number[] } {
  const subject = join(here, file);
  const lines = readFileSync(subject, 'utf8').split('\n');
  const expected: number[] = [];
  const kept = lines.map((line, index) => {
    if (!line.trim().startsWith('// @ts-expect-error')) return line;
    expected.push(index + 2); // the line after the directive, 1-based
    return '';
  });
  // Outside what `tsc -p tsconfig.check.json` compiles, yet its bare imports resolve from node_modules.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const copy = join(
    mkdtempSync(join(cache, 'arbor-client-types-')),
    `${file.replace(/\W/g, '-')}-stripped.mts`,
  );
  scratch.push(dirname(copy));
  // The copy lives elsewhere: its relative imports point back into the tree.
  const source = kept
    .join('\n')
    .replace(/(['"])(\.\.?\/[^'"]+)\1/g, (_all, _quote, path: string) =>
      JSON.stringify(join(dirname(subject), path)),
    );
  writeFileSync(copy, source);
  return { copy, expected };
}

// One compiler run per test, over every subject: each run reads the framework's types (most of its time).
describe('types of the typed client and the generated contracts (tsc --strict)', () => {
  it('every subject compiles as written', async () => {
    const files = SUBJECTS.map(([file]) => join(here, file));
    const found = await diagnostics(files);
    for (const file of files) expect({ file, errors: found.get(file) }).toEqual({ file, errors: [] });
  }, 300_000);

  it('each fails on exactly the lines under @ts-expect-error once the directives are gone', async () => {
    const copies = SUBJECTS.map(([file, atLeast]) => ({ file, atLeast, ...stripped(file) }));
    const found = await diagnostics(copies.map((c) => c.copy));
    for (const { file, atLeast, copy, expected } of copies) {
      expect(expected.length).toBeGreaterThanOrEqual(atLeast);
      const failing = [...new Set((found.get(copy) ?? []).map((d) => Number(d.split(':')[0])))];
      expect({ file, failing: failing.sort((a, b) => a - b) }).toEqual({ file, failing: expected });
    }
  }, 300_000);
});

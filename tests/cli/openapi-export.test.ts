/**
 * `openapi:export`: JSON and YAML, to a file (format from the extension or `--format`) or stdout, in
 * OpenAPI 3.1.0 and 3.0.3 — each parsed back and validated with an independent validator.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { DemoCopy } from './support.js';

// Each export starts a tsx process (three in a row in one test): generous on a loaded two-core machine (the default is 30 s).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

// biome-ignore lint/suspicious/noExplicitAny: parsed documents are checked by assertions, not types.
type Document = any;
const read = (text: string, file: string): Document =>
  file.endsWith('.json') ? JSON.parse(text) : parse(text);

const validate = async (document: Document, version: string) => {
  const validator = new Validator();
  const result = await validator.validate(document as Parameters<Validator['validate']>[0]);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe(version.slice(0, 3));
};

describe('openapi:export', () => {
  const demo = new DemoCopy();
  afterAll(() => demo.remove());

  it.each([
    ['3.1.0', 'openapi.json'],
    ['3.0.3', 'openapi.json'],
    ['3.1.0', 'openapi.yaml'],
    ['3.0.3', 'openapi.yml'],
  ] as const)('OpenAPI %s to %s is valid', async (version, file) => {
    const run = await demo.arbor([
      'openapi:export',
      '--app',
      'server.ts',
      '--openapi-version',
      version,
      '-o',
      file,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`OpenAPI ${version}`);
    const document = read(readFileSync(demo.path(file), 'utf8'), file);
    expect(document.openapi).toBe(version);
    expect(document.info.title).toBe('Arbor demo API');
    expect(document.paths['/api/products/{id}'].put.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(document.paths)).not.toContain('/api/docs.json'); // the docs routes never document themselves
    await validate(document, version);
  });

  it('writes JSON to stdout by default, YAML with --format yaml', async () => {
    const json = await demo.arbor(['openapi:export', '--app', 'server.ts']);
    expect(json.code, json.stderr).toBe(0);
    await validate(JSON.parse(json.stdout), '3.1.0');
    const yaml = await demo.arbor([
      'openapi:export',
      '--app',
      'server.ts',
      '--format',
      'yaml',
      '--openapi-version',
      '3.0.3',
    ]);
    expect(yaml.code).toBe(0);
    await validate(parse(yaml.stdout), '3.0.3');
  });

  it('usage errors: an output extension it cannot read, an unknown version or format', async () => {
    for (const args of [
      ['-o', 'doc.txt'],
      ['--openapi-version', '2.0'],
      ['--format', 'xml'],
    ]) {
      const run = await demo.arbor(['openapi:export', '--app', 'server.ts', ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
    }
  });
});

/**
 * The reference applications' documents linted with Redocly's `recommended` ruleset
 * (@redocly/openapi-core, what `redocly lint` runs), in 3.1.0 and 3.0.3: no error, and exactly the
 * warnings listed here, each with its reason, so a new one fails the test.
 */
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { exportWithDiagnostics, type OpenApiVersion } from '../../ts/src/openapi/index.js';
import { assertPresent, skipWhenMissing } from '../support/prerequisites.js';
import { SECURITY, subjects } from './subjects.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

type Config = Awaited<ReturnType<typeof createConfig>>;
let recommended: Config;
beforeAll(async () => {
  recommended = await createConfig({ extends: ['recommended'] });
});

const lint = async (document: unknown, name: string) =>
  lintFromString({ source: JSON.stringify(document), absoluteRef: `/${name}.json`, config: recommended });
const shown = (problems: NormalizedProblem[]) =>
  problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);

/** The warnings the reference documents keep, and why. */
const KEPT_WARNINGS: Record<string, string[]> = {
  tasks: [],
  // The products document declares ApiError for its error answers (tests/e2e/error-table.test.ts
  // reads it from this document), yet no products route answers with it.
  products: ['warn no-unused-components #/components/schemas/ApiError'],
  articles: [],
};

const versions: OpenApiVersion[] = ['3.1.0', '3.0.3'];
const reference = subjects().filter((s) => s.name in KEPT_WARNINGS);

describe.each(reference)('$name', ({ name, load }) => {
  const missing = load === null ? `ts/examples/${name}/app.ts` : null;
  it.skipIf(skipWhenMissing(missing)).each(versions)(
    `the ${name} document in %s lints clean with Redocly's recommended rules`,
    async (version) => {
      assertPresent(missing);
      const app = await (load as NonNullable<typeof load>)();
      const { document } = exportWithDiagnostics(app, { openapi: version, security: SECURITY });
      const problems = await lint(document, name);
      expect(shown(problems.filter((p) => p.severity === 'error'))).toEqual([]);
      const warnings = problems
        .filter((p) => p.severity === 'warn')
        .map((p) => `warn ${p.ruleId} ${p.location[0]?.pointer ?? ''}`);
      expect(warnings).toEqual(KEPT_WARNINGS[name]);
    },
  );
});

describe('the lint can fail', () => {
  const responses = { '200': { description: 'OK' }, '404': { description: 'Not Found' } };
  const op = (id: string, extra: object = {}) => ({ operationId: id, summary: id, responses, ...extra });
  const bearer = { components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } };
  it.each([
    {
      name: 'a public operation beside a secured one, without security: []',
      paths: { '/a': { get: op('a') }, '/b': { get: op('b', { security: [{ bearerAuth: [] }] }) } },
      extra: bearer,
    },
    { name: 'no security anywhere, and no root security: []', paths: { '/a': { get: op('a') } }, extra: {} },
  ])('$name → security-defined', async ({ paths, extra }) => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1', license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: '/' }],
      paths,
      ...extra,
    };
    const errors = (await lint(document, 'broken')).filter((p) => p.severity === 'error');
    expect(errors.map((p) => p.ruleId)).toEqual(['security-defined']);
  });
});

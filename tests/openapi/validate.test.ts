/**
 * The documents of the reference applications, validated with an independent validator
 * (@seriousme/openapi-schema-validator, the official OpenAPI JSON Schemas) in 3.1.0 and 3.0.3, and
 * snapshot-tested (as YAML). Annotation diagnostics must be empty: the reference apps are the showcase.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { exportWithDiagnostics, generateHtml, type OpenApiVersion } from '../../ts/src/openapi/index.js';
import { assertPresent, skipWhenMissing } from '../support/prerequisites.js';
import { SECURITY, subjects } from './subjects.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

const versions: OpenApiVersion[] = ['3.1.0', '3.0.3'];

describe.each(subjects())('$name', ({ name, load }) => {
  const missing = load === null ? `ts/examples/${name}/app.ts` : null;
  it.skipIf(skipWhenMissing(missing)).each(versions)(
    `the ${name} document is valid OpenAPI %s`,
    async (version) => {
      assertPresent(missing);
      const app = await (load as NonNullable<typeof load>)();
      const { document, diagnostics } = exportWithDiagnostics(app, { openapi: version, security: SECURITY });
      expect(diagnostics.map((d) => d.message)).toEqual([]);
      const validator = new Validator();
      const result = await validator.validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe(version.slice(0, 3));
      // YAML (an OpenAPI format too): readable diffs, and the JSON formatter of the lint step leaves it alone.
      await expect(stringify(document, { aliasDuplicateObjects: false })).toMatchFileSnapshot(
        `./__snapshots__/${name}.openapi-${version}.yaml`,
      );
      if (version === '3.1.0') {
        await expect(generateHtml(document)).toMatchFileSnapshot(`./__snapshots__/${name}.docs.html`);
      }
    },
  );

  it('the validator rejects a broken document (the check can fail)', async () => {
    const result = await new Validator().validate({
      openapi: '3.1.0',
      info: { title: 'x' },
      paths: { nope: {} },
    });
    expect(result.valid).toBe(false);
  });
});

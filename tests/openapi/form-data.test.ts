/**
 * Form fields and files in the annotations (issue 40): each `@param … name.formData` form → the
 * `multipart/form-data` request body it writes in 3.1.0 and in 3.0.3 (every document checked by the
 * OpenAPI validator and linted with Redocly's recommended rules), and the mistakes reported.
 */

import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import {
  type DiagnosticCode,
  exportWithDiagnostics,
  type OpenApiVersion,
} from '../../ts/src/openapi/index.js';
import { documented, fixture, source, table } from './helpers.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

beforeEach(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const octet31 = { contentMediaType: 'application/octet-stream' };
const binary30 = { type: 'string', format: 'binary' };
/** The one-file schema per version. */
const file = { '3.1.0': octet31, '3.0.3': binary30 };

/** A `multipart/form-data` request body with these properties. */
function form(
  properties: object,
  required?: string[],
  extra: object = {},
  bodyRequired = required !== undefined,
) {
  return {
    required: bodyRequired,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', properties, ...(required === undefined ? {} : { required }) },
        ...extra,
      },
    },
  };
}

interface FormCase {
  name: string;
  block: string;
  extra?: string;
  /** The operation's `requestBody`, per version (a function of the version's file schema). */
  expected: (version: OpenApiVersion) => unknown;
  diagnostics?: { code: DiagnosticCode; at: string }[];
}

const cases: FormCase[] = [
  {
    name: '{file}: one file, required',
    block: '@param {file} avatar.formData.required - Profile picture',
    expected: (v) => form({ avatar: { ...file[v], description: 'Profile picture' } }, ['avatar']),
  },
  {
    name: '{file} with one media type: contentMediaType in 3.1, and the part encoding in both',
    block: '@param {file} scan.formData.required application/pdf - The scan',
    expected: (v) =>
      form(
        {
          scan: {
            ...(v === '3.1.0' ? { contentMediaType: 'application/pdf' } : binary30),
            description: 'The scan',
          },
        },
        ['scan'],
        { encoding: { scan: { contentType: 'application/pdf' } } },
      ),
  },
  {
    name: '{file} with a range or several media types: octet-stream in 3.1, the types in the encoding',
    block:
      '@param {file} photo.formData.optional image/* - A photo\n@param {file} icon.formData.optional image/png, image/gif - An icon',
    expected: (v) =>
      form(
        { photo: { ...file[v], description: 'A photo' }, icon: { ...file[v], description: 'An icon' } },
        undefined,
        { encoding: { photo: { contentType: 'image/*' }, icon: { contentType: 'image/png, image/gif' } } },
      ),
  },
  {
    name: '{file[]} and {array<file>}: an array of files, optional by default',
    block: '@param {file[]} photos.formData - Photos\n@param {array<file>} scans.formData - Scans',
    expected: (v) =>
      form(
        {
          photos: { type: 'array', items: file[v], description: 'Photos' },
          scans: { type: 'array', items: file[v], description: 'Scans' },
        },
        undefined,
      ),
  },
  {
    name: '{file[n..m]}, {file[n]}, {file[..m]}, {file[n..]}: minItems and maxItems',
    block: [
      '@param {file[1..5]} a.formData.required - A',
      '@param {file[2]} b.formData - B',
      '@param {file[..3]} c.formData - C',
      '@param {file[ 2 .. ]} d.formData - D',
    ].join('\n'),
    expected: (v) =>
      form(
        {
          a: { type: 'array', items: file[v], minItems: 1, maxItems: 5, description: 'A' },
          b: { type: 'array', items: file[v], minItems: 2, maxItems: 2, description: 'B' },
          c: { type: 'array', items: file[v], maxItems: 3, description: 'C' },
          d: { type: 'array', items: file[v], minItems: 2, description: 'D' },
        },
        ['a'],
      ),
  },
  {
    name: 'plain fields beside a file: their types, nullable, repeated, a @schema part; .formdata in any case',
    extra: '\n/**\n * @schema Meta\n * @property {string} note - Note\n */\n',
    block: [
      '@param {file} avatar.formData.required - Picture',
      '@param {string} name.formData.required - Name',
      '@param {integer} age.formdata.optional - Age',
      '@param {?string} nick.FORMDATA - Nickname',
      '@param {array<integer>} ids.formData - Ids',
      '@param {Meta} meta.formData - Metadata, as JSON',
    ].join('\n'),
    expected: (v) =>
      form(
        {
          avatar: { ...file[v], description: 'Picture' },
          name: { type: 'string', description: 'Name' },
          age: { type: 'integer', description: 'Age' },
          nick:
            v === '3.1.0'
              ? { type: ['string', 'null'], description: 'Nickname' }
              : { type: 'string', nullable: true, description: 'Nickname' },
          ids: { type: 'array', items: { type: 'integer' }, description: 'Ids' },
          meta:
            v === '3.1.0'
              ? { $ref: '#/components/schemas/Meta', description: 'Metadata, as JSON' }
              : { allOf: [{ $ref: '#/components/schemas/Meta' }], description: 'Metadata, as JSON' },
        },
        ['avatar', 'name'],
      ),
  },
  {
    name: 'plain fields only: still a form',
    block: '@param {string} title.formData.required - Title',
    expected: () => form({ title: { type: 'string', description: 'Title' } }, ['title']),
  },
  {
    name: '@example request goes with the form',
    block: '@param {string} title.formData.required - Title\n@example request\n{ "title": "Hello" }',
    expected: () =>
      form({ title: { type: 'string', description: 'Title' } }, ['title'], { example: { title: 'Hello' } }),
  },
  // ── mistakes ──
  {
    name: 'a {file} outside .formData is refused, not read as a schema named "file"',
    block:
      '@param {file} avatar.body.required - Picture\n@param {file} q.query - Q\n@param {string} name.body - Name',
    expected: () => ({
      required: false,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { name: { type: 'string', description: 'Name' } } },
        },
      },
    }),
    diagnostics: [
      { code: 'MALFORMED_PARAM', at: 'avatar.body' },
      { code: 'MALFORMED_PARAM', at: 'q.query' },
    ],
  },
  {
    name: 'malformed file types: nullable, backwards bounds, no room for a file',
    block: [
      '@param {?file} a.formData - A',
      '@param {file[5..1]} b.formData - B',
      '@param {file[0]} c.formData - C',
      '@param {file[x]} d.formData - D',
      '@param {string} ok.formData - Fine',
    ].join('\n'),
    expected: () => form({ ok: { type: 'string', description: 'Fine' } }, undefined),
    diagnostics: [
      { code: 'MALFORMED_PARAM', at: '{?file}' },
      { code: 'MALFORMED_PARAM', at: '{file[5..1]}' },
      { code: 'MALFORMED_PARAM', at: '{file[0]}' },
      { code: 'MALFORMED_PARAM', at: '{file[x]}' },
    ],
  },
  {
    name: 'form fields beside a JSON body: reported, the body stays JSON',
    block: '@param {string} name.body.required - Name\n@param {file} avatar.formData - Picture',
    expected: () => ({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string', description: 'Name' } },
            required: ['name'],
          },
        },
      },
    }),
    diagnostics: [{ code: 'MIXED_BODY', at: 'avatar.formData' }],
  },
];

let recommended: Awaited<ReturnType<typeof createConfig>>;
beforeAll(async () => {
  recommended = await createConfig({ extends: ['recommended'] });
});

describe.each(['3.1.0', '3.0.3'] as const)('form fields → OpenAPI %s', (version) => {
  it.each(cases)('$name', async (c) => {
    const fx = fixture(
      documented(`@summary Upload\n${c.block}\n@response 201 Stored`, '/uploads', 'post', c.extra ?? ''),
    );
    const routes = table([
      { methods: ['POST'], pattern: '/uploads', callSite: { file: fx.file, line: fx.lineOf('app.post(') } },
    ]);
    const { document, diagnostics } = exportWithDiagnostics(source(routes), { openapi: version });
    const op = document.paths['/uploads']?.post ?? {};
    expect(op.requestBody).toEqual(c.expected(version));
    // Form fields are the body's, never parameters.
    expect(op.parameters).toBeUndefined();
    expect(diagnostics.map((d) => ({ code: d.code, line: d.line }))).toEqual(
      (c.diagnostics ?? []).map((d) => ({ code: d.code, line: fx.lineOf(d.at) })),
    );
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const linted = await lintFromString({
      source: JSON.stringify({
        ...document,
        info: { ...document.info, license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' } },
        servers: [{ url: '/' }],
      }),
      absoluteRef: '/form.json',
      config: recommended,
    });
    // Only the lack of a 4XX is expected of these minimal documents, and only where no body is read: a
    // body's 413 and 415 are documented (the framework answers them).
    const reads = Object.values(document.paths).some((item) =>
      Object.values(item).some((op) => op.requestBody !== undefined),
    );
    expect(linted.map((p) => `${p.severity} ${p.ruleId}`)).toEqual(
      reads ? [] : ['warn operation-4xx-response'],
    );
  });
});

describe('a validated form route documents its 400', () => {
  it('the 400 lists the body fields, and the form stays the request body', () => {
    const app = new Application({ logger: memoryLogger(), validate: true });
    /**
     * @param {file} avatar.formData.optional - Picture
     * @response 204 Stored
     */
    app.post('/avatar', (_req, res) => res.status(204).send());
    const { document } = exportWithDiagnostics(app);
    const op = document.paths['/avatar']?.post ?? {};
    expect(Object.keys(op.responses as object)).toEqual(['204', '400', '413', '415']);
    expect(Object.keys((op.requestBody as { content: object }).content)).toEqual(['multipart/form-data']);
  });
});

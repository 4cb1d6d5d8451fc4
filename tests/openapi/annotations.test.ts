/**
 * The annotation table: a block above a route → the fragment of the OpenAPI document it produces, and
 * every diagnostic (code and line). Each case writes a real source file and a route whose call site points
 * under the block, the way the Application records it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type DiagnosticCode,
  type ExportOptions,
  exportWithDiagnostics,
  type OpenApiDocument,
} from '../../ts/src/openapi/index.js';
import { documented, fixture, source, table } from './helpers.js';

interface Case {
  name: string;
  block: string;
  pattern?: string;
  method?: string;
  /** Extra source after the route (more blocks). */
  extra?: string;
  options?: ExportOptions;
  /** Picks the fragment to compare. Default: the operation of the route. */
  pick?: (doc: OpenApiDocument, op: Record<string, unknown>) => unknown;
  expected?: unknown;
  /** Diagnostics: code and the line (relative: the text of the line that must carry it). */
  diagnostics?: { code: DiagnosticCode; at: string }[];
}

const bearer = { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };
const productSchema = `
/**
 * @schema Product
 * @property {integer} id - Identifier
 * @property {number} price - Price in USD
 */`;

const cases: Case[] = [
  {
    name: '@summary and @description',
    block: '@summary Show a task\n@description Finds the task.',
    expected: { summary: 'Show a task', description: 'Finds the task.' },
  },
  {
    name: 'free text before the tags is the description',
    block: 'Lists everything.\n@summary List',
    expected: { summary: 'List', description: 'Lists everything.' },
  },
  {
    name: 'multi-line @description',
    block: '@description First line\nsecond line',
    expected: { description: 'First line\nsecond line' },
  },
  {
    name: '@param path refines an unconstrained parameter',
    pattern: '/tasks/:id',
    block: '@param {integer} id.path.required - Task id',
    expected: {
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'Task id', schema: { type: 'integer' } },
      ],
    },
  },
  {
    name: 'the engine constraint wins over the annotation type',
    pattern: '/tasks/:id<uuid>',
    block: '@param {integer} id.path.required - Task id',
    expected: { parameters: [{ name: 'id', schema: { type: 'string', format: 'uuid' } }] },
  },
  {
    name: '@param query and header',
    pattern: '/tasks',
    block:
      '@param {integer} page.query.optional - Page\n@param {string} X-Trace.header.required - Trace id\n@param {array} tags.query - Tags',
    expected: {
      parameters: [
        { name: 'page', in: 'query', required: false, description: 'Page', schema: { type: 'integer' } },
        { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'tags', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } },
      ],
    },
  },
  {
    name: '@param body → JSON requestBody with required list',
    pattern: '/tasks',
    method: 'post',
    block:
      '@param {string} title.body.required - Title\n@param {boolean} completed.body.optional - Done?\n@param {array<string>} labels.body - Labels',
    expected: {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                title: { type: 'string', description: 'Title' },
                completed: { type: 'boolean', description: 'Done?' },
                labels: { type: 'array', items: { type: 'string' }, description: 'Labels' },
              },
              required: ['title'],
            },
          },
        },
      },
    },
  },
  {
    name: '@response with $ref, array<X> and no body',
    extra: productSchema,
    block: '@response 200 {Product} The product\n@response 206 {array<Product>} Some\n@response 204 Nothing',
    expected: {
      responses: {
        '200': {
          description: 'The product',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Product' } } },
        },
        '206': {
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: '#/components/schemas/Product' } },
            },
          },
        },
        '204': { description: 'Nothing' },
      },
    },
  },
  {
    name: '@response without text gets the status text',
    block: '@response 404',
    expected: { responses: { '404': { description: 'Not Found' } } },
  },
  {
    name: '@produces sets the response media type',
    block: '@produces text/csv\n@response 200 {string} CSV',
    expected: { responses: { '200': { content: { 'text/csv': { schema: { type: 'string' } } } } } },
  },
  {
    name: '@security (repeatable) → alternatives',
    block: '@security bearerAuth\n@security apiKey',
    options: { security: { ...bearer, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    expected: { security: [{ bearerAuth: [] }, { apiKey: [] }] },
  },
  {
    name: '@tags → operation tags and top-level tags',
    block: '@tags Products, Admin',
    pick: (doc, op) => ({ op: op.tags, top: doc.tags }),
    expected: { op: ['Products', 'Admin'], top: [{ name: 'Products' }, { name: 'Admin' }] },
  },
  { name: '@deprecated true', block: '@deprecated true', expected: { deprecated: true } },
  { name: '@deprecated alone', block: '@deprecated', expected: { deprecated: true } },
  {
    name: '@example request and response',
    method: 'post',
    pattern: '/tasks',
    block:
      '@param {string} title.body.required - Title\n@response 201 {object} Created\n@example request\n{"title": "Buy milk"}\n@example response 201\n{"id": "t1", "title": "Buy milk"}',
    expected: {
      requestBody: { content: { 'application/json': { example: { title: 'Buy milk' } } } },
      responses: { '201': { content: { 'application/json': { example: { id: 't1', title: 'Buy milk' } } } } },
    },
  },
  {
    name: '@schema with @property types → components',
    block: '@summary x',
    extra: `
/**
 * A product for sale.
 * @schema Product
 * @property {integer} id.required - Identifier
 * @property {string} name - Name
 * @property {boolean} active - Active
 * @property {array<Tag>} tags - Tags
 * @property {Tag} main - Main tag
 * @example {"id": 1, "name": "Pen"}
 */
/**
 * @schema Tag
 * @property {string} label - Label
 */`,
    pick: (doc) => (doc.components as { schemas: unknown }).schemas,
    expected: {
      Product: {
        type: 'object',
        description: 'A product for sale.',
        properties: {
          id: { type: 'integer', description: 'Identifier' },
          name: { type: 'string' },
          active: { type: 'boolean' },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
          main: { $ref: '#/components/schemas/Tag', description: 'Main tag' },
        },
        required: ['id'],
        examples: [{ id: 1, name: 'Pen' }],
      },
      Tag: { type: 'object', properties: { label: { type: 'string' } } },
    },
  },
  {
    name: '@api block anywhere attaches by verb and full path',
    pattern: '/tasks/:id<int>',
    block: 'Just a comment.',
    extra: '\nfunction helper() {}\n/**\n * @api GET /tasks/:id\n * @summary From @api\n */\n',
    expected: { summary: 'From @api' },
  },
  // ── diagnostics ──
  {
    name: 'unknown tag',
    block: '@summary x\n@returns nothing',
    diagnostics: [{ code: 'UNKNOWN_TAG', at: '@returns' }],
  },
  {
    name: 'malformed @param (no location)',
    block: '@param {string} name - who',
    pick: (_doc, op) => (op.parameters as unknown[]).length,
    expected: 1,
    diagnostics: [{ code: 'MALFORMED_PARAM', at: '@param' }],
  },
  {
    name: 'malformed @param (bad location)',
    block: '@param {string} name.body2 - who',
    diagnostics: [{ code: 'MALFORMED_PARAM', at: '@param' }],
  },
  {
    name: 'malformed @param (bad type)',
    block: '@param {array<} a.query',
    diagnostics: [{ code: 'MALFORMED_PARAM', at: '@param' }],
  },
  {
    name: 'malformed @response',
    block: '@response ok {X}',
    diagnostics: [{ code: 'MALFORMED_RESPONSE', at: '@response' }],
  },
  {
    name: 'malformed @example JSON',
    block: '@example request\n{nope}',
    diagnostics: [{ code: 'INVALID_EXAMPLE', at: '@example' }],
  },
  {
    name: '@example without a kind',
    block: '@example\n{}',
    diagnostics: [{ code: 'MALFORMED_TAG', at: '@example' }],
  },
  {
    name: '@deprecated with junk',
    block: '@deprecated maybe',
    diagnostics: [{ code: 'MALFORMED_TAG', at: '@deprecated' }],
  },
  {
    name: '@api with no matching route',
    block: '@summary x',
    extra: '\n/**\n * @api DELETE /nowhere\n */\n',
    diagnostics: [{ code: 'API_NO_MATCH', at: '@api DELETE' }],
  },
  {
    name: '$ref to an undefined schema (kept, and reported)',
    block: '@response 200 {Ghost} Boo',
    expected: {
      responses: {
        '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Ghost' } } } },
      },
    },
    diagnostics: [{ code: 'UNDEFINED_SCHEMA', at: '@response 200 {Ghost}' }],
  },
  {
    name: 'undefined security scheme (kept, and reported)',
    block: '@security oauth',
    options: { security: bearer },
    expected: { security: [{ oauth: [] }] },
    diagnostics: [{ code: 'UNDEFINED_SECURITY_SCHEME', at: '@security oauth' }],
  },
  {
    name: '@param path that is not in the pattern',
    pattern: '/tasks/:id',
    block: '@param {integer} taskId.path.required - typo',
    diagnostics: [{ code: 'UNKNOWN_PATH_PARAM', at: 'taskId' }],
  },
  {
    name: 'duplicate @schema',
    block: '@summary x',
    extra: `${productSchema}\n${productSchema.replace('@schema Product', '@schema Product - again')}`,
    diagnostics: [{ code: 'DUPLICATE_SCHEMA', at: '@schema Product - again' }],
  },
  {
    name: 'the same @schema defined twice, identically (two applications mounted together)',
    block: '@summary x',
    extra: `${productSchema}\n${productSchema}`,
    diagnostics: [],
  },
  {
    name: '@property outside a schema',
    block: '@schema\n@property {string} a',
    diagnostics: [
      { code: 'MALFORMED_TAG', at: '@schema' },
      { code: 'MALFORMED_TAG', at: '@property' },
    ],
  },
  {
    name: 'malformed @property',
    block: '@summary x',
    extra: '\n/**\n * @schema Bad\n * @property name without type\n */\n',
    diagnostics: [{ code: 'MALFORMED_PROPERTY', at: '@property name' }],
  },
];

describe('annotation table', () => {
  let warnings: string[];
  beforeEach(() => {
    warnings = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((w: string | Error) => {
      warnings.push(String(w));
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it.each(cases)('$name', (c) => {
    const pattern = c.pattern ?? '/tasks/:id<int>';
    const method = c.method ?? 'get';
    const text = documented(c.block, pattern, method, c.extra ?? '');
    const fx = fixture(text);
    const routes = table([
      {
        methods: [method.toUpperCase()],
        pattern,
        callSite: { file: fx.file, line: fx.lineOf(`app.${method}(`) },
      },
    ]);
    const { document, diagnostics } = exportWithDiagnostics(source(routes), c.options ?? {});
    const [path, item] = Object.entries(document.paths)[0] ?? [];
    expect(path).toBeDefined();
    const op = item?.[method] ?? {};
    if (c.expected !== undefined) {
      const fragment = c.pick ? c.pick(document, op) : op;
      if (typeof c.expected === 'object') expect(fragment).toMatchObject(c.expected as object);
      else expect(fragment).toEqual(c.expected);
    }
    const got = diagnostics.map((d) => ({ code: d.code, line: d.line }));
    const want = (c.diagnostics ?? []).map((d) => ({ code: d.code, line: fx.lineOf(d.at) }));
    expect(got).toEqual(want);
    for (const d of diagnostics) {
      expect(d.message.startsWith(`${fx.file}:${d.line}: `)).toBe(true);
      expect(warnings).toContain(d.message);
    }
  });
});

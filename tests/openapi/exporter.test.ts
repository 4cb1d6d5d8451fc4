/** The exporter beyond single tags: placement rules, versions, ids, serialisable annotations, warnings. */
import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearSourceCache,
  exportWithDiagnostics,
  OpenApiExporter,
  readAnnotations,
} from '../../ts/src/openapi/index.js';
import { fixture, source, table } from './helpers.js';

let warnings: string[];
beforeEach(() => {
  warnings = [];
  vi.spyOn(process, 'emitWarning').mockImplementation((w: string | Error) => {
    warnings.push(String(w));
  });
});
afterEach(() => vi.restoreAllMocks());

describe('where a block attaches', () => {
  const text = `import { app } from './app.js';

/** @summary Blank lines allowed */

app.get('/a', h);

/** @summary Code in between: not attached */
const x = 1;
app.get('/b', h);

/** @summary Not ours */ foo();
app.get('/c', h);

/** @summary A chain over several lines */
api
  .get('/d', h)
  .name('d');

/**
 * @summary Above a resource call
 */
app.resource('/posts', PostController);

class PostController {
  /**
   * @summary List posts
   * @tags Posts
   */
  index(req, res) {}

  /** @summary Show a post */
  static async show(req, res) {}
}

/**
 * @api GET /a
 * @summary @api wins over the block above the call
 */
`;
  const fx = fixture(text);
  const site = (needle: string) => ({ file: fx.file, line: fx.lineOf(needle) });
  const routes = table([
    { pattern: '/a', callSite: site("app.get('/a'") },
    { pattern: '/b', callSite: site("app.get('/b'") },
    { pattern: '/c', callSite: site("app.get('/c'") },
    { pattern: '/d', callSite: site(".get('/d'") },
    {
      pattern: '/posts',
      callSite: site('app.resource'),
      handlerLocation: 'PostController.index',
      name: 'posts.index',
    },
    {
      pattern: '/posts/:id',
      callSite: site('app.resource'),
      handlerLocation: 'PostController.show',
      name: 'posts.show',
    },
    { pattern: '/posts/create', callSite: site('app.resource'), handlerLocation: 'PostController.create' },
  ]);
  const { document, diagnostics } = exportWithDiagnostics(source(routes));
  const summary = (path: string) => document.paths[path]?.get?.summary;

  it('an @api block overrides the block above the call', () =>
    expect(summary('/a')).toBe('@api wins over the block above the call'));
  it('code between the block and the call detaches it', () => expect(summary('/b')).toBeUndefined());
  it('a block closed before code on its line is not the route’s', () =>
    expect(summary('/c')).toBeUndefined());
  it('a chained call formatted over lines reads the block above the chain', () =>
    expect(summary('/d')).toBe('A chain over several lines'));
  it('resource routes read the block above their controller method', () => {
    expect(summary('/posts')).toBe('List posts');
    expect(summary('/posts/{id}')).toBe('Show a post');
    expect(summary('/posts/create')).toBeUndefined();
  });
  it('a plain block above a call registering several routes is reported, not copied', () => {
    expect(diagnostics.filter((d) => d.code !== 'BLOCK_NOT_ATTACHED').map((d) => [d.code, d.line])).toEqual([
      ['AMBIGUOUS_BLOCK', fx.lineOf('Above a resource') - 1],
    ]);
  });
  it('a route block that cannot be attached is reported with the file and line (issue 13)', () => {
    expect(diagnostics.filter((d) => d.code === 'BLOCK_NOT_ATTACHED').map((d) => d.message)).toEqual([
      `${fx.file}:${fx.lineOf("app.get('/b'")}: the doc block ending on line ${fx.lineOf('Code in between')} does not document GET /b: a block attaches to the registration on the line right below it (only blank lines may come between)`,
    ]);
  });
});

describe('documents', () => {
  const text = `
/**
 * @summary Create
 * @param {string} name.body.required - Name
 * @param {?string} note.body - Note
 * @response 201 {Item} Created
 * @response 200 {?Item} Maybe
 * @security bearerAuth
 */
app.post('/items', h);

/**
 * @schema Item
 * @property {integer} id - Id
 * @property {string|null} note - Note
 * @property {Item} parent - Parent
 * @example {"id": 1}
 */
`;
  const fx = fixture(text);
  const routes = table([
    { methods: ['POST'], pattern: '/items', callSite: { file: fx.file, line: fx.lineOf('app.post') } },
    { methods: ['GET', 'PURGE'], pattern: '/items/:id<int>' },
    { methods: ['GET'], pattern: '/items/:id<int>/x', name: 'items.x' },
    { methods: ['PUT', 'PATCH'], pattern: '/items/:id<int>/x', name: 'items.x2' },
  ]);
  const security = { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };

  it('3.1.0 by default: type arrays for null, examples array, $ref with siblings', () => {
    const doc = OpenApiExporter.export(source(routes), { security });
    expect(doc.openapi).toBe('3.1.0');
    const item = (doc.components as { schemas: Record<string, unknown> }).schemas.Item;
    expect(item).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer', description: 'Id' },
        note: { type: ['string', 'null'], description: 'Note' },
        parent: { $ref: '#/components/schemas/Item', description: 'Parent' },
      },
      examples: [{ id: 1 }],
    });
    expect(doc.paths['/items']?.post?.responses).toMatchObject({
      '200': {
        content: {
          'application/json': {
            schema: { oneOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] },
          },
        },
      },
    });
  });

  it('3.0.3 on request: nullable, example, allOf around described $ref', () => {
    const doc = OpenApiExporter.export(source(routes), { security, openapi: '3.0.3' });
    expect(doc.openapi).toBe('3.0.3');
    const item = (doc.components as { schemas: Record<string, unknown> }).schemas.Item;
    expect(item).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer', description: 'Id' },
        note: { type: 'string', nullable: true, description: 'Note' },
        parent: { allOf: [{ $ref: '#/components/schemas/Item' }], description: 'Parent' },
      },
      example: { id: 1 },
    });
    expect(doc.paths['/items']?.post?.responses).toMatchObject({
      '200': {
        content: {
          'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Item' }], nullable: true } },
        },
      },
    });
  });

  it('undocumented routes appear with path parameters and a default response; other methods are skipped', () => {
    const doc = OpenApiExporter.export(source(routes), { security });
    expect(doc.paths['/items/{id}']).toEqual({
      get: {
        operationId: 'getItemsById',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          // The router's own answer to `/items/abc` (no route matches), in the default error shape.
          '404': {
            description: 'A path parameter is not of its type',
            content: {
              'application/json': { schema: expect.objectContaining({ required: ['error', 'code'] }) },
            },
          },
          default: { description: 'Response' },
        },
        // Another operation names a scheme: this one says it needs none (what leaving it out means).
        security: [],
      },
    });
  });

  it('operationIds come from route names and stay unique', () => {
    const doc = OpenApiExporter.export(source(routes), { security });
    const x = doc.paths['/items/{id}/x'] ?? {};
    expect([x.get?.operationId, x.put?.operationId, x.patch?.operationId]).toEqual([
      'items.x',
      'items.x2',
      'items.x2_patch',
    ]);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('info, servers and security schemes come from config and options', () => {
    const app = source(routes, {
      info: {
        title: 'Shop',
        version: '2.0.0',
        description: 'd',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: 'http://localhost:3000', description: 'dev' }],
    });
    const doc31 = OpenApiExporter.export(app, { security });
    expect(doc31.info).toEqual({
      title: 'Shop',
      version: '2.0.0',
      description: 'd',
      license: { name: 'MIT', identifier: 'MIT' },
    });
    expect(doc31.servers).toEqual([{ url: 'http://localhost:3000', description: 'dev' }]);
    expect(doc31.components).toMatchObject({ securitySchemes: security });
    expect(OpenApiExporter.export(app, { openapi: '3.0.3' }).info.license).toEqual({ name: 'MIT' });
  });

  it('annotations are JSON data: the exporter runs from them without the sources', () => {
    clearSourceCache();
    const annotations = JSON.parse(JSON.stringify(readAnnotations(routes)));
    const fromSources = OpenApiExporter.export(source(routes), { security });
    const moved = routes.map((r) => ({
      ...r,
      callSite: r.callSite && { ...r.callSite, file: '/gone/app.ts' },
    }));
    const fromCache = OpenApiExporter.export(source(moved), { security, annotations });
    expect(fromCache).toEqual(fromSources);
  });

  it('reads each source file once per process (an edit shows only after clearSourceCache)', () => {
    const f = fixture('/** @summary Before */\napp.get("/once", h);\n');
    const r = table([{ pattern: '/once', callSite: { file: f.file, line: 2 } }]);
    const summary = () => OpenApiExporter.export(source(r)).paths['/once']?.get?.summary;
    expect(summary()).toBe('Before');
    writeFileSync(f.file, '/** @summary After */\napp.get("/once", h);\n');
    expect(summary()).toBe('Before');
    clearSourceCache();
    expect(summary()).toBe('After');
  });

  it('each diagnostic is emitted as a process warning once', () => {
    const bad = fixture('/**\n * @frobnicate\n */\napp.get("/w", h);\n');
    const r = table([{ pattern: '/w', callSite: { file: bad.file, line: 4 } }]);
    const first = exportWithDiagnostics(source(r)).diagnostics;
    exportWithDiagnostics(source(r));
    expect(first.map((d) => d.code)).toEqual(['UNKNOWN_TAG']);
    expect(warnings.filter((w) => w.includes('@frobnicate'))).toHaveLength(1);
  });

  it('an unreadable source file is a diagnostic, not a crash', () => {
    const r = table([{ pattern: '/z', callSite: { file: '/nonexistent/app.ts', line: 3 } }]);
    const { document, diagnostics } = exportWithDiagnostics(source(r));
    expect(Object.keys(document.paths)).toEqual(['/z']);
    expect(diagnostics.map((d) => d.code)).toEqual(['SOURCE_UNREADABLE']);
  });

  it('docs routes (named arbor.docs.*) and excluded routes stay out', () => {
    const r = table([
      { pattern: '/api/docs.json', name: 'arbor.docs.json' },
      { pattern: '/internal' },
      { pattern: '/x' },
    ]);
    const doc = OpenApiExporter.export(source(r), { exclude: (route) => route.pattern === '/internal' });
    expect(Object.keys(doc.paths)).toEqual(['/x']);
  });
});

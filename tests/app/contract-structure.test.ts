/**
 * The structure of a contract beyond one field: inline objects and arrays of objects, `@schema`
 * definitions that refer to each other (recursion included), reusable `@component` parameters, responses
 * and request bodies, optional security, the validation refusal the app declares (`onInvalid: { status,
 * schema }`), servers whose URL carries the routes' prefix, and the framework's own answers (404 of a
 * constrained or bound parameter, 400/413/415 of a body) in the app's error shape. Each enforced by
 * validation where it is a rule, and checked in both documents by an OpenAPI validator.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger, Response } from '../../ts/src/app/index.js';
import { exportWithDiagnostics, type OpenApiDocument } from '../../ts/src/openapi/index.js';
import { withEngine } from './support/engine.js';

/**
 * @schema Author
 * @property {string minLength=1} name.required - Display name
 * @property {?Author} mentor - Who taught them (an Author too)
 */

/**
 * @schema Comment
 * @property {string minLength=1} body.required - Text
 * @property {Author} author.required - Who wrote it
 * @property {array<Comment> maxItems=2} replies - Answers, comments themselves
 */

/**
 * @schema Problem
 * @property {string} message.required - What is wrong
 */

/**
 * @component parameter Limit {integer minimum=1 maximum=50 default=10} limit.query - Page size
 * @component parameter Offset {integer minimum=0 maximum=1000000 default=0} offset.query - Items to skip
 * @component response NotFound {Problem} - No article has this id
 * @component requestBody NewComment {Comment} required - The comment to add
 */

/**
 * @api POST /api/articles
 * @param {{title: string minLength=1, tags?: array<string> maxItems=3}} article.body.required - The article
 * @param {array<{sku: string pattern=^[A-Z]{3}$, qty: integer minimum=1}> minItems=1} items.body.required - Lines
 * @response 201 {{article: {title: string, tags: array<string>}}} The article, wrapped
 * @security none
 * @security bearerAuth
 */

/**
 * @api GET /api/articles
 * @param #Limit
 * @param #Offset
 * @response 200 {{articles: array<object>, count: integer}} A page
 */

/**
 * @api GET /api/articles/:id<int>/comments
 * @response 200 {array<Comment>} The comments
 * @response 404 #NotFound
 */

/**
 * @api POST /api/posts/:post/comments
 * @body #NewComment
 * @response 201 {Comment} Added
 * @response 404 #NotFound
 */

/**
 * @api GET /health
 * @response 200 {{ok: boolean}} Alive
 */

const SOURCES = [new URL(import.meta.url).pathname];
const PROBLEM = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
};

function app(servers = [{ url: 'https://api.example.com/api' }]): Application {
  const application = new Application(
    withEngine({
      logger: memoryLogger(),
      validate: {
        onInvalid: {
          status: 422,
          schema: PROBLEM,
          handler: (error) => new Response().status(422).json({ message: error.message }),
        },
      },
      openapi: { info: { title: 'Structure', version: '1.0.0' }, servers },
    }),
  );
  application.bind('post', (id) => (id === '1' ? { id } : null));
  application.group('/api', (api) => {
    api.post('/articles', (req, res) => res.status(201).json({ article: req.valid('body') }));
    api.get('/articles', (req, res) => res.json({ articles: [], count: 0, query: req.valid('query') }));
    api.get('/articles/:id<int>/comments', (_req, res) => res.json([]));
    api.post('/posts/:post/comments', (req, res) => res.status(201).json(req.valid('body')));
  });
  application.get('/health', (_req, res) => res.json({ ok: true }));
  return application;
}

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const article = { article: { title: 'Hello' }, items: [{ sku: 'ABC', qty: 1 }] };
const comment = { body: 'Nice', author: { name: 'Ada', mentor: { name: 'Charles', mentor: null } } };

describe('validation follows the structure', () => {
  test.each<[label: string, path: string, init: RequestInit, status: number]>([
    ['an inline object and an array of objects', '/api/articles', post(article), 201],
    ['an inline object missing its required field', '/api/articles', post({ ...article, article: {} }), 422],
    [
      'an inline field breaking its keyword',
      '/api/articles',
      post({ ...article, article: { title: '' } }),
      422,
    ],
    [
      'an item of the array breaking its pattern',
      '/api/articles',
      post({ ...article, items: [{ sku: 'abc', qty: 1 }] }),
      422,
    ],
    ['an empty array of objects', '/api/articles', post({ ...article, items: [] }), 422],
    ['component parameters within bounds', '/api/articles?limit=50&offset=0', {}, 200],
    ['a component parameter past its bound', '/api/articles?limit=51', {}, 422],
    ['an absurd offset', '/api/articles?offset=29000000000000000000000000', {}, 422],
    ['a component body through cross-referenced schemas', '/api/posts/1/comments', post(comment), 201],
    [
      'a nested reference breaking its schema (mentor of the author)',
      '/api/posts/1/comments',
      post({ ...comment, author: { name: 'Ada', mentor: { name: '' } } }),
      422,
    ],
    [
      'a recursive schema breaking deep down (a reply of a reply)',
      '/api/posts/1/comments',
      post({ ...comment, replies: [{ ...comment, replies: [{ body: '', author: { name: 'x' } }] }] }),
      422,
    ],
    ['a binding that finds nothing', '/api/posts/2/comments', post(comment), 404],
  ])('%s', async (_label, path, init, status) => {
    const answer = await app().request(path, init);
    const text = await answer.text();
    expect(answer.status, text).toBe(status);
    if (status === 422) expect(JSON.parse(text)).toHaveProperty('message');
  });

  test('component parameters coerce and default like inline ones', async () => {
    const answer = await app().request('/api/articles?limit=5');
    expect((await answer.json()).query).toEqual({ limit: 5, offset: 0 });
  });
});

function documentOf(version: '3.1.0' | '3.0.3', servers?: { url: string }[]) {
  return exportWithDiagnostics(app(servers), {
    openapi: version,
    sources: SOURCES,
    security: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
}

type Operation = {
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
};
const operation = (document: OpenApiDocument, path: string, method: string) =>
  (document.paths[path] as Record<string, Operation>)[method] as Operation;

describe.each(['3.1.0', '3.0.3'] as const)('the OpenAPI %s document', (version) => {
  test('is valid and has no diagnostics', async () => {
    const { document, diagnostics } = documentOf(version);
    expect(diagnostics.map((d) => d.message)).toEqual([]);
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
  });

  test('paths are relative to the servers (no /api/api), a route outside them has its own servers', () => {
    const { document } = documentOf(version);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/articles',
      '/articles/{id}/comments',
      '/health',
      '/posts/{post}/comments',
    ]);
    expect(document.servers).toEqual([{ url: 'https://api.example.com/api' }]);
    expect((document.paths['/health'] as { servers?: unknown }).servers).toEqual([
      { url: 'https://api.example.com' },
    ]);
    // With a server at the root, the paths keep their prefix.
    const root = documentOf(version, [{ url: '/' }]).document;
    expect(Object.keys(root.paths)).toContain('/api/articles');
  });

  test('inline objects become nested schemas', () => {
    const { document } = documentOf(version);
    const post = operation(document, '/articles', 'post');
    const content = (post.requestBody?.content ?? {}) as Record<
      string,
      { schema: { properties: Record<string, unknown> } }
    >;
    const body = content['application/json']?.schema.properties;
    expect(body?.article).toEqual({
      type: 'object',
      description: 'The article',
      properties: {
        title: { type: 'string', minLength: 1 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['title'],
    });
    expect(body?.items).toMatchObject({
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['sku', 'qty'] },
    });
    expect(post.responses['201']?.content?.['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['article'],
    });
  });

  test('optional security is the anonymous alternative beside the scheme', () => {
    const { document } = documentOf(version);
    expect(operation(document, '/articles', 'post').security).toEqual([{}, { bearerAuth: [] }]);
    expect(operation(document, '/health', 'get').security).toEqual([]);
  });

  test('components are defined once and referred to', () => {
    const { document } = documentOf(version);
    const components = document.components as Record<string, Record<string, unknown>>;
    expect(Object.keys(components.parameters ?? {})).toEqual(['Limit', 'Offset']);
    expect(Object.keys(components.responses ?? {})).toEqual(['NotFound']);
    expect(Object.keys(components.requestBodies ?? {})).toEqual(['NewComment']);
    expect(operation(document, '/articles', 'get').parameters).toEqual([
      { $ref: '#/components/parameters/Limit' },
      { $ref: '#/components/parameters/Offset' },
    ]);
    expect(operation(document, '/posts/{post}/comments', 'post').requestBody).toEqual({
      $ref: '#/components/requestBodies/NewComment',
    });
    expect(operation(document, '/posts/{post}/comments', 'post').responses['404']).toEqual({
      $ref: '#/components/responses/NotFound',
    });
  });

  test("the validation refusal is documented with the app's status and schema", () => {
    const { document } = documentOf(version);
    const get = operation(document, '/articles', 'get');
    expect(get.responses['422']?.content?.['application/json']?.schema).toEqual(PROBLEM);
    expect(get.responses['400']).toBeUndefined();
  });

  test("the framework's own refusals are documented", () => {
    const { document } = documentOf(version);
    const errorShape = { type: 'object', required: ['error', 'code'] };
    const post = operation(document, '/articles', 'post');
    for (const status of ['400', '413', '415'])
      expect(post.responses[status]?.content?.['application/json']?.schema).toMatchObject(errorShape);
    // A constrained parameter: 404 when it is not an integer.
    expect(operation(document, '/articles/{id}/comments', 'get').responses['404']).toEqual({
      $ref: '#/components/responses/NotFound',
    });
    // Reading nothing, constraining nothing: none of them.
    const health = operation(document, '/health', 'get');
    expect(Object.keys(health.responses)).toEqual(['200']);
    const list = operation(document, '/articles', 'get');
    expect(list.responses['413']).toBeUndefined();
    expect(list.responses['404']).toBeUndefined();
  });
});

describe('mistakes are diagnostics', () => {
  test('an undefined component is named and left out', () => {
    const broken = new Application(withEngine({ logger: memoryLogger() }));
    broken.get('/missing', (_req, res) => res.json({}));
    const { document, diagnostics } = exportWithDiagnostics(broken, {
      sources: [new URL('./fixtures/component-mistakes.ts', import.meta.url).pathname],
    });
    const fixture = diagnostics.filter((d) => d.file.endsWith('component-mistakes.ts'));
    expect(fixture.map((d) => d.code).sort()).toEqual([
      'MALFORMED_TAG',
      'UNDEFINED_COMPONENT',
      'UNDEFINED_COMPONENT',
    ]);
    const missing = operation(document, '/missing', 'get');
    expect(missing.parameters).toBeUndefined();
  });

  test('a malformed inline object is a malformed parameter', () => {
    const broken = new Application(withEngine({ logger: memoryLogger() }));
    broken.post('/bad', (_req, res) => res.json({}));
    const { diagnostics } = exportWithDiagnostics(broken, {
      sources: [new URL('./fixtures/inline-object-mistakes.ts', import.meta.url).pathname],
    });
    const malformed = diagnostics.filter((d) => d.code === 'MALFORMED_PARAM');
    expect(malformed.map((d) => `${d.file.split('/').pop()}:${d.line}`)).toEqual([
      'inline-object-mistakes.ts:3',
      'inline-object-mistakes.ts:4',
      'inline-object-mistakes.ts:5',
    ]);
  });
});

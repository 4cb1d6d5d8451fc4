/**
 * Code-first contracts: one route written with doc comments, with zod, valibot, arktype and TypeBox gives
 * the same answers on a table of good and bad requests, `req.valid(part)` with the schema's coerced values,
 * and equivalent OpenAPI documents (valid in 3.1 and 3.0.3). A part declared both ways, or a Standard
 * Schema with no JSON Schema, is an error at start naming the route.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import Type from 'typebox';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Application,
  memoryLogger,
  type Request,
  type Response,
  type RouteSchemas,
} from '../../ts/src/app/index.js';
import { RouteError } from '../../ts/src/errors.js';
import { exportWithDiagnostics } from '../../ts/src/openapi/index.js';
import { registerAnnotatedOrders } from './fixtures/orders-annotated.js';
import { withEngine } from './support/engine.js';

const SCHEMAS: Record<string, RouteSchemas> = {
  zod: {
    query: z.object({ limit: z.coerce.number().int().min(1).max(100) }),
    body: z.object({
      title: z.string().min(1),
      quantity: z.number().int().min(1),
      tags: z.array(z.string()).optional(),
    }),
  },
  valibot: {
    query: toStandardJsonSchema(
      v.object({
        limit: v.pipe(
          v.string(),
          v.transform(Number),
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(100),
        ),
      }),
    ),
    body: toStandardJsonSchema(
      v.object({
        title: v.pipe(v.string(), v.minLength(1)),
        quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
        tags: v.optional(v.array(v.string())),
      }),
    ),
  },
  arktype: {
    query: type({ limit: 'string.integer.parse' })
      .pipe((q) => q)
      .narrow((q, ctx) =>
        q.limit >= 1 && q.limit <= 100 ? true : ctx.reject({ path: ['limit'], expected: 'from 1 to 100' }),
      ),
    body: type({ title: 'string > 0', quantity: 'number.integer >= 1', 'tags?': 'string[]' }),
  },
  typebox: {
    query: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100 }) }),
    body: Type.Object({
      title: Type.String({ minLength: 1 }),
      quantity: Type.Integer({ minimum: 1 }),
      tags: Type.Optional(Type.Array(Type.String())),
    }),
  },
};

function build(how: string): Application {
  const app = new Application(
    withEngine({ logger: memoryLogger(), ...(how === 'doc' ? { validate: true } : {}) }),
  );
  const handler = (req: Request, res: Response) =>
    res.status(201).json({ query: req.valid('query'), body: req.valid('body') });
  if (how === 'doc') registerAnnotatedOrders(app, handler);
  else app.post('/orders/:shop', { schema: SCHEMAS[how] as RouteSchemas }, handler);
  return app;
}

const HOWS = ['doc', 'zod', 'valibot', 'arktype', 'typebox'];
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const good = { title: 'pens', quantity: 3 };

describe.each(HOWS)('the contract written with %s', (how) => {
  test.each<[label: string, query: string, body: unknown, status: number, fields: string[]]>([
    ['a good order', 'limit=10', good, 201, []],
    ['with tags', 'limit=1', { ...good, tags: ['a', 'b'] }, 201, []],
    ['limit missing', '', good, 400, ['limit']],
    ['limit not a number', 'limit=ten', good, 400, ['limit']],
    ['limit too large', 'limit=101', good, 400, ['limit']],
    ['an empty title', 'limit=10', { ...good, title: '' }, 400, ['title']],
    ['quantity a string', 'limit=10', { ...good, quantity: '3' }, 400, ['quantity']],
    ['quantity missing', 'limit=10', { title: 'pens' }, 400, ['quantity']],
    ['a tag not a string', 'limit=10', { ...good, tags: [1] }, 400, ['tags/0']],
    ['every part wrong at once', 'limit=0', { title: '', quantity: 0 }, 400, ['limit', 'quantity', 'title']],
  ])('%s', async (_label, query, body, status, fields) => {
    const answer = await build(how).request(`/orders/acme?${query}`, json(body));
    const got = await answer.json();
    expect(answer.status, JSON.stringify(got)).toBe(status);
    if (status === 400) {
      const names = [...new Set(got.details.map((d: { name: string }) => d.name))].sort();
      expect(names).toEqual(fields);
      expect(got.details.every((d: { in: string }) => ['query', 'body'].includes(d.in))).toBe(true);
    } else {
      // Coerced: the limit is a number, whichever library.
      expect(got.query).toEqual({ limit: Number(query.split('=')[1]) });
      expect(got.body).toMatchObject(body as object);
    }
  });

  test.each(['3.1.0', '3.0.3'] as const)(
    'its OpenAPI %s document is valid and states the contract',
    async (version) => {
      const { document } = exportWithDiagnostics(build(how), {
        openapi: version,
      });
      const result = await new Validator().validate(document);
      expect(result.errors ?? []).toEqual([]);
      const operation = (document.paths['/orders/{shop}'] as Record<string, Record<string, unknown>>)
        .post as {
        parameters: { name: string; in: string; required: boolean }[];
        requestBody: { content: Record<string, { schema: { properties: object; required: string[] } }> };
        responses: Record<string, unknown>;
      };
      const limit = operation.parameters.find((p) => p.name === 'limit');
      expect(limit).toMatchObject({ in: 'query', required: true });
      const body = operation.requestBody.content['application/json']?.schema;
      expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['quantity', 'tags', 'title']);
      expect([...(body?.required ?? [])].sort()).toEqual(['quantity', 'title']);
      expect(operation.responses['400']).toBeDefined();
    },
  );
});

/**
 * @api POST /documented
 * @param {string} title.body.required - Declared here and in the schema option
 */

describe('mistakes are errors at start, naming the route', () => {
  test('a part declared by the doc comment and by the schema', () => {
    const app = new Application(withEngine({ validate: true, logger: memoryLogger() }));
    app.post('/documented', { schema: { body: z.object({ title: z.string() }) } }, (_req, res) =>
      res.json({}),
    );
    expect(() => app.compileValidation()).toThrow(RouteError);
    expect(() => app.compileValidation()).toThrow(/POST \/documented: its body is declared twice/);
  });

  test('a Standard Schema with no JSON Schema (valibot unwrapped)', () => {
    const app = new Application(withEngine({ logger: memoryLogger() }));
    app.post('/plain', { schema: { body: v.object({ a: v.string() }) } }, (_req, res) => res.json({}));
    expect(() => app.compileValidation()).toThrow(/POST \/plain: the body schema offers no JSON Schema/);
  });
});

test('a route with a schema validates even where the application does not', async () => {
  const app = new Application(withEngine({ logger: memoryLogger() }));
  app.get(
    '/items',
    { schema: { query: z.object({ page: z.coerce.number().int().default(1) }) } },
    (req, res) => res.json(req.valid('query')),
  );
  expect(await (await app.request('/items')).json()).toEqual({ page: 1 });
  expect((await app.request('/items?page=x')).status).toBe(400);
});

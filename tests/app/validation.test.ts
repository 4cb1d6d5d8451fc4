/**
 * Validation from the annotations (issue 17), over real HTTP: the table of types × locations × required
 * (tests/app/fixtures/validation-app.ts documents one route per cell), the 400 body, where validation
 * runs in the pipeline, per-route switches, response checking and the exported document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application, memoryLogger, Response } from '../../ts/src/app/index.js';
import { OpenApiExporter } from '../../ts/src/openapi/index.js';
import { validationApp } from './fixtures/validation-app.js';
import { withEngine } from './support/engine.js';
import { type Client, httpTransport, type Reply } from './support/transport.js';

type Outcome = 'ok' | 'bad';
/** A value as a string (query, header, path), or several for a repeated query parameter. */
type Raw = string | string[];

const stringRows: [type: string, value: Raw, outcome: Outcome][] = [
  ['integer', '42', 'ok'],
  ['integer', '-7', 'ok'],
  ['integer', '4.5', 'bad'],
  ['integer', 'abc', 'bad'],
  ['number', '4.5', 'ok'],
  ['number', '-1e3', 'ok'],
  ['number', 'abc', 'bad'],
  ['boolean', 'true', 'ok'],
  ['boolean', 'false', 'ok'],
  ['boolean', 'yes', 'bad'],
  ['string', 'anything at all', 'ok'],
  ['array', ['a', 'b'], 'ok'],
  ['array', 'a', 'ok'],
  ['integers', ['1', '2'], 'ok'],
  ['integers', ['1', 'x'], 'bad'],
  ['integers', 'x', 'bad'],
];

const bodyRows: [type: string, value: unknown, outcome: Outcome][] = [
  ['integer', 42, 'ok'],
  ['integer', '42', 'bad'],
  ['integer', 4.5, 'bad'],
  ['integer', null, 'bad'],
  ['number', 4.5, 'ok'],
  ['number', '4.5', 'bad'],
  ['boolean', true, 'ok'],
  ['boolean', 'true', 'bad'],
  ['string', 'x', 'ok'],
  ['string', 42, 'bad'],
  ['array', ['a'], 'ok'],
  ['array', 'a', 'bad'],
  ['array', [1], 'bad'],
  ['integers', [1, 2], 'ok'],
  ['integers', [1, 'x'], 'bad'],
];

const json = { 'Content-Type': 'application/json' };

function expectViolation(reply: Reply, location: string, name: string | RegExp): void {
  expect(reply.status, reply.text).toBe(400);
  const body = reply.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error']);
  expect(body.code).toBe(400);
  expect(typeof body.error).toBe('string');
  expect(body.details.length).toBeGreaterThan(0);
  for (const detail of body.details) {
    expect(Object.keys(detail).sort()).toEqual(['in', 'keyword', 'message', 'name', 'pointer']);
    expect(detail.in).toBe(location);
    expect(detail.name).toMatch(name);
    // The same place as an RFC 6901 pointer, and the JSON Schema keyword it breaks.
    expect(detail.pointer).toBe(
      detail.name === ''
        ? ''
        : `/${detail.name
            .split('/')
            .map((s: string) => s.replace(/~/g, '~0'))
            .join('/')}`,
    );
    expect(detail.keyword).toMatch(
      /^(type|required|minimum|maximum|enum|format|pattern|minLength|maxLength|minItems|maxItems|contentMediaType)$/,
    );
    expect(typeof detail.message).toBe('string');
  }
}

describe('the validation table over HTTP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await httpTransport.connect(validationApp(withEngine()));
  });
  afterAll(() => client.close());

  for (const required of ['required', 'optional']) {
    describe(required, () => {
      test.each(stringRows)('query %s %j → %s', async (type, value, outcome) => {
        const query = (Array.isArray(value) ? value : [value]).map((v) => `v=${encodeURIComponent(v)}`);
        const reply = await client.request(`/query/${type}/${required}?${query.join('&')}`, {
          method: 'POST',
        });
        if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
        else expectViolation(reply, 'query', /^v(\/\d+)?$/);
      });

      test.each(stringRows)('header %s %j → %s', async (type, value, outcome) => {
        const header = Array.isArray(value) ? value.join(', ') : value;
        const reply = await client.request(`/header/${type}/${required}`, {
          method: 'POST',
          headers: { 'X-V': header },
        });
        if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
        else expectViolation(reply, 'header', /^x-v(\/\d+)?$/);
      });

      test.each(stringRows.filter(([, value]) => !Array.isArray(value)))(
        'path %s %j → %s',
        async (type, value, outcome) => {
          const reply = await client.request(
            `/path/${type}/${required}/${encodeURIComponent(value as string)}`,
            {
              method: 'POST',
            },
          );
          if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
          else expectViolation(reply, 'path', /^v(\/\d+)?$/);
        },
      );

      test.each(bodyRows)('body %s %j → %s', async (type, value, outcome) => {
        const reply = await client.request(`/body/${type}/${required}`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ v: value }),
        });
        if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
        else expectViolation(reply, 'body', /^v(\/\d+)?$/);
      });

      test.each(['integer', 'number', 'boolean', 'string', 'array', 'integers'])(
        `absent %s → ${required === 'required' ? '400' : '200'} in the query, a header and the body`,
        async (type) => {
          const replies = {
            query: await client.request(`/query/${type}/${required}`, { method: 'POST' }),
            header: await client.request(`/header/${type}/${required}`, { method: 'POST' }),
            body: await client.request(`/body/${type}/${required}`, {
              method: 'POST',
              headers: json,
              body: '{}',
            }),
          };
          for (const [location, reply] of Object.entries(replies)) {
            if (required === 'optional') expect(reply.status, `${location}: ${reply.text}`).toBe(200);
            else {
              expectViolation(reply, location, location === 'header' ? 'x-v' : 'v');
              expect(reply.json().details[0].message).toBe('is required');
            }
          }
        },
      );
    });
  }

  test('an optional path parameter may be absent', async () => {
    expect((await client.request('/path/integer/optional', { method: 'POST' })).status).toBe(200);
  });

  test.each([
    ['null', 'null'],
    ['an array', '[1]'],
    ['a string', '"v"'],
    ['a number', '7'],
  ])(
    'a body that is %s where fields are declared → 400 "The body must be a JSON object"',
    async (_l, body) => {
      const reply = await client.request('/body/integer/optional', { method: 'POST', headers: json, body });
      expectViolation(reply, 'body', '');
      expect(reply.json().error).toBe('The body must be a JSON object');
    },
  );

  test('the error names what is missing, and every violation is listed', async () => {
    const missing = await client.request('/body/string/required', {
      method: 'POST',
      headers: json,
      body: '{}',
    });
    expect(missing.json()).toEqual({
      error: 'Missing required fields: v',
      code: 400,
      details: [{ in: 'body', name: 'v', pointer: '/v', keyword: 'required', message: 'is required' }],
    });
    const several = await client.request('/query/integers/required?v=x&v=2&v=y', { method: 'POST' });
    expect(several.json().details.map((d: { name: string }) => d.name)).toEqual(['v/0', 'v/2']);
    expect(several.json().error).toMatch(/^Invalid request: query v\/0 must be integer/);
  });

  test('handlers still read the strings as sent (validation does not rewrite the request)', async () => {
    const reply = await client.request('/query/integer/required?v=42', { method: 'POST' });
    expect(reply.json().query).toEqual(['42']);
  });
});

describe('where validation runs, and per-route switches', () => {
  let client: Client;
  let reached = 0;
  beforeAll(async () => {
    const app = new Application(withEngine());
    /**
     * @param {integer} n.query.required - A number
     */
    app.get('/on', (_req, res) => res.json({ reached: ++reached })).validate();
    /**
     * @param {integer} n.query.required - A number
     */
    app.get('/off', (_req, res) => res.json({ reached: ++reached }));
    /**
     * @param {string} title.body.required - A title
     */
    app
      .post('/guarded', (_req, res) => res.json({ reached: ++reached }))
      .middleware((req, next) =>
        req.header('authorization')
          ? next.handle(req)
          : new Response().status(401).json({ error: 'Unauthorized', code: 401 }),
      )
      .validate();
    client = await httpTransport.connect(app);
  });
  afterAll(() => client.close());

  test('route.validate() on an application without validate; routes without it are not checked', async () => {
    expect((await client.request('/on?n=x')).status).toBe(400);
    expect((await client.request('/off?n=x')).status).toBe(200);
    const before = reached;
    expect((await client.request('/on?n=1')).status).toBe(200);
    expect(reached).toBe(before + 1);
  });

  test('group.validate() covers the group and its nested groups; a route opts out with validate(false)', async () => {
    const app = new Application(withEngine());
    app
      .group('/g', (g) => {
        /**
         * @param {integer} n.query.required - A number
         */
        g.get('/a', (_req, res) => res.json({}));
        g.group('/inner', (inner) => {
          /**
           * @param {integer} n.query.required - A number
           */
          inner.get('/b', (_req, res) => res.json({}));
          /**
           * @param {integer} n.query.required - A number
           */
          inner.get('/c', (_req, res) => res.json({})).validate(false);
        });
      })
      .validate();
    const grouped = await httpTransport.connect(app);
    try {
      expect((await grouped.request('/g/a?n=x')).status).toBe(400);
      expect((await grouped.request('/g/inner/b?n=x')).status).toBe(400);
      expect((await grouped.request('/g/inner/c?n=x')).status).toBe(200);
      expect((await grouped.request('/g/a?n=1')).status).toBe(200);
    } finally {
      await grouped.close();
    }
  });

  test('@body {Schema}: the whole body is checked against the schema, fields beside it add to it', async () => {
    const app = new Application(withEngine({ validate: true }));
    /**
     * @schema Item
     * @property {string} name.required - Name
     * @property {?integer} stock - Units, or null
     * @property {array<Item>} parts - Nested items
     */
    /**
     * @body {Item} - The item
     */
    app.post('/items', (req, res) => res.status(201).json(req.json()));
    /**
     * @body {Item} optional - The item
     * @param {boolean} draft.body.required - Not published yet
     */
    app.put('/items', (req, res) => res.json(req.json()));
    const items = await httpTransport.connect(app);
    const send = (method: string, body: string) => items.request('/items', { method, headers: json, body });
    try {
      expect((await send('POST', '{"name":"a","stock":null,"parts":[{"name":"b"}]}')).status).toBe(201);
      expect((await send('POST', '{}')).json().details).toEqual([
        { in: 'body', name: 'name', pointer: '/name', keyword: 'required', message: 'is required' },
      ]);
      expectViolation(await send('POST', '{"name":"a","parts":[{"stock":1}]}'), 'body', 'parts/0/name');
      expectViolation(await send('POST', '{"name":"a","stock":1.5}'), 'body', 'stock');
      expect((await send('POST', '[]')).json().error).toBe('The body must be a JSON object');
      expect((await send('PUT', '{"name":"a","draft":true}')).status).toBe(200);
      expect((await send('PUT', '{"name":"a"}')).json().details).toEqual([
        { in: 'body', name: 'draft', pointer: '/draft', keyword: 'required', message: 'is required' },
      ]);
      const document = OpenApiExporter.export(app);
      const post = document.paths['/items']?.post as { requestBody: Record<string, unknown> };
      expect(post.requestBody).toEqual({
        description: 'The item',
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
      });
      const put = document.paths['/items']?.put as { requestBody: { required: boolean; content: unknown } };
      expect(put.requestBody.required).toBe(true);
      expect(JSON.stringify(put.requestBody.content)).toContain('"allOf"');
      expect(await new Validator().validate(document)).toMatchObject({ valid: true });
    } finally {
      await items.close();
    }
  });

  test("onInvalid answers in the API's own error body", async () => {
    const app = new Application(
      withEngine({
        validate: {
          onInvalid: (error) => new Response().status(422).json({ problems: error.details.length }),
        },
      }),
    );
    /**
     * @param {integer} a.query.required - A
     * @param {boolean} b.query.required - B
     */
    app.get('/own', (_req, res) => res.json({}));
    const own = await httpTransport.connect(app);
    try {
      const reply = await own.request('/own?b=maybe');
      expect(reply.status).toBe(422);
      expect(reply.json()).toEqual({ problems: 2 });
    } finally {
      await own.close();
    }
  });

  test('middleware runs first: no token → 401 before the body is validated; the handler never sees a bad body', async () => {
    expect((await client.request('/guarded', { method: 'POST', headers: json, body: '{}' })).status).toBe(
      401,
    );
    const before = reached;
    const bad = await client.request('/guarded', {
      method: 'POST',
      headers: { ...json, Authorization: 'x' },
      body: '{"title":1}',
    });
    expectViolation(bad, 'body', 'title');
    expect(reached).toBe(before);
  });
});

describe('responses checked against their documented schema', () => {
  function responsesApp(mode: 'log' | 'throw') {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger, validate: { responses: mode } }));
    /**
     * @schema Thing
     * @property {integer} id.required - Id
     * @property {string} name - Name
     */
    /**
     * @response 200 {Thing} The thing
     * @response 404 {Thing} Not found (documented wrongly on purpose: the framework's 404 has no id)
     */
    app.get('/things/:id', (req, res) => {
      const id = req.param('id');
      if (id === 'created') return res.status(201).json({ id: 1 });
      if (id === 'text') return res.send('plain');
      return res.json(id === 'good' ? { id: 1, name: 'a' } : { id: 'one' });
    });
    return { app, logger };
  }

  test("'throw': a body that breaks the schema becomes a 500, logged with the route", async () => {
    const { app, logger } = responsesApp('throw');
    const client = await httpTransport.connect(app);
    try {
      expect((await client.request('/things/good')).status).toBe(200);
      const bad = await client.request('/things/bad');
      expect(bad.status).toBe(500);
      expect(logger.errors.map((e) => e.message).join('\n')).toMatch(
        /GET \/things\/:id answered 200, which does not match its documented schema: id must be integer/,
      );
      expect((await client.request('/things/created')).status).toBe(500);
      expect(logger.errors.map((e) => e.message).join('\n')).toMatch(
        /answered 201, which is not a documented status/,
      );
      expect((await client.request('/things/text')).status).toBe(500);
      expect(logger.errors.map((e) => e.message).join('\n')).toMatch(
        /has a documented schema but no JSON body/,
      );
    } finally {
      await client.close();
    }
  });

  test("'log': the response goes out unchanged and the mismatch is logged", async () => {
    const { app, logger } = responsesApp('log');
    const client = await httpTransport.connect(app);
    try {
      const bad = await client.request('/things/bad');
      expect(bad.status).toBe(200);
      expect(bad.json()).toEqual({ id: 'one' });
      expect(logger.errors.map((e) => e.message).join('\n')).toMatch(/GET \/things\/:id answered 200/);
    } finally {
      await client.close();
    }
  });
});

describe('the exported document', () => {
  test('lists the 400 on every validated operation, keeps a documented one, and still validates', async () => {
    const app = validationApp(withEngine());
    /**
     * @param {integer} n.query - A number
     * @response 200 Fine
     * @response 400 A documented 400 is kept
     */
    app.get('/documented', (_req, res) => res.json({})).validate();
    app.get('/unchecked', (_req, res) => res.json({})).validate(false);
    const document = OpenApiExporter.export(app);
    const ops = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(ops.length).toBeGreaterThan(40);
    // biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON, read by the assertions.
    const get = (path: string, method: string) => document.paths[path]?.[method] as Record<string, any>;
    const added = get('/query/integer/required', 'post').responses['400'];
    expect(added.content['application/json'].schema.required).toEqual(['error', 'code', 'details']);
    expect(get('/documented', 'get').responses['400']).toEqual({ description: 'A documented 400 is kept' });
    expect(get('/unchecked', 'get').responses['400']).toBeUndefined();
    expect(await new Validator().validate(document)).toMatchObject({ valid: true });
  });
});

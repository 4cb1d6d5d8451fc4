/**
 * The annotation language's JSON Schema keywords (string and number bounds, pattern, format, enum,
 * default, array bounds, example, deprecated), each enforced by validation and written to the 3.1 and
 * 3.0.3 documents, and `req.valid(part)`: the coerced values with their defaults applied. A table of good
 * and bad requests over app.fetch (the keywords live in the schemas ajv compiles, whatever the transport).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { exportWithDiagnostics } from '../../ts/src/openapi/index.js';
import { withEngine } from './support/engine.js';

/**
 * @api GET /articles
 * @param {integer minimum=1 maximum=100 default=20} limit.query.optional - Page size
 * @param {integer minimum=0 default=0} offset.query.optional - Items to skip
 * @param {string enum=["new","top"] default="new"} sort.query.optional - Order
 * @param {number exclusiveMinimum=0 multipleOf=0.5} weight.query.optional - Heavier than nothing
 * @param {array<string minLength=2> maxItems=3 uniqueItems=true} tag.query.optional - Up to three tags
 * @param {string pattern=^[a-z]{2}-[A-Z]{2}$} locale.header.optional - A locale such as en-GB
 * @response 200 {object} The page
 */

/**
 * @api POST /users
 * @param {string minLength=1 maxLength=20 example="ada"} username.body.required - Login name
 * @param {string format=email} email.body.required - Where to write
 * @param {string format=date-time} birth.body.optional - When
 * @param {string format=uuid} invite.body.optional - An invitation
 * @param {string format=uri} site.body.optional - A home page
 * @param {string format=password minLength=8} password.body.required - Secret
 * @param {?string deprecated=true} nickname.body.optional - Use username
 * @param {boolean default=false} admin.body.optional - Rights
 * @response 201 {object} Created
 */

function app(): Application {
  const application = new Application(withEngine({ validate: true, logger: memoryLogger() }));
  application.get('/articles', (req, res) => res.json(req.valid('query')));
  application.post('/users', (req, res) => res.status(201).json(req.valid('body')));
  return application;
}

const user = { username: 'ada', email: 'ada@example.com', password: 'correct horse' };
const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('keywords enforced', () => {
  test.each<[label: string, path: string, init: RequestInit, status: number, field?: string]>([
    ['defaults only', '/articles', {}, 200],
    ['limit at its maximum', '/articles?limit=100', {}, 200],
    ['limit below minimum', '/articles?limit=0', {}, 400, 'limit'],
    ['limit above maximum', '/articles?limit=101', {}, 400, 'limit'],
    ['an absurd offset', '/articles?offset=-1', {}, 400, 'offset'],
    ['sort out of its enum', '/articles?sort=old', {}, 400, 'sort'],
    ['weight at the exclusive bound', '/articles?weight=0', {}, 400, 'weight'],
    ['weight not a multiple of 0.5', '/articles?weight=0.7', {}, 400, 'weight'],
    ['weight fine', '/articles?weight=1.5', {}, 200],
    ['a tag too short', '/articles?tag=a', {}, 400, 'tag/0'],
    ['four tags', '/articles?tag=aa&tag=bb&tag=cc&tag=dd', {}, 400, 'tag'],
    ['a repeated tag', '/articles?tag=aa&tag=aa', {}, 400, 'tag'],
    [
      'a locale matching the pattern (braces inside the type)',
      '/articles',
      { headers: { locale: 'en-GB' } },
      200,
    ],
    ['a locale breaking it', '/articles', { headers: { locale: 'english' } }, 400, 'locale'],
    ['a good user', '/users', post(user), 201],
    ['an empty username', '/users', post({ ...user, username: '' }), 400, 'username'],
    ['a username too long', '/users', post({ ...user, username: 'x'.repeat(21) }), 400, 'username'],
    ['not an e-mail', '/users', post({ ...user, email: 'ada' }), 400, 'email'],
    ['a date-time', '/users', post({ ...user, birth: '1815-12-10T00:00:00Z' }), 201],
    ['not a date-time', '/users', post({ ...user, birth: '10 Dec 1815' }), 400, 'birth'],
    ['not a uuid', '/users', post({ ...user, invite: 'abc' }), 400, 'invite'],
    ['a uuid', '/users', post({ ...user, invite: '0b7a3c9e-8f1d-4c2e-9a6b-1d2e3f4a5b6c' }), 201],
    ['not a uri', '/users', post({ ...user, site: 'not a uri' }), 400, 'site'],
    [
      'a short password (format=password is annotation only)',
      '/users',
      post({ ...user, password: 'short' }),
      400,
      'password',
    ],
    ['null where nullable', '/users', post({ ...user, nickname: null }), 201],
  ])('%s', async (_label, path, init, status, field) => {
    const answer = await app().request(path, init);
    const body = await answer.json();
    expect(answer.status, JSON.stringify(body)).toBe(status);
    if (field !== undefined) expect(body.details.map((d: { name: string }) => d.name)).toContain(field);
  });

  test('every failing keyword is listed, not the first', async () => {
    const answer = await app().request('/articles?limit=0&offset=-1&sort=old');
    const names = (await answer.json()).details.map((d: { name: string }) => d.name).sort();
    expect(names).toEqual(['limit', 'offset', 'sort']);
  });
});

describe('req.valid(part)', () => {
  test('query values coerced to their types, defaults applied', async () => {
    const answer = await app().request('/articles?limit=5&weight=2.5&tag=aa');
    expect(await answer.json()).toEqual({ limit: 5, offset: 0, sort: 'new', weight: 2.5, tag: ['aa'] });
  });

  test('body defaults applied', async () => {
    const answer = await app().request('/users', post(user));
    expect(await answer.json()).toEqual({ ...user, admin: false });
  });

  test('a route without a contract for the part throws a clear error', async () => {
    const application = new Application(withEngine({ logger: memoryLogger() }));
    let message = '';
    application.get('/plain', (req, res) => {
      try {
        req.valid('query');
      } catch (error) {
        message = (error as Error).message;
      }
      return res.json({});
    });
    await application.request('/plain');
    expect(message).toMatch(/no contract for its query/);
  });
});

describe('keywords in the document', () => {
  test.each(['3.1.0', '3.0.3'] as const)('OpenAPI %s states them and is valid', async (version) => {
    const { document, diagnostics } = exportWithDiagnostics(app(), {
      openapi: version,
      sources: [new URL(import.meta.url).pathname],
    });
    expect(diagnostics.map((d) => d.message)).toEqual([]);
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const params = (
      document.paths['/articles'] as { get: { parameters: { name: string; schema: object }[] } }
    ).get.parameters;
    const schema = (name: string) => params.find((p) => p.name === name)?.schema;
    expect(schema('limit')).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(schema('locale')).toEqual({ type: 'string', pattern: '^[a-z]{2}-[A-Z]{2}$' });
    expect(schema('tag')).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 2 },
      maxItems: 3,
      uniqueItems: true,
    });
    expect(schema('weight')).toEqual(
      version === '3.1.0'
        ? { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 }
        : { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 },
    );
    const body = (
      document.paths['/users'] as {
        post: {
          requestBody: { content: Record<string, { schema: { properties: Record<string, object> } }> };
        };
      }
    ).post.requestBody.content['application/json']?.schema.properties;
    expect(body?.username).toMatchObject(
      version === '3.1.0' ? { examples: ['ada'], minLength: 1 } : { example: 'ada', minLength: 1 },
    );
    expect(body?.nickname).toMatchObject({ deprecated: true });
  });

  test('an unknown keyword or an ill-typed value is a diagnostic naming the tag', () => {
    const broken = new Application(withEngine({ logger: memoryLogger() }));
    broken.get('/broken', (_req, res) => res.json({}));
    const { diagnostics } = exportWithDiagnostics(broken, {
      sources: [new URL('./fixtures/keyword-mistakes.ts', import.meta.url).pathname],
    });
    const malformed = diagnostics.filter((d) => d.code === 'MALFORMED_PARAM');
    expect(malformed.map((d) => d.line)).toEqual([5, 6, 7]);
    expect(malformed[0]?.message).toMatch(/minimun=1/);
  });
});

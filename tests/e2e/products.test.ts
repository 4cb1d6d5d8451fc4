/** The products reference application, route by route, over both transports. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createProductsApp } from '../../ts/examples/products/app.js';
import { Catalog } from '../../ts/examples/products/catalog.js';
import { memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from '../app/support/engine.js';
import { type Client, type RequestOptions, transports } from '../app/support/transport.js';

const auth = { Authorization: 'Bearer demo-token', 'Content-Type': 'application/json' };
const valid = { name: 'USB-C cable', price: 9.99, categoryId: 1 };

describe.each(transports)('products API over $name (original 4.8)', (transport) => {
  let client: Client;
  beforeEach(async () => {
    client = await transport.connect(
      createProductsApp({ config: withEngine({ logger: memoryLogger() }), requestLog: memoryLogger() }),
    );
  });
  afterEach(() => client.close());
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
    client.request(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    } satisfies RequestOptions);

  describe('GET /api/products', () => {
    test('defaults page=1 limit=10 → 200 ProductList', async () => {
      const reply = await client.request('/api/products');
      expect(reply.status).toBe(200);
      const list = reply.json();
      expect(list).toMatchObject({ page: 1, limit: 10, total: 5 });
      expect(list.data).toHaveLength(5);
      expect(list.data[0]).toEqual({
        id: 1,
        name: expect.any(String),
        description: expect.any(String),
        price: expect.any(Number),
        categoryId: expect.any(Number),
        tags: expect.any(Array),
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        updatedAt: expect.any(String),
      });
    });

    test('pagination: page and limit', async () => {
      const list = (await client.request('/api/products?page=2&limit=2')).json();
      expect(list).toMatchObject({ page: 2, limit: 2, total: 5 });
      expect(list.data.map((p: { id: number }) => p.id)).toEqual([3, 4]);
      expect((await client.request('/api/products?page=9')).json().data).toEqual([]);
    });

    test.each([
      ['category by name', '?category=books', [3, 4]],
      ['category by id', '?category=1', [1, 2]],
      ['search in name and description', '?search=LED', [5]],
      ['both', '?category=electronics&search=keyboard', [1]],
    ])('filters: %s', async (_label, query, ids) => {
      const list = (await client.request(`/api/products${query}`)).json();
      expect(list.data.map((p: { id: number }) => p.id)).toEqual(ids);
      expect(list.total).toBe(ids.length);
    });

    test.each(['page=0', 'page=x', 'limit=0', 'limit=101', 'limit=-1'])(
      'bad %s → 400 Error',
      async (query) => {
        const reply = await client.request(`/api/products?${query}`);
        expect(reply.status).toBe(400);
        expect(reply.json()).toEqual({ error: expect.any(String), code: 400 });
      },
    );
  });

  describe('POST /api/products (bearerAuth)', () => {
    test('→ 201 Product', async () => {
      const reply = await send('POST', '/api/products', {
        ...valid,
        description: 'braided',
        tags: ['cable'],
      });
      expect(reply.status).toBe(201);
      expect(reply.json()).toMatchObject({ id: 6, ...valid, description: 'braided', tags: ['cable'] });
      expect(reply.headers.get('location')).toBe('/api/products/6');
      expect((await client.request('/api/products/6')).json().name).toBe('USB-C cable');
    });

    test.each([
      [{}, ['name', 'price', 'categoryId']],
      [{ name: 'x' }, ['price', 'categoryId']],
      [{ price: 1, categoryId: 1 }, ['name']],
    ])('missing fields %j → 400 ValidationError naming them', async (body, missing) => {
      const reply = await send('POST', '/api/products', body);
      expect(reply.status).toBe(400);
      expect(reply.json().error).toBe(`Missing required fields: ${missing.join(', ')}`);
      expect(reply.json().fields).toEqual(missing);
    });

    test.each([
      ['price 0', { ...valid, price: 0 }, 'price'],
      ['negative price', { ...valid, price: -5 }, 'price'],
      ['price as text', { ...valid, price: '9.99' }, 'price'],
      ['categoryId not an integer', { ...valid, categoryId: 1.5 }, 'categoryId'],
      ['tags not strings', { ...valid, tags: [1] }, 'tags'],
    ])('%s → 400', async (_label, body, field) => {
      const reply = await send('POST', '/api/products', body);
      expect(reply.status).toBe(400);
      expect(reply.json().fields).toEqual([field]);
    });

    // RFC 6750 §3.1: no credentials → a bare challenge; a wrong token → error="invalid_token".
    test.each([
      [
        'no Authorization',
        { 'Content-Type': 'application/json' },
        'Missing bearer token',
        'Bearer realm="products"',
      ],
      [
        'a wrong token',
        { ...auth, Authorization: 'Bearer nope' },
        'Invalid bearer token',
        'Bearer realm="products", error="invalid_token"',
      ],
      [
        'another scheme',
        { ...auth, Authorization: 'Basic ZGVtbzp0b2tlbg==' },
        'Missing bearer token',
        'Bearer realm="products"',
      ],
    ])('%s → 401 AuthError', async (_label, headers, error, challenge) => {
      const reply = await send('POST', '/api/products', valid, headers);
      expect(reply.status).toBe(401);
      expect(reply.json()).toEqual({ error, code: 401 });
      expect(reply.headers.get('www-authenticate')).toBe(challenge);
    });

    // Issue 16: the body is read only after auth lets the request through.
    test.each([
      ['malformed JSON', '{bad'],
      ['a 2 MiB body (limit 1 MiB)', 'x'.repeat(2 * 1024 * 1024)],
    ])('no token and %s → 401, not 400/413', async (_label, body) => {
      const reply = await client.request('/api/products', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      expect(reply.status).toBe(401);
      expect(reply.json()).toEqual({ error: 'Missing bearer token', code: 401 });
    });
  });

  describe('PUT /api/products/:id (bearerAuth)', () => {
    test('→ 200 Product with the changes', async () => {
      const reply = await send('PUT', '/api/products/2', { price: 149, name: 'Headphones' });
      expect(reply.status).toBe(200);
      expect(reply.json()).toMatchObject({ id: 2, price: 149, name: 'Headphones', categoryId: 1 });
    });
    test('unknown id → 404 Error', async () => {
      expect((await send('PUT', '/api/products/99', { price: 1 })).json()).toEqual({
        error: 'Product not found',
        code: 404,
      });
    });
    test('id not an integer → 404 (the route constraint does not match)', async () => {
      expect((await send('PUT', '/api/products/abc', { price: 1 })).status).toBe(404);
    });
    test('invalid value → 400', async () => {
      expect((await send('PUT', '/api/products/2', { price: 0 })).status).toBe(400);
    });
    test('no token → 401 AuthError (checked before the id)', async () => {
      expect(
        (await send('PUT', '/api/products/99', { price: 1 }, { 'Content-Type': 'application/json' })).status,
      ).toBe(401);
    });
  });

  describe('DELETE /api/products/:id (bearerAuth)', () => {
    test('→ 204 empty, then 404', async () => {
      const reply = await send('DELETE', '/api/products/3');
      expect([reply.status, reply.text]).toEqual([204, '']);
      expect((await send('DELETE', '/api/products/3')).status).toBe(404);
      expect((await client.request('/api/products/3')).status).toBe(404);
    });
    test('no token → 401', async () => {
      expect((await send('DELETE', '/api/products/3', undefined, {})).status).toBe(401);
    });
  });

  describe('versioned users', () => {
    test('GET /api/v1/users (deprecated) → 200 with a Deprecation header', async () => {
      const reply = await client.request('/api/v1/users');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('deprecation')).toBe('true');
      expect(reply.json()).toEqual([
        { id: 1, name: 'Ada Lovelace' },
        { id: 2, name: 'Alan Turing' },
      ]);
    });
    test('GET /api/v2/users → 200 with e-mail', async () => {
      const reply = await client.request('/api/v2/users');
      expect(reply.headers.get('deprecation')).toBeNull();
      expect(reply.json()[0]).toEqual({ id: 1, name: 'Ada Lovelace', email: 'ada@example.com' });
    });
  });
});

describe('products API configuration', () => {
  test('the token comes from API_TOKEN', async () => {
    vi.stubEnv('API_TOKEN', 'secret-123');
    try {
      const app = createProductsApp({
        config: withEngine(),
        requestLog: memoryLogger(),
        catalog: new Catalog({ seed: false }),
      });
      const post = (token: string) =>
        app.fetch(
          new Request('http://t/api/products', {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(valid),
          }),
        );
      expect((await post('demo-token')).status).toBe(401);
      expect((await post('secret-123')).status).toBe(201);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

/**
 * The reference applications' error answers, one case per test (documented errors, registration mistakes,
 * the documents' error schemas), plus the unmatched cases the framework decides (docs/framework/errors.md).
 */
import { describe, expect, test } from 'vitest';
import { createProductsApp } from '../../ts/examples/products/app.js';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { exportWithDiagnostics } from '../../ts/src/openapi/index.js';
import { withEngine } from '../app/support/engine.js';
import { type Client, transports } from '../app/support/transport.js';

const quiet = () => ({ config: withEngine({ logger: memoryLogger() }), requestLog: memoryLogger() });

describe.each(transports)('error answers over $name', (transport) => {
  const withClient = async (app: Application, run: (client: Client) => Promise<void>) => {
    const client = await transport.connect(app);
    try {
      await run(client);
    } finally {
      await client.close();
    }
  };

  test('task or product not found → 404 { error: string }', async () => {
    await withClient(createTasksApp(quiet()), async (c) => {
      const reply = await c.request('/tasks/none');
      expect(reply.status).toBe(404);
      expect(typeof reply.json().error).toBe('string');
    });
    await withClient(createProductsApp(quiet()), async (c) => {
      const reply = await c.request('/api/products/404');
      expect(reply.status).toBe(404);
      expect(typeof reply.json().error).toBe('string');
    });
  });

  test('required field missing in a create request → 400 { error } naming the fields', async () => {
    await withClient(createTasksApp(quiet()), async (c) => {
      const reply = await c.request('/tasks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(reply.status).toBe(400);
      expect(reply.json().error).toContain('title');
    });
    await withClient(createProductsApp(quiet()), async (c) => {
      const reply = await c.request('/api/products', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer demo-token' },
        body: '{"description":"x"}',
      });
      expect(reply.status).toBe(400);
      expect(reply.json().error).toBe('Missing required fields: name, price, categoryId');
    });
  });

  test('missing or invalid credentials on a protected product route → 401 AuthError', async () => {
    await withClient(createProductsApp(quiet()), async (c) => {
      for (const headers of [{}, { Authorization: 'Bearer wrong' }]) {
        const reply = await c.request('/api/products/1', { method: 'DELETE', headers });
        expect(reply.status).toBe(401);
        expect(reply.json()).toEqual({ error: expect.any(String), code: 401 });
      }
    });
  });

  test('fallback defined and no route matches → the fallback chooses (404 { error })', async () => {
    const app = new Application(withEngine());
    app.get('/known', (_req, res) => res.send());
    app.fallback((req, res) => res.status(404).json({ error: `Route ${req.getUri().getPath()} not found` }));
    await withClient(app, async (c) => {
      const reply = await c.request('/unknown/path');
      expect(reply.status).toBe(404);
      expect(reply.json()).toEqual({ error: 'Route /unknown/path not found' });
    });
  });

  test('decided by the framework: unmatched without fallback → 404 { error, code }; constraint miss → 404', async () => {
    const app = new Application(withEngine());
    app.get('/items/:id<int>', (_req, res) => res.send());
    await withClient(app, async (c) => {
      expect((await c.request('/nothing')).json()).toEqual({ error: 'No route for GET /nothing', code: 404 });
      expect((await c.request('/items/abc')).status).toBe(404);
    });
  });
});

describe('error cases at registration and in the documents', () => {
  test("array callable written as 'Class@method' → TypeError at registration", () => {
    const app = new Application(withEngine());
    expect(() => app.get('/posts', 'PostController@index' as never)).toThrow(TypeError);
  });

  test('the recommended ApiError body is documented as a schema with its four fields', () => {
    // Read from the exported document (what clients see), not from the source comments.
    const { document } = exportWithDiagnostics(createProductsApp(quiet()));
    const components = document.components as
      | { schemas?: Record<string, { type?: string; properties?: Record<string, { type?: string }> }> }
      | undefined;
    const schema = components?.schemas?.ApiError;
    expect(schema?.type).toBe('object');
    for (const field of ['error', 'code', 'timestamp', 'path'])
      expect(schema?.properties?.[field], field).toMatchObject({ type: 'string' });
  });
});

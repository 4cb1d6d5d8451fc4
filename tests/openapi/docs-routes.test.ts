/** mountDocs on the real Application: the four documented routes, the UI assets, the document's content. */
import { describe, expect, it, vi } from 'vitest';
import { swaggerUiVersion } from '../../ts/src/openapi/index.js';
import { createMiniProductsApp } from './fixtures/mini-products.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

const app = createMiniProductsApp();
const get = async (path: string) => {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`));
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    csp: res.headers.get('content-security-policy'),
    body: await res.text(),
  };
};

describe('mountDocs', () => {
  it('GET /api/docs.json and GET /api/docs serve the same document', async () => {
    const json = await get('/api/docs.json');
    const alias = await get('/api/docs');
    expect(json.status).toBe(200);
    expect(json.type).toMatch(/^application\/json/);
    expect(alias.body).toBe(json.body);
    const doc = JSON.parse(json.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(['/api/products', '/api/products/{id}', '/files/{wildcard}']);
    expect(doc.paths['/api/products'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('the docs routes are in the route table, named arbor.docs.*, and not in the document', () => {
    const names = app.routeTable().flatMap((r) => (r.name?.startsWith('arbor.docs.') ? [r.pattern] : []));
    expect(names).toEqual([
      '/docs',
      '/api/docs.json',
      '/api/docs',
      '/api/docs/ui',
      '/api/docs/ui/swagger-initializer.js',
      '/api/docs/ui/swagger-ui.css',
      '/api/docs/ui/swagger-ui-bundle.js',
    ]);
  });

  it('GET /docs is the static page under a no-request CSP', async () => {
    const page = await get('/docs');
    expect(page.type).toMatch(/^text\/html/);
    expect(page.csp).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(page.body).toContain('Products API &lt;mini&gt;');
    expect(page.body).not.toMatch(/<script|<link[^>]+stylesheet|src=/i);
  });

  it('GET /api/docs/ui loads Swagger UI from local files and the JSON route by its path', async () => {
    for (const path of ['/api/docs/ui', '/api/docs/ui/']) {
      const ui = await get(path);
      expect(ui.status).toBe(200);
      expect(ui.body).toContain('<script src="/api/docs/ui/swagger-ui-bundle.js"></script>');
      expect(ui.body).not.toMatch(/https?:\/\//);
      expect(ui.csp).toContain("connect-src 'self'");
    }
    const init = await get('/api/docs/ui/swagger-initializer.js');
    expect(init.type).toMatch(/^text\/javascript/);
    expect(init.body).toContain('"url":"/api/docs.json"');
    expect(init.body).toContain('"validatorUrl":null');
    expect(() => new Function(init.body)).not.toThrow(); // it parses
    const bundle = await get('/api/docs/ui/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(500_000);
    expect(bundle.body).not.toContain('sourceMappingURL');
    expect((await get('/api/docs/ui/swagger-ui.css')).type).toMatch(/^text\/css/);
    expect(swaggerUiVersion()).toBe('5.35.0');
  });
});

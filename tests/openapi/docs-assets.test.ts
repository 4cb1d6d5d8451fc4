/**
 * The Swagger UI files over real HTTP (node:http on loopback, raw bytes through node:http's client, which
 * never decompresses): ETag and If-None-Match → 304, Cache-Control, Vary, brotli and gzip when accepted,
 * the plain file otherwise; and the Accept-Encoding / If-None-Match rules as a table.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArborServer } from '../../ts/src/app/index.js';
import { chooseCoding, ifNoneMatchHits, StaticAsset } from '../../ts/src/openapi/static-asset.js';
import { uiAsset } from '../../ts/src/openapi/swagger-ui.js';
import { createMiniProductsApp } from './fixtures/mini-products.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: ArborServer;
let port = 0;

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  server = createMiniProductsApp().createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.closeGracefully(1000));

const BUNDLE = '/api/docs/ui/swagger-ui-bundle.js';

describe('Swagger UI files over HTTP', () => {
  it('without Accept-Encoding: the plain file with an ETag, Cache-Control and Vary', async () => {
    const reply = await get(BUNDLE);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(reply.headers['cache-control']).toBe('public, max-age=3600');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(reply.body.toString('utf8')).toBe(uiAsset('swagger-ui-bundle.js'));
    expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
  });

  it.each([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync],
  ] as const)(
    '%s when accepted: a quarter of the size, the same text once decoded',
    async (coding, accept, decode) => {
      const reply = await get(BUNDLE, { 'accept-encoding': accept });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBe(coding);
      expect(reply.headers.etag).toMatch(new RegExp(`^"[\\w-]{27}-${coding}"$`));
      expect(reply.body.length).toBeLessThan(uiAsset('swagger-ui-bundle.js').length / 3);
      expect(decode(reply.body).toString('utf8')).toBe(uiAsset('swagger-ui-bundle.js'));
    },
  );

  it('If-None-Match with the current tag: 304 without a body, validators kept', async () => {
    for (const accept of [undefined, 'br', 'gzip']) {
      const headers: Record<string, string> = accept === undefined ? {} : { 'accept-encoding': accept };
      const first = await get(BUNDLE, headers);
      const again = await get(BUNDLE, { ...headers, 'if-none-match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('public, max-age=3600');
    }
  });

  it("another representation's tag is not a match (a gzip copy is not the brotli one)", async () => {
    const gzipped = await get(BUNDLE, { 'accept-encoding': 'gzip' });
    const reply = await get(BUNDLE, {
      'accept-encoding': 'br',
      'if-none-match': String(gzipped.headers.etag),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
  });

  it('HEAD: the headers of the GET, no body', async () => {
    const reply = await get(BUNDLE, { 'accept-encoding': 'br' }, 'HEAD');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(100_000);
    expect(reply.body.length).toBe(0);
  });

  it('the stylesheet and the initializer are served the same way', async () => {
    for (const path of ['/api/docs/ui/swagger-ui.css', '/api/docs/ui/swagger-initializer.js']) {
      const reply = await get(path, { 'accept-encoding': 'gzip' });
      expect(reply.status).toBe(200);
      expect(reply.headers.etag).toBeDefined();
      const again = await get(path, {
        'accept-encoding': 'gzip',
        'if-none-match': String(reply.headers.etag),
      });
      expect(again.status).toBe(304);
    }
  });
});

describe('content negotiation rules', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP;q=0.8, BR;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['*, br;q=0', 'gzip'],
    ['deflate, identity', 'identity'],
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abc-br"', false],
    ['"ab"', false],
  ])('If-None-Match %j against "abc" → %s', (header, expected) => {
    expect(ifNoneMatchHits(header, '"abc"')).toBe(expected);
  });

  it('a small file is never compressed', async () => {
    const headers = new Map<string, string>();
    const res = {
      status: () => res,
      header: (name: string, value: string) => {
        headers.set(name.toLowerCase(), value);
        return res;
      },
      send: () => res,
    };
    await new StaticAsset('tiny', 'text/plain').respond({ header: () => 'br' }, res);
    expect(headers.has('content-encoding')).toBe(false);
  });
});

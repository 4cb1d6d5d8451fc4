/**
 * serveStatic(root, { preCompressed: true }): the coding chosen from Accept-Encoding as a table (q-values,
 * br before zstd before gzip, refusals, files with only some variants), the variant's bytes decoding to
 * the uncompressed file, its Content-Type and Content-Encoding, Vary on every file answer, an ETag per coding, and
 * conditional GET, If-Range and Range on a variant; a directory's index; compress() leaving a variant
 * alone. Over real HTTP (node:http or Arbor's server, by project: requests on node:http, which does not
 * decode) and app.fetch() (whose Response is read as bytes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { compress } from '../../ts/src/middleware/compress.js';
import { type ServeStaticOptions, serveStatic } from '../../ts/src/middleware/serve-static.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const HAS_ZSTD = typeof zlib.zstdCompressSync === 'function';
const SCRIPT = Buffer.from('console.log("hello, precompressed world");\n'.repeat(50));
const STYLE = Buffer.from('body { color: #333; }\n'.repeat(40));
const PAGE = Buffer.from(`<!doctype html><title>docs</title>${'<p>text</p>'.repeat(40)}`);

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-precompressed-'));
  writeFileSync(join(root, 'app.js'), SCRIPT);
  writeFileSync(join(root, 'app.js.br'), zlib.brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'app.js.gz'), zlib.gzipSync(SCRIPT));
  if (HAS_ZSTD) writeFileSync(join(root, 'app.js.zst'), zlib.zstdCompressSync(SCRIPT));
  writeFileSync(join(root, 'style.css'), STYLE);
  writeFileSync(join(root, 'style.css.gz'), zlib.gzipSync(STYLE));
  writeFileSync(join(root, 'plain.txt'), 'no variants here');
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'index.html'), PAGE);
  writeFileSync(join(root, 'docs', 'index.html.br'), zlib.brotliCompressSync(PAGE));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Got {
  status: number;
  header(name: string): string | undefined;
  /** The body as sent, still encoded. */
  body: Buffer;
}

type Get = (path: string, headers?: Record<string, string>, method?: string) => Promise<Got>;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An application serving `root` with `options` (and `setup`'s middleware first), reached over `transport`. */
async function serve(
  transport: 'http' | 'fetch',
  options: ServeStaticOptions = { preCompressed: true },
  setup?: (app: Application) => void,
): Promise<Get> {
  const app = new Application(withEngine());
  setup?.(app);
  app.middleware(serveStatic(root, options));
  if (transport === 'fetch') {
    return async (path, headers = {}, method = 'GET') => {
      const response = await app.fetch(new Request(`http://arbor.test${path}`, { method, headers }));
      return {
        status: response.status,
        header: (name) => response.headers.get(name) ?? undefined,
        body: Buffer.from(await response.arrayBuffer()),
      };
    };
  }
  const { server, port } = await listen(app);
  closers.push(() => server.closeGracefully(200));
  return (path, headers = {}, method = 'GET') =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const value = (name: string) => {
            const v = res.headers[name];
            return Array.isArray(v) ? v.join(', ') : v;
          };
          resolve({ status: res.statusCode ?? 0, header: value, body: Buffer.concat(chunks) });
        });
      });
      req.on('error', reject);
      req.end();
    });
}

function decoded(coding: string | undefined, body: Buffer): Buffer {
  if (coding === 'br') return zlib.brotliDecompressSync(body);
  if (coding === 'gzip') return zlib.gunzipSync(body);
  if (coding === 'zstd') return zlib.zstdDecompressSync(body);
  return body;
}

// [path, Accept-Encoding (undefined: none), the coding served (undefined: the uncompressed file)]
const CHOICES: [string, string | undefined, string | undefined][] = [
  ['/app.js', 'gzip, deflate, br, zstd', 'br'],
  ['/app.js', 'br;q=0.5, gzip', 'gzip'],
  ['/app.js', 'gzip;q=0.8, zstd', HAS_ZSTD ? 'zstd' : 'gzip'],
  ['/app.js', 'zstd, gzip', HAS_ZSTD ? 'zstd' : 'gzip'],
  ['/app.js', 'gzip', 'gzip'],
  ['/app.js', 'GZIP', 'gzip'],
  ['/app.js', '*', 'br'],
  ['/app.js', 'br;q=0, *', HAS_ZSTD ? 'zstd' : 'gzip'],
  ['/app.js', 'br;q=0, gzip;q=0, zstd;q=0', undefined],
  ['/app.js', 'identity', undefined],
  ['/app.js', 'deflate', undefined],
  ['/app.js', undefined, undefined],
  ['/style.css', 'br, gzip', 'gzip'],
  ['/style.css', 'br', undefined],
  ['/plain.txt', 'br, gzip, zstd', undefined],
  ['/docs/', 'br', 'br'],
  ['/docs/', 'gzip', undefined],
];

const ORIGINAL: Record<string, Buffer> = {};

describe.each(['http', 'fetch'] as const)('precompressed files over %s', (transport) => {
  beforeAll(() => {
    ORIGINAL['/app.js'] = SCRIPT;
    ORIGINAL['/style.css'] = STYLE;
    ORIGINAL['/plain.txt'] = Buffer.from('no variants here');
    ORIGINAL['/docs/'] = PAGE;
  });

  test.each(CHOICES)('%s with Accept-Encoding %s: %s', async (path, accept, coding) => {
    const get = await serve(transport);
    const reply = await get(path, accept === undefined ? {} : { 'accept-encoding': accept });
    expect(reply.status).toBe(200);
    expect(reply.header('content-encoding')).toBe(coding);
    expect(reply.header('vary')).toBe('Accept-Encoding');
    expect(decoded(coding, reply.body).equals(ORIGINAL[path] as Buffer)).toBe(true);
    expect(Number(reply.header('content-length'))).toBe(reply.body.length);
    const type = {
      '/app.js': 'application/javascript; charset=utf-8',
      '/style.css': 'text/css; charset=utf-8',
      '/plain.txt': 'text/plain; charset=utf-8',
      '/docs/': 'text/html; charset=utf-8',
    }[path];
    expect(reply.header('content-type')).toBe(type);
  });

  test('each coding has its own ETag, and a conditional GET is answered per coding', async () => {
    const get = await serve(transport);
    const tags: Record<string, string> = {};
    for (const coding of ['br', 'gzip', 'identity']) {
      const reply = await get('/app.js', { 'accept-encoding': coding });
      tags[coding] = reply.header('etag') as string;
    }
    expect(tags.br).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+-br"$/);
    expect(tags.gzip).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+-gzip"$/);
    expect(tags.identity).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Set(Object.values(tags)).size).toBe(3);

    const notModified = await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': tags.br as string });
    expect([notModified.status, notModified.body.length, notModified.header('etag')]).toEqual([
      304,
      0,
      tags.br,
    ]);
    // The br tag does not stand for the gzip bytes, nor the uncompressed file's tag for the br bytes.
    const otherCoding = await get('/app.js', {
      'accept-encoding': 'gzip',
      'if-none-match': tags.br as string,
    });
    expect([otherCoding.status, otherCoding.header('content-encoding')]).toEqual([200, 'gzip']);
    const original = await get('/app.js', {
      'accept-encoding': 'br',
      'if-none-match': tags.identity as string,
    });
    expect([original.status, original.header('content-encoding')]).toEqual([200, 'br']);
    const listed = await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': `"x", ${tags.br}` });
    expect(listed.status).toBe(304);
    const identity = await get('/app.js', { 'if-none-match': tags.identity as string });
    expect(identity.status).toBe(304);
    // If-Match: the br tag lets a br answer through, another coding's is a 412.
    expect((await get('/app.js', { 'accept-encoding': 'br', 'if-match': tags.br as string })).status).toBe(
      200,
    );
    expect((await get('/app.js', { 'accept-encoding': 'br', 'if-match': tags.gzip as string })).status).toBe(
      412,
    );
  });

  test('Range selects bytes of the variant; If-Range with another coding’s tag sends it whole', async () => {
    const get = await serve(transport);
    const compressed = zlib.brotliCompressSync(SCRIPT);
    const part = await get('/app.js', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.header('content-encoding')).toBe('br');
    expect(part.header('content-range')).toBe(`bytes 0-9/${compressed.length}`);
    expect(part.body.equals(compressed.subarray(0, 10))).toBe(true);
    const tag = (await get('/app.js', { 'accept-encoding': 'br' })).header('etag') as string;
    const sameTag = await get('/app.js', { 'accept-encoding': 'br', range: 'bytes=0-9', 'if-range': tag });
    expect(sameTag.status).toBe(206);
    const gzipTag = (await get('/app.js', { 'accept-encoding': 'gzip' })).header('etag') as string;
    const otherTag = await get('/app.js', {
      'accept-encoding': 'br',
      range: 'bytes=0-9',
      'if-range': gzipTag,
    });
    expect([otherTag.status, otherTag.body.length]).toEqual([200, compressed.length]);
  });

  test('HEAD answers the variant’s headers without a body', async () => {
    const get = await serve(transport);
    const head = await get('/app.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect([head.status, head.header('content-encoding'), head.body.length]).toEqual([200, 'gzip', 0]);
    expect(Number(head.header('content-length'))).toBe(zlib.gzipSync(SCRIPT).length);
  });

  test('without preCompressed the variants are not looked for, and no Vary is added', async () => {
    const get = await serve(transport, {});
    const reply = await get('/app.js', { 'accept-encoding': 'br' });
    expect([reply.header('content-encoding'), reply.header('vary')]).toEqual([undefined, undefined]);
    expect(reply.body.equals(SCRIPT)).toBe(true);
  });

  test('a list of codings limits and orders them', async () => {
    const get = await serve(transport, { preCompressed: ['gzip', 'br'] });
    expect((await get('/app.js', { 'accept-encoding': 'br, gzip' })).header('content-encoding')).toBe('gzip');
    expect((await get('/app.js', { 'accept-encoding': 'zstd' })).header('content-encoding')).toBeUndefined();
  });

  test('compress() in front leaves a variant as it is, and setHeaders sees the final headers', async () => {
    const seen: string[] = [];
    const get = await serve(
      transport,
      { preCompressed: true, setHeaders: (res) => seen.push(res.getHeader('content-encoding') ?? 'none') },
      (app) => app.middleware(compress({ threshold: 0 })),
    );
    const reply = await get('/app.js', { 'accept-encoding': 'br' });
    expect(reply.header('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(reply.body).equals(SCRIPT)).toBe(true);
    expect(seen).toEqual(['br']);
  });
});

test('serveStatic refuses a coding it does not serve precompressed, at start-up', () => {
  expect(() => serveStatic(root ?? '.', { preCompressed: ['deflate' as never] })).toThrow(
    /preCompressed codings/,
  );
});

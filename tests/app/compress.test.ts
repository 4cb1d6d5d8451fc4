/**
 * compress() (issue 39) on real HTTP — node:http in the `arbor` project, Arbor's own server in
 * `arbor-server` — and through app.fetch(). Requests go out on node:http with their own
 * `Accept-Encoding` and read the bytes as sent (fetch would decode them), and node's zlib decodes them.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type ApplicationConfig, memoryLogger } from '../../ts/src/app/index.js';
// From the module rather than the index, which others are editing too (its export line is added there).
import { type CompressEncoding, type CompressOptions, compress } from '../../ts/src/middleware/compress.js';
import { withEngine } from './support/engine.js';
import { rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

const HAS_ZSTD = typeof zlib.createZstdCompress === 'function';

const servers: { closeGracefully(ms: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.closeGracefully(200)));
});

/** An application with `compress(options)` and the routes `setup` adds, listening on a free port. */
async function serve(
  setup: (app: Application) => void,
  options?: CompressOptions,
  config?: ApplicationConfig,
): Promise<number> {
  const app = new Application(withEngine(config));
  app.middleware(compress(options));
  setup(app);
  const { server, port } = await listen(app);
  servers.push(server);
  return port;
}

interface Got {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent, still encoded. */
  body: Buffer;
}

/** One request on a new connection; rejects when the response is cut short. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** `body` decoded as `encoding` says, by node's zlib. */
function decode(body: Buffer, encoding: string | undefined): string {
  const z = zlib as unknown as Record<string, (b: Buffer) => Buffer>;
  const decoders: Record<string, string> = {
    br: 'brotliDecompressSync',
    gzip: 'gunzipSync',
    deflate: 'inflateSync',
    zstd: 'zstdDecompressSync',
  };
  if (encoding === undefined) return body.toString();
  const decoder = z[decoders[encoding] ?? ''];
  if (decoder === undefined) throw new Error(`no decoder for ${encoding}`);
  return decoder(body).toString();
}

/** `lines` lines of text: compresses well, as JSON and HTML do. */
const text = (lines: number) =>
  Array.from({ length: lines }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`).join(
    '',
  );
const SMALL = text(40); // ~2.3 kB: over the threshold, compressed on the event loop
const LARGE = text(4000); // ~230 kB: compressed on zlib's thread pool
const TINY = 'hello, world'; // under the threshold

const ENCODINGS: CompressEncoding[] = ['br', 'gzip', 'deflate', 'zstd'];

describe.each(ENCODINGS)('%s', (encoding) => {
  const unavailable = encoding === 'zstd' && !HAS_ZSTD;
  const why = unavailable ? ' (skipped: this Node has no zlib.createZstdCompress)' : '';

  test.skipIf(unavailable)(`whole bodies, small and large, decode to what was sent${why}`, async () => {
    const port = await serve((app) => {
      app.get('/small', (_q, res) => res.send(SMALL));
      app.get('/large', (_q, res) => res.send(LARGE));
      app.get('/json', (_q, res) => res.json({ items: SMALL.split('\n') }));
    });
    for (const [path, sent] of [
      ['/small', SMALL],
      ['/large', LARGE],
      ['/json', JSON.stringify({ items: SMALL.split('\n') })],
    ] as const) {
      const got = await get(port, path, { 'accept-encoding': encoding });
      expect(got.headers['content-encoding']).toBe(encoding);
      expect(got.headers.vary).toBe('Accept-Encoding');
      // The kernel frames a whole body by its compressed length.
      expect(got.headers['content-length']).toBe(String(got.body.length));
      expect(got.body.length).toBeLessThan(Buffer.byteLength(sent) / 2);
      expect(decode(got.body, encoding)).toBe(sent);
    }
  });

  test.skipIf(unavailable)(`a streamed body of 1,000 chunks is compressed as a stream${why}`, async () => {
    const chunks = Array.from({ length: 1000 }, (_, i) => `chunk ${i} of a streamed body\n`);
    const port = await serve((app) =>
      app.get('/stream', (_q, res) =>
        res.header('Content-Type', 'text/plain').send(
          (async function* () {
            for (const chunk of chunks) yield chunk;
          })(),
        ),
      ),
    );
    const got = await get(port, '/stream', { 'accept-encoding': encoding });
    expect(got.headers['content-encoding']).toBe(encoding);
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(got.headers['content-length']).toBeUndefined();
    expect(decode(got.body, encoding)).toBe(chunks.join(''));
  });

  test.skipIf(unavailable)(`through app.fetch(): whole and streamed${why}`, async () => {
    const app = new Application(withEngine());
    app.middleware(compress());
    app.get('/whole', (_q, res) => res.send(SMALL));
    app.get('/stream', (_q, res) =>
      res.header('Content-Type', 'text/plain').send(
        (async function* () {
          yield SMALL;
          yield LARGE;
        })(),
      ),
    );
    for (const [path, sent] of [
      ['/whole', SMALL],
      ['/stream', SMALL + LARGE],
    ] as const) {
      const response = await app.fetch(
        new Request(`http://arbor.test${path}`, { headers: { 'accept-encoding': encoding } }),
      );
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(decode(Buffer.from(await response.arrayBuffer()), encoding)).toBe(sent);
    }
  });
});

describe('negotiation', () => {
  const br = 'br';
  const zstdOrGzip = HAS_ZSTD ? 'zstd' : 'gzip';
  // [Accept-Encoding (undefined: none sent), the coding expected (undefined: none)]
  const TABLE: [string | undefined, string | undefined][] = [
    [undefined, undefined], // no header: no coding
    ['', undefined], // an empty header: identity only (RFC 9110 §12.5.3)
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['br', 'br'],
    ['GZIP', 'gzip'], // codings are case-insensitive
    ['gzip, deflate', 'gzip'], // the server's preference among equals
    ['deflate, gzip', 'gzip'], // the client's order says nothing
    ['gzip, deflate, br', br],
    ['gzip, deflate, br, zstd', br],
    ['gzip;q=1, br;q=0.5', 'gzip'], // the client's q-values first
    ['br;q=0.1, deflate;q=0.2', 'deflate'],
    ['gzip;q=0.5, identity', undefined], // identity rated higher
    ['*', br], // any coding: the server's first
    ['br;q=0, *', zstdOrGzip], // any but brotli
    ['*;q=0', undefined], // nothing acceptable, identity included: sent as is anyway
    ['identity', undefined],
    ['identity;q=0, gzip', 'gzip'],
    ['identity;q=0, compress', undefined], // nothing offered is accepted: sent as is
    ['gzip;q=0', undefined],
    ['compress, x-unknown', undefined],
    ['gzip;q=0.001', 'gzip'],
  ];

  test.each(TABLE)('Accept-Encoding %j → %s', async (accept, expected) => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(SMALL)));
    const got = await get(port, '/', accept === undefined ? {} : { 'accept-encoding': accept });
    expect(got.headers['content-encoding']).toBe(expected);
    expect(got.headers.vary).toBe('Accept-Encoding');
    expect(decode(got.body, expected)).toBe(SMALL);
  });

  test('encodings: the offer and the server preference are configurable', async () => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(SMALL)), {
      encodings: ['deflate', 'gzip'],
    });
    for (const [accept, expected] of [
      ['gzip, deflate', 'deflate'],
      ['gzip, deflate;q=0.9', 'gzip'],
      ['br', undefined],
    ] as const) {
      const got = await get(port, '/', { 'accept-encoding': accept });
      expect(got.headers['content-encoding'], accept).toBe(expected);
    }
  });
});

describe('left as it is', () => {
  const gzip = { 'accept-encoding': 'gzip' };
  const png = Buffer.alloc(4096, 7);

  // [what, the route's handler, the request method, Vary expected]
  const SKIPS: [string, Parameters<Application['get']>[1], string, boolean][] = [
    ['a body under the threshold', (_q, res) => res.send(TINY), 'GET', true],
    ['an image', (_q, res) => res.header('Content-Type', 'image/png').send(png), 'GET', false],
    ['a zip archive', (_q, res) => res.header('Content-Type', 'application/zip').send(SMALL), 'GET', false],
    [
      'a type mime-db does not know',
      (_q, res) => res.header('Content-Type', 'x/y').send(SMALL),
      'GET',
      false,
    ],
    ['no Content-Type', (_q, res) => res.send(SMALL).removeHeader('Content-Type'), 'GET', false],
    [
      'Cache-Control: no-transform',
      (_q, res) => res.header('Cache-Control', 'public, no-transform').send(SMALL),
      'GET',
      false,
    ],
    ['a HEAD request', (_q, res) => res.send(SMALL), 'HEAD', true],
    ['a 204', (_q, res) => res.status(204).header('Content-Type', 'text/plain').send(), 'GET', false],
    [
      'a 206 (a range of the uncompressed bytes)',
      (_q, res) =>
        res.status(206).header('Content-Range', `bytes 0-2047/${SMALL.length}`).send(SMALL.slice(0, 2048)),
      'GET',
      true,
    ],
    [
      'Server-Sent Events',
      (_q, res) => res.header('Content-Type', 'text/event-stream').send(`data: ${SMALL}\n\n`),
      'GET',
      false,
    ],
  ];

  test.each(SKIPS)('%s', async (_what, handler, method, vary) => {
    const port = await serve((app) => app.get('/', handler));
    const got = await get(port, '/', gzip, method);
    expect(got.headers['content-encoding'] ?? 'none').not.toBe('gzip');
    expect(got.headers.vary).toBe(vary ? 'Accept-Encoding' : undefined);
    if (method === 'HEAD') expect(got.headers['content-length']).toBe(String(SMALL.length));
  });

  test('the client accepts nothing offered: sent as is, Vary still added', async () => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(SMALL)));
    const got = await get(port, '/', { 'accept-encoding': 'identity' });
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(got.headers.vary).toBe('Accept-Encoding');
    expect(got.body.toString()).toBe(SMALL);
  });

  test('a body already encoded is sent as the handler encoded it', async () => {
    const port = await serve((app) =>
      app.get('/', (_q, res) =>
        res
          .header('Content-Type', 'text/plain')
          .header('Content-Encoding', 'br')
          .send(zlib.brotliCompressSync(SMALL)),
      ),
    );
    const got = await get(port, '/', gzip);
    expect(got.headers['content-encoding']).toBe('br');
    expect(got.headers.vary).toBeUndefined();
    expect(decode(got.body, 'br')).toBe(SMALL);
  });

  test('Content-Encoding: identity is no coding: the body is compressed', async () => {
    const port = await serve((app) =>
      app.get('/', (_q, res) => res.header('Content-Encoding', 'identity').send(SMALL)),
    );
    const got = await get(port, '/', gzip);
    expect(got.headers['content-encoding']).toBe('gzip');
    expect(decode(got.body, 'gzip')).toBe(SMALL);
  });

  test('Server-Sent Events arrive one by one, not held back by a compressor', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const port = await serve((app) =>
      app.get('/events', (_q, res) =>
        res.header('Content-Type', 'text/event-stream').send(
          (async function* () {
            yield 'data: first\n\n';
            await held;
            yield 'data: second\n\n';
          })(),
        ),
      ),
    );
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n');
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the first event was held back; got ${seen}`)), 2000);
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        if (seen.includes('data: first')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(seen.toLowerCase()).not.toContain('content-encoding');
    release();
    await new Promise((resolve) => socket.on('close', resolve));
    expect(seen).toContain('data: second');
  });

  test('a stream that declares a Content-Length under the threshold', async () => {
    const port = await serve((app) =>
      app.get('/', (_q, res) =>
        res
          .header('Content-Type', 'text/plain')
          .header('Content-Length', TINY.length)
          .send(
            (async function* () {
              yield TINY;
            })(),
          ),
      ),
    );
    const got = await get(port, '/', gzip);
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(got.headers['content-length']).toBe(String(TINY.length));
    expect(got.body.toString()).toBe(TINY);
  });
});

describe('options', () => {
  test('threshold: 0 compresses every body; a larger one leaves bodies under it', async () => {
    const all = await serve((app) => app.get('/', (_q, res) => res.send(TINY)), { threshold: 0 });
    const tiny = await get(all, '/', { 'accept-encoding': 'gzip' });
    expect(tiny.headers['content-encoding']).toBe('gzip');
    expect(decode(tiny.body, 'gzip')).toBe(TINY);
    const few = await serve((app) => app.get('/', (_q, res) => res.send(SMALL)), { threshold: 10_000 });
    expect((await get(few, '/', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });

  test('syncThreshold: 0 sends every body to the thread pool, with the same result', async () => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(SMALL)), { syncThreshold: 0 });
    const got = await get(port, '/', { 'accept-encoding': 'br' });
    expect(decode(got.body, 'br')).toBe(SMALL);
  });

  test('filter: takes the place of the test by type, and is told its answer', async () => {
    const seen: boolean[] = [];
    const port = await serve(
      (app) => {
        app.get('/custom', (_q, res) => res.header('Content-Type', 'application/x-custom').send(SMALL));
        app.get('/text', (_q, res) => res.send(SMALL));
      },
      {
        filter: (req, _res, byType) => {
          seen.push(byType);
          return req.getUri().getPath() === '/custom';
        },
      },
    );
    expect((await get(port, '/custom', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );
    const text = await get(port, '/text', { 'accept-encoding': 'gzip' });
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.headers.vary).toBeUndefined();
    expect(seen).toEqual([false, true]);
  });

  test('brotliOptions and zlibOptions reach the compressors', async () => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(LARGE)), {
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0 } },
      zlibOptions: { level: 1 },
    });
    const fast = await get(port, '/', { 'accept-encoding': 'br' });
    const best = zlib.brotliCompressSync(LARGE, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0 } });
    expect(fast.body.equals(best)).toBe(true);
    const gz = await get(port, '/', { 'accept-encoding': 'gzip' });
    expect(gz.body.equals(zlib.gzipSync(LARGE, { level: 1 }))).toBe(true);
  });

  test('brotli defaults to quality 4', async () => {
    const port = await serve((app) => app.get('/', (_q, res) => res.send(LARGE)));
    const got = await get(port, '/', { 'accept-encoding': 'br' });
    const q4 = zlib.brotliCompressSync(LARGE, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(got.body.equals(q4)).toBe(true);
  });

  test('mistakes are reported when the middleware is made', () => {
    expect(() => compress({ threshold: -1 })).toThrow(RangeError);
    expect(() => compress({ threshold: Number.NaN })).toThrow(/threshold must be a number of bytes/);
    expect(() => compress({ encodings: ['gzip', 'lzma' as CompressEncoding] })).toThrow(
      /unknown encoding "lzma"; known: br, zstd, gzip, deflate/,
    );
    expect(() => compress({ encodings: [] })).toThrow(/no usable encoding/);
  });
});

describe('Vary and ETag', () => {
  test('Accept-Encoding is appended to a Vary, never twice, and not beside *', async () => {
    const port = await serve((app) => {
      app.get('/origin', (_q, res) => res.header('Vary', 'Origin').send(SMALL));
      app.get('/twice', (_q, res) => res.header('Vary', 'accept-encoding').send(SMALL));
      app.get('/star', (_q, res) => res.header('Vary', '*').send(SMALL));
    });
    const accept = { 'accept-encoding': 'gzip' };
    expect((await get(port, '/origin', accept)).headers.vary).toBe('Origin, Accept-Encoding');
    expect((await get(port, '/twice', accept)).headers.vary).toBe('accept-encoding');
    expect((await get(port, '/star', accept)).headers.vary).toBe('*');
  });

  test('a strong ETag on a compressed answer becomes weak; left alone otherwise', async () => {
    const port = await serve((app) => {
      app.get('/strong', (_q, res) => res.header('ETag', '"abc"').send(SMALL));
      app.get('/weak', (_q, res) => res.header('ETag', 'W/"abc"').send(SMALL));
      app.get('/small', (_q, res) => res.header('ETag', '"abc"').send(TINY));
      app.get('/not-modified', (_q, res) =>
        res.status(304).header('ETag', '"abc"').header('Content-Type', 'text/plain').send(),
      );
    });
    const accept = { 'accept-encoding': 'gzip' };
    expect((await get(port, '/strong', accept)).headers.etag).toBe('W/"abc"');
    expect((await get(port, '/strong')).headers.etag).toBe('"abc"');
    expect((await get(port, '/weak', accept)).headers.etag).toBe('W/"abc"');
    expect((await get(port, '/small', accept)).headers.etag).toBe('"abc"');
    // A 304 confirms the compressed 200: the same weak tag, and the Vary that 200 carries.
    const confirmed = await get(port, '/not-modified', accept);
    expect(confirmed.status).toBe(304);
    expect(confirmed.headers.etag).toBe('W/"abc"');
    expect(confirmed.headers.vary).toBe('Accept-Encoding');
  });
});

describe('streams', () => {
  test('a stream with a Content-Length over the threshold (a file) is compressed and sent chunked', async () => {
    const port = await serve((app) =>
      app.get('/', (_q, res) =>
        res
          .header('Content-Type', 'text/plain')
          .header('Content-Length', Buffer.byteLength(SMALL))
          .send(
            (async function* () {
              yield SMALL;
            })(),
          ),
      ),
    );
    const got = await get(port, '/', { 'accept-encoding': 'gzip' });
    expect(got.headers['content-encoding']).toBe('gzip');
    expect(got.headers['content-length']).toBeUndefined();
    expect(decode(got.body, 'gzip')).toBe(SMALL);
  });

  test('an error midway cuts the response short, is logged once, and the next connection is served', async () => {
    const logger = memoryLogger();
    const port = await serve(
      (app) => {
        app.get('/fail', (_q, res) =>
          res.header('Content-Type', 'text/plain').send(
            (async function* () {
              for (let i = 0; i < 50; i++) yield text(100);
              throw new Error('the source broke');
            })(),
          ),
        );
        app.get('/ok', (_q, res) => res.send(SMALL));
      },
      {},
      { logger },
    );
    const raw = await rawRequest(
      port,
      Buffer.from('GET /fail HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n'),
    );
    expect(raw.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.head.toLowerCase()).toContain('content-encoding: gzip');
    const { payload, complete } = dechunk(Buffer.from(raw.body, 'latin1'));
    expect(complete).toBe(false);
    // What arrived decodes to a beginning of the body, and the gzip stream has no end.
    const prefix = zlib.gunzipSync(payload, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString();
    expect(text(100).repeat(50).startsWith(prefix)).toBe(true);
    expect(() => zlib.gunzipSync(payload)).toThrow(/unexpected end of file/);
    // A client sees an error, not a short body taken for the whole.
    await expect(get(port, '/fail', { 'accept-encoding': 'gzip' })).rejects.toThrow();
    const next = await get(port, '/ok', { 'accept-encoding': 'gzip' });
    expect(decode(next.body, 'gzip')).toBe(SMALL);
    await until(() => logger.errors.length === 2);
    expect(logger.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('the source broke'),
      expect.stringContaining('the source broke'),
    ]);
  });

  test('through app.fetch(): an error midway errors the body stream', async () => {
    const app = new Application(withEngine());
    app.middleware(compress());
    app.get('/fail', (_q, res) =>
      res.header('Content-Type', 'text/plain').send(
        (async function* () {
          yield SMALL;
          throw new Error('the source broke');
        })(),
      ),
    );
    const response = await app.fetch(
      new Request('http://arbor.test/fail', { headers: { 'accept-encoding': 'gzip' } }),
    );
    expect(response.headers.get('content-encoding')).toBe('gzip');
    await expect(response.arrayBuffer()).rejects.toThrow('the source broke');
  });

  test('the client leaving destroys the compressor and the source (its finally runs)', async () => {
    let finished = false;
    const port = await serve((app) =>
      app.get('/endless', (_q, res) =>
        res.header('Content-Type', 'text/plain').send(
          (async function* () {
            try {
              for (;;) {
                yield text(50);
                await new Promise((resolve) => setTimeout(resolve, 2));
              }
            } finally {
              finished = true;
            }
          })(),
        ),
      ),
    );
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /endless HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.destroy();
    await until(() => finished);
  });

  test('backpressure: a client that does not read stops the source', async () => {
    let pulled = 0;
    const port = await serve((app) =>
      app.get('/endless', (_q, res) =>
        res.header('Content-Type', 'text/plain').send(
          (async function* () {
            for (;;) {
              pulled++;
              // 16 kB that gzip halves and no better: each chunk new, or the window would find the last.
              yield randomBytes(8192).toString('hex');
            }
          })(),
        ),
      ),
    );
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.write('GET /endless HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n');
    // The socket's buffers fill, then the compressor's, then the source waits.
    let before = -1;
    while (pulled !== before) {
      before = pulled;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    socket.destroy();
    // Without backpressure the source would run on (and this loop with it); with it, it stops once the
    // loopback socket's buffers (a few MB: a few hundred chunks) and the compressor's are full.
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(2000);
  });
});

/** The payload of a chunked body, and whether its last chunk arrived. */
function dechunk(raw: Buffer): { payload: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = raw.indexOf('\r\n', at);
    if (line === -1) return { payload: Buffer.concat(parts), complete: false };
    const size = Number.parseInt(raw.subarray(at, line).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error(`not a chunk size at ${at}`);
    if (size === 0) return { payload: Buffer.concat(parts), complete: true };
    parts.push(raw.subarray(line + 2, Math.min(line + 2 + size, raw.length)));
    if (line + 2 + size > raw.length) return { payload: Buffer.concat(parts), complete: false };
    at = line + 4 + size;
  }
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Files (docs/framework/files.md): `serveStatic` and `res.sendFile` on both servers (the `arbor` and
 * `arbor-server` projects) and through `app.fetch()` — content, type, validators, conditional requests,
 * ranges, HEAD, index files, the directory redirect, dotfiles, falling through — and, over the wire,
 * the range answers curl reads from Arbor beside the ones it reads from Fastify's @fastify/static. Path
 * traversal has its own table: static-traversal.test.ts; how the `Range` field is read, range-requests.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Application,
  compress,
  memoryLogger,
  type ServeStaticOptions,
  serveStatic,
} from '../../ts/src/app/index.js';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';
import { exchange, request as rawRequest } from '../support/raw-http.js';
import { withEngine } from './support/engine.js';
import { appStarter, listen, transports } from './support/transport.js';

const ROOT = resolve(import.meta.dirname, 'fixtures/static/public');
const read = (name: string) => readFileSync(join(ROOT, name), 'utf8');
const ALPHABET = read('alphabet.txt'); // '0123456789abcdefghijklmnopqrstuvwxyz\n', 37 bytes
/**
 * What a browser sends when it revalidates. Without a Cache-Control of its own, fetch() adds `no-cache` to
 * a request carrying If-None-Match or If-Modified-Since, and `no-cache` asks for the whole file (below).
 */
const REVALIDATE = { 'Cache-Control': 'max-age=0' };

describe.each(transports)('serveStatic over $name', (transport) => {
  const start = appStarter(transport);
  const assets = (options: ServeStaticOptions = {}) =>
    start((app) => app.middleware(serveStatic(ROOT, { prefix: '/assets', ...options })));

  test('a file: its bytes, its type from its name, its validators, no caching unless told', async () => {
    const c = await assets();
    const text = await c.request('/assets/hello.txt');
    expect(text.status).toBe(200);
    expect(text.text).toBe('Hello, files!\n');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('content-length')).toBe('14');
    expect(text.headers.get('accept-ranges')).toBe('bytes');
    expect(text.headers.get('cache-control')).toBe('public, max-age=0');
    const stat = statSync(join(ROOT, 'hello.txt'));
    expect(text.headers.get('etag')).toBe(
      `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
    );
    expect(text.headers.get('last-modified')).toBe(stat.mtime.toUTCString());

    const css = await c.request('/assets/css/site.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.text).toBe(read('css/site.css'));
    expect((await c.request('/assets/with%20space.txt')).text).toBe(read('with space.txt'));
    // A name without a known type is bytes, to GET and HEAD alike.
    for (const method of ['GET', 'HEAD']) {
      const unknown = await c.request('/assets/README', { method });
      expect(unknown.headers.get('content-type'), method).toBe('application/octet-stream');
    }
  });

  test('If-None-Match and If-Modified-Since answer 304 without a body; a changed validator gets the file', async () => {
    const c = await assets();
    const first = await c.request('/assets/hello.txt');
    const etag = first.headers.get('etag') ?? '';
    const modified = first.headers.get('last-modified') ?? '';

    const byTag = await c.request('/assets/hello.txt', { headers: { ...REVALIDATE, 'If-None-Match': etag } });
    expect(byTag.status).toBe(304);
    expect(byTag.text).toBe('');
    expect(byTag.headers.get('etag')).toBe(etag);
    expect(byTag.headers.get('content-type')).toBeNull();

    const byDate = await c.request('/assets/hello.txt', {
      headers: { ...REVALIDATE, 'If-Modified-Since': modified },
    });
    expect(byDate.status).toBe(304);
    expect(byDate.text).toBe('');

    const other = await c.request('/assets/hello.txt', {
      headers: { ...REVALIDATE, 'If-None-Match': 'W/"other"' },
    });
    expect(other.status).toBe(200);
    expect(other.text).toBe('Hello, files!\n');
    const older = new Date(Date.parse(modified) - 60_000).toUTCString();
    expect(
      (await c.request('/assets/hello.txt', { headers: { ...REVALIDATE, 'If-Modified-Since': older } }))
        .status,
    ).toBe(200);
    // `Cache-Control: no-cache` is an end-to-end reload: the whole file, whatever the validators say.
    const reload = await c.request('/assets/hello.txt', {
      headers: { 'Cache-Control': 'no-cache', 'If-None-Match': etag },
    });
    expect(reload.status).toBe(200);
    // If-Match that fails is a precondition failure, in the framework's error body.
    const ifMatch = await c.request('/assets/hello.txt', { headers: { 'If-Match': '"nope"' } });
    expect(ifMatch.status).toBe(412);
    expect(ifMatch.json()).toEqual({ error: 'Precondition Failed', code: 412 });
  });

  test.each([
    ['bytes=0-9', 206, 'bytes 0-9/37', '0123456789'],
    ['bytes=-5', 206, 'bytes 32-36/37', 'wxyz\n'],
    ['bytes=30-', 206, 'bytes 30-36/37', 'uvwxyz\n'],
    ['bytes=30-1000', 206, 'bytes 30-36/37', 'uvwxyz\n'],
    // Overlapping ranges are merged into one, so one part answers them.
    ['bytes=0-4,3-9', 206, 'bytes 0-9/37', '0123456789'],
    // Several disjoint ranges: send writes no multipart/byteranges, it sends the whole file (RFC 9110
    // §14.2 lets a server ignore Range).
    ['bytes=0-1,5-6', 200, null, ALPHABET],
    // A unit other than bytes is ignored.
    ['items=0-1', 200, null, ALPHABET],
  ])('Range %s → %i %s', async (range, status, contentRange, body) => {
    const c = await assets();
    const reply = await c.request('/assets/alphabet.txt', { headers: { Range: range } });
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-range')).toBe(contentRange);
    expect(reply.text).toBe(body);
    expect(reply.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
  });

  test('a range past the end is a 416 with the length in Content-Range, in the framework error body', async () => {
    const c = await assets();
    const reply = await c.request('/assets/alphabet.txt', { headers: { Range: 'bytes=999999-' } });
    expect(reply.status).toBe(416);
    expect(reply.headers.get('content-range')).toBe('bytes */37');
    expect(reply.json()).toEqual({ error: 'Range Not Satisfiable', code: 416 });
  });

  test('If-Range: the range when the validator still holds, the whole file when it does not', async () => {
    const c = await assets();
    const etag = (await c.request('/assets/alphabet.txt')).headers.get('etag') ?? '';
    const fresh = await c.request('/assets/alphabet.txt', {
      headers: { Range: 'bytes=0-2', 'If-Range': etag },
    });
    expect([fresh.status, fresh.text]).toEqual([206, '012']);
    const stale = await c.request('/assets/alphabet.txt', {
      headers: { Range: 'bytes=0-2', 'If-Range': '"changed"' },
    });
    expect([stale.status, stale.text]).toEqual([200, ALPHABET]);
  });

  test('HEAD: the GET headers, Content-Length included, and no body', async () => {
    const c = await assets();
    const head = await c.request('/assets/alphabet.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe('37');
    expect(head.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(head.headers.get('etag')).not.toBeNull();
    const ranged = await c.request('/assets/alphabet.txt', {
      method: 'HEAD',
      headers: { Range: 'bytes=0-9' },
    });
    expect([ranged.status, ranged.headers.get('content-length'), ranged.text]).toEqual([206, '10', '']);
  });

  test("a directory's URL answers with its index.html; without the slash it is redirected (301), query kept", async () => {
    const c = await assets();
    const home = await c.request('/assets/');
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.text).toBe(read('index.html'));
    expect((await c.request('/assets/docs/')).text).toBe(read('docs/index.html'));

    const docs = await c.request('/assets/docs?lang=en');
    expect(docs.status).toBe(301);
    expect(docs.headers.get('location')).toBe('/assets/docs/?lang=en');
    const top = await c.request('/assets');
    expect([top.status, top.headers.get('location')]).toEqual([301, '/assets/']);
    // A directory without an index file is no file: it falls through.
    expect((await c.request('/assets/empty-dir/')).json()).toEqual({
      error: 'No route for GET /assets/empty-dir/',
      code: 404,
    });
  });

  test('index: a list, or false (then a directory is no file, and no redirect)', async () => {
    let c = await assets({ index: ['missing.html', 'about.html'] });
    expect((await c.request('/assets/')).text).toBe(read('about.html'));
    c = await assets({ index: false });
    expect((await c.request('/assets/docs/')).status).toBe(404);
    expect((await c.request('/assets/docs')).status).toBe(404);
    expect((await c.request('/assets/docs/index.html')).status).toBe(200);
  });

  test('dotfiles: absent by default (falls through to 404), 403 with deny, served with allow', async () => {
    let c = await assets();
    const ignored = await c.request('/assets/.env');
    expect(ignored.json()).toEqual({ error: 'No route for GET /assets/.env', code: 404 });
    expect(ignored.text).not.toContain('DOTFILE-SECRET');
    c = await assets({ dotfiles: 'deny' });
    const denied = await c.request('/assets/.env');
    expect(denied.json()).toEqual({ error: 'Forbidden', code: 403 });
    c = await assets({ dotfiles: 'allow' });
    expect((await c.request('/assets/.env')).text).toBe(read('.env'));
  });

  test('a missing file goes on to the 404 or the fallback; fallthrough: false answers 404 itself', async () => {
    let c = await assets();
    expect((await c.request('/assets/nope.txt')).json()).toEqual({
      error: 'No route for GET /assets/nope.txt',
      code: 404,
    });
    c = await start((app) => {
      app.middleware(serveStatic(ROOT, { prefix: '/assets' }));
      app.fallback((_req, res) => res.status(404).send('fallback'));
    });
    expect((await c.request('/assets/nope.txt')).text).toBe('fallback');
    expect((await c.request('/assets/hello.txt')).text).toBe('Hello, files!\n');
    c = await start((app) => {
      app.middleware(serveStatic(ROOT, { prefix: '/assets', fallthrough: false }));
      app.fallback((_req, res) => res.status(404).send('fallback'));
    });
    expect((await c.request('/assets/nope.txt')).json()).toEqual({ error: 'Not Found', code: 404 });
  });

  test('routes win, other methods and paths outside the prefix go on untouched', async () => {
    let c = await start((app) => {
      app.middleware(serveStatic(ROOT, { prefix: '/assets' }));
      app.get('/assets/hello.txt', (_req, res) => res.send('from the route'));
      app.post('/assets/alphabet.txt', (_req, res) => res.send('posted'));
    });
    expect((await c.request('/assets/hello.txt')).text).toBe('from the route');
    expect((await c.request('/assets/hello.txt', { method: 'HEAD' })).headers.get('content-length')).toBe(
      '14',
    );
    expect((await c.request('/assets/alphabet.txt', { method: 'POST' })).text).toBe('posted');
    expect((await c.request('/assets/alphabet.txt')).text).toBe(ALPHABET);
    expect((await c.request('/assets/alphabet.txt', { method: 'DELETE' })).status).toBe(405);
    expect((await c.request('/assetsX/hello.txt')).status).toBe(404);
    expect((await c.request('/hello.txt')).status).toBe(404);
    // At the root, every unrouted GET is looked up.
    c = await start((app) => app.middleware(serveStatic(ROOT)));
    expect((await c.request('/hello.txt')).text).toBe('Hello, files!\n');
    expect((await c.request('/')).text).toBe(read('index.html'));
  });

  test('maxAge, immutable, extensions, setHeaders, and a Content-Type nobody overrides', async () => {
    const seen: string[] = [];
    const c = await assets({
      maxAge: '1h',
      immutable: true,
      extensions: ['html'],
      setHeaders: (res, path, stat) => {
        seen.push(path);
        res.header('X-File-Size', String(stat.size));
      },
    });
    const reply = await c.request('/assets/about');
    expect(reply.text).toBe(read('about.html'));
    expect(reply.headers.get('cache-control')).toBe('public, max-age=3600, immutable');
    expect(reply.headers.get('x-file-size')).toBe(String(Buffer.byteLength(read('about.html'))));
    expect(seen).toEqual([join(ROOT, 'about.html')]);
    // Capped at one year, as send caps it.
    const long = await start((app) => app.middleware(serveStatic(ROOT, { maxAge: '2y' })));
    expect((await long.request('/hello.txt')).headers.get('cache-control')).toBe('public, max-age=31536000');
    const noCache = await start((app) =>
      app.middleware(serveStatic(ROOT, { cacheControl: false, etag: false, lastModified: false })),
    );
    const bare = await noCache.request('/hello.txt');
    expect([
      bare.headers.get('cache-control'),
      bare.headers.get('etag'),
      bare.headers.get('last-modified'),
    ]).toEqual([null, null, null]);
  });

  test('behind compress(): a whole file is compressed, a range is not, HEAD varies as GET does', async () => {
    const c = await start((app) => {
      app.middleware(compress({ threshold: 1 }));
      app.middleware(serveStatic(ROOT));
    });
    const gzip = { 'Accept-Encoding': 'gzip' };
    const whole = await c.request('/alphabet.txt', { headers: gzip });
    // (app.fetch() hands the gzip bytes over as they are, fetch() over HTTP decodes them: the coding says it.)
    expect([whole.status, whole.headers.get('content-encoding')]).toEqual([200, 'gzip']);
    const range = await c.request('/alphabet.txt', { headers: { ...gzip, Range: 'bytes=0-3' } });
    expect([range.status, range.headers.get('content-encoding'), range.text]).toEqual([206, null, '0123']);
    const head = await c.request('/alphabet.txt', { method: 'HEAD', headers: gzip });
    expect([head.headers.get('vary'), head.headers.get('content-length')]).toEqual(['Accept-Encoding', '37']);
  });

  test('a malformed escape is a 400, never a lookup', async () => {
    const c = await assets();
    // fetch() would re-encode a bare '%', so the URL is built as the server will read it.
    const reply = await c.request('/assets/%E0%A4%A.txt');
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ error: 'Malformed percent-encoding in the path', code: 400 });
  });
});

describe.each(transports)('res.sendFile over $name', (transport) => {
  const start = appStarter(transport);

  test('answers with the file, validators and ranges included; a missing one is a 404', async () => {
    const c = await start((app) => {
      app.get('/files/*', (req, res) => res.sendFile(req.param('*'), { root: ROOT }));
    });
    const reply = await c.request('/files/hello.txt');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('Hello, files!\n');
    expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const etag = reply.headers.get('etag') ?? '';
    expect(
      (await c.request('/files/hello.txt', { headers: { ...REVALIDATE, 'If-None-Match': etag } })).status,
    ).toBe(304);
    const range = await c.request('/files/alphabet.txt', { headers: { Range: 'bytes=-3' } });
    expect([range.status, range.headers.get('content-range'), range.text]).toEqual([
      206,
      'bytes 34-36/37',
      'yz\n',
    ]);
    expect((await c.request('/files/with%20space.txt')).text).toBe(read('with space.txt'));

    const missing = await c.request('/files/nope.txt');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not Found', code: 404 });
    // A directory is no file; a dotfile is absent by default.
    expect((await c.request('/files/docs')).status).toBe(404);
    expect((await c.request('/files/.env')).status).toBe(404);
    expect((await c.request('/files/docs/')).text).toBe(read('docs/index.html'));
    expect((await c.request('/files/hello.txt', { method: 'HEAD' })).headers.get('content-length')).toBe(
      '14',
    );
  });

  test('an absolute path without root; headers, maxAge and a Content-Type set before are kept', async () => {
    const c = await start((app) => {
      app.get('/report', (_req, res) =>
        res.header('Content-Type', 'text/markdown; charset=utf-8').sendFile(join(ROOT, 'hello.txt'), {
          maxAge: 60_000,
          headers: { 'Content-Disposition': 'attachment; filename="hello.md"' },
        }),
      );
    });
    const reply = await c.request('/report');
    expect(reply.text).toBe('Hello, files!\n');
    expect(reply.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=60');
    expect(reply.headers.get('content-disposition')).toBe('attachment; filename="hello.md"');
  });

  test('a relative path without root is a programming error: a 500, logged with the fix', async () => {
    const logger = memoryLogger();
    const c = await start(
      (app) => {
        app.get('/oops', (_req, res) => res.sendFile('hello.txt'));
        app.get('/empty-root', (_req, res) => res.sendFile('package.json', { root: '' }));
      },
      { logger },
    );
    expect((await c.request('/oops')).status).toBe(500);
    expect(logger.errors.map((e) => e.message).join('\n')).toContain('a relative path needs a `root` option');
    // An empty root is no root: not the working directory.
    expect((await c.request('/empty-root')).status).toBe(500);
    expect(logger.errors.map((e) => e.message).join('\n')).toContain('root must be a directory');
  });

  test('a path that climbs out of root is a 403, a NUL byte a 400', async () => {
    const c = await start((app) => {
      app.get('/files/*', (req, res) => res.sendFile(req.param('*'), { root: ROOT }));
    });
    expect((await c.request('/files/..%2Fsecret.txt')).status).toBe(403);
    expect((await c.request('/files/hello.txt%00')).status).toBe(400);
  });
});

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('mistakes are reported when serveStatic is called, not per request', () => {
  test.each([
    ['a root that does not exist', () => serveStatic(join(ROOT, 'nope')), /nope does not exist/],
    ['a root that is a file', () => serveStatic(join(ROOT, 'hello.txt')), /is not a directory/],
    ['a prefix without its slash', () => serveStatic(ROOT, { prefix: 'assets' }), /must be a URL path/],
    ['a maxAge that is no duration', () => serveStatic(ROOT, { maxAge: 'soon' }), /maxAge must be/],
    ['a negative maxAge', () => serveStatic(ROOT, { maxAge: -1 }), /maxAge must be/],
    // biome-ignore lint/suspicious/noExplicitAny: the mistake a JavaScript caller can make.
    ['an unknown dotfiles policy', () => serveStatic(ROOT, { dotfiles: 'hide' as any }), /dotfiles must be/],
    ['an index that is a path', () => serveStatic(ROOT, { index: '../index.html' }), /must be a file name/],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});

describe('a 5 MB file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-static-'));
  const bytes = randomBytes(5 * 1024 * 1024);
  const app = () => {
    const application = new Application(withEngine());
    application.middleware(serveStatic(dir));
    return application;
  };
  beforeAll(() => writeFileSync(join(dir, 'big.bin'), bytes));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(digest(new Uint8Array(await response.arrayBuffer()))).toBe(digest(bytes));
  };

  test('arrives byte-identical over HTTP', async () => {
    const { server, base } = await listen(app());
    try {
      await check(await fetch(`${base}/big.bin`));
    } finally {
      await server.closeGracefully(500);
    }
  });

  test('arrives byte-identical through app.fetch()', async () => {
    await check(await app().fetch(new Request('http://arbor.test/big.bin')));
  });
});

describe('over the wire', () => {
  test('HEAD sends the head and not one byte of body', async () => {
    const app = new Application(withEngine());
    app.middleware(serveStatic(ROOT));
    const { server, port } = await listen(app);
    try {
      const reply = await exchange(port, rawRequest('HEAD', '/alphabet.txt'));
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-length')).toBe('37');
      expect(reply.body.length).toBe(0);
    } finally {
      await server.closeGracefully(500);
    }
  });
});

const curlMissing = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'curl (apt-get install curl)';
  }
})();

interface CurlReply {
  status: number;
  contentRange: string | null;
  body: string;
}

/**
 * `curl -s -D - -r <range> <url>`: status, Content-Range and body. Asynchronous: the servers answering it
 * run in this process.
 */
async function curl(url: string, range: string): Promise<CurlReply> {
  const { stdout } = await promisify(execFile)('curl', ['-s', '-D', '-', '-r', range, url], {
    encoding: 'latin1',
  });
  const split = stdout.indexOf('\r\n\r\n');
  const head = stdout.slice(0, split);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const contentRange = /^content-range: *(.*)$/im.exec(head)?.[1]?.trim() ?? null;
  return { status, contentRange, body: stdout.slice(split + 4) };
}

describe.skipIf(skipWhenMissing(curlMissing))(
  titled("ranges as curl reads them, from Arbor and from Fastify's @fastify/static", curlMissing),
  () => {
    let arbor: { url: string; close: () => Promise<void> };
    let fastify: { url: string; close: () => Promise<void> };

    beforeAll(async () => {
      assertPresent(curlMissing);
      const app = new Application(withEngine());
      app.middleware(serveStatic(ROOT));
      const { server, base } = await listen(app);
      arbor = { url: base, close: () => server.closeGracefully(500) };
      const other = Fastify();
      await other.register(fastifyStatic, { root: ROOT });
      await other.listen({ port: 0, host: '127.0.0.1' });
      fastify = {
        url: `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`,
        close: () => other.close(),
      };
    });
    afterAll(async () => {
      await arbor?.close();
      await fastify?.close();
    });

    test.each([
      ['0-9', 206, 'bytes 0-9/37', '0123456789'],
      ['-5', 206, 'bytes 32-36/37', 'wxyz\n'],
      ['30-', 206, 'bytes 30-36/37', 'uvwxyz\n'],
      ['0-4,3-9', 206, 'bytes 0-9/37', '0123456789'],
      ['0-1,5-6', 200, null, ALPHABET],
      ['999999-', 416, 'bytes */37', null],
    ])('-r %s', async (range, status, contentRange, body) => {
      const ours = await curl(`${arbor.url}/alphabet.txt`, range);
      const theirs = await curl(`${fastify.url}/alphabet.txt`, range);
      expect({ status: ours.status, contentRange: ours.contentRange }).toEqual({ status, contentRange });
      expect({ status: theirs.status, contentRange: theirs.contentRange }).toEqual({ status, contentRange });
      // The bodies of a 416 differ by design (the framework's JSON error body, Fastify's own).
      if (body !== null) {
        expect(ours.body).toBe(body);
        expect(theirs.body).toBe(body);
      }
    });
  },
);

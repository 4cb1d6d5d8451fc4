/**
 * Compressed request bodies (`decompress`), on both servers, through `app.fetch()` and over HTTP/2: each
 * coding decoded for JSON, text, form, multipart and streamed parts, sent whole and chunked; the body limit
 * held on the decoded bytes (exactly the limit taken, one byte more refused, however small the encoded
 * body); corrupt and truncated data a 400; an unknown coding (alone or stacked), or a third, a 415; off by
 * default (415 as before), per route and per group; a middleware that answers first decodes nothing. The
 * decompression bomb and the memory it may cost are in request-decompression-bomb.test.ts.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import {
  brotliCompressSync,
  constants,
  createZstdCompress,
  deflateRawSync,
  deflateSync,
  gzipSync,
  zstdCompressSync,
} from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { Application, type ApplicationConfig, HttpError } from '../../ts/src/app/index.js';
import { testServer, withEngine } from './support/engine.js';
import { answerOf } from './support/http2-client.js';
import { FORM_TYPE, multipart } from './support/multipart-form.js';
import { transports } from './support/transport.js';

type Coding = 'gzip' | 'x-gzip' | 'deflate' | 'br' | 'zstd';
const CODINGS: Coding[] = ['gzip', 'x-gzip', 'deflate', 'br', 'zstd'];

/** `bytes` compressed as `coding` says, with node:zlib (the client side of every test here). */
function encode(coding: Coding, bytes: Uint8Array | string): Buffer {
  const input = Buffer.from(bytes);
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gzipSync(input);
    case 'deflate':
      return deflateSync(input);
    case 'br':
      return brotliCompressSync(input);
    case 'zstd':
      return zstdCompressSync(input);
  }
}

const LIMIT = 1000;

function application(config: ApplicationConfig = { decompress: true }): Application {
  const app = new Application(withEngine({ bodyLimit: LIMIT, ...config }));
  app.post('/json', (req, res) => res.json({ body: req.json() }));
  app.post('/text', (req, res) => res.json({ text: req.body<string>() }));
  app.post('/form', (req, res) => res.json({ form: req.body() }));
  app.post('/bytes', (req, res) => res.json({ bytes: req.rawBody().byteLength }));
  app.post('/upload', (req, res) =>
    res.json({
      fields: req.body(),
      files: req.files().map((file) => ({ name: file.filename, size: file.size })),
    }),
  );
  app
    .post('/parts', async (req, res) => {
      const seen: string[] = [];
      for await (const part of req.parts()) {
        if (part.type === 'field') seen.push(`${part.fieldname}=${part.value}`);
        else {
          let size = 0;
          for await (const chunk of part.stream) size += (chunk as Buffer).byteLength;
          seen.push(`${part.filename}:${size}`);
        }
      }
      return res.json({ seen });
    })
    .uploads({ stream: true });
  app.post('/refused', (req, res) => res.json({ bytes: req.rawBody().byteLength })).decompress(false);
  app
    .post('/private', (req, res) => res.json({ bytes: req.rawBody().byteLength }))
    .middleware(() => {
      throw new HttpError(401, 'Authentication required');
    });
  app
    .post('/peek', (req, res) => res.json({ seen: req.get('seen') }))
    .middleware(async (req, next) => {
      req.set('seen', await req.readBody());
      return next.handle(req);
    });
  return app;
}

const json = (coding: string) => ({ 'Content-Type': 'application/json', 'Content-Encoding': coding });

describe.each(transports)('over $name', (transport) => {
  test.each(CODINGS)('%s: JSON, text, form and bytes decoded, sent whole and chunked', async (coding) => {
    const client = await transport.connect(application());
    try {
      for (const chunked of [false, true]) {
        const label = `${coding}, chunked: ${chunked}`;
        const doc = { name: 'ünïcode', list: [1, 2, 3], nested: { ok: true } };
        const a = await client.request('/json', {
          method: 'POST',
          headers: json(coding),
          body: encode(coding, JSON.stringify(doc)),
          chunked,
        });
        expect(a.status, label).toBe(200);
        expect(a.json(), label).toEqual({ body: doc });

        const text = 'déjà vu '.repeat(50);
        const b = await client.request('/text', {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Encoding': coding },
          body: encode(coding, text),
          chunked,
        });
        expect(b.json(), label).toEqual({ text });

        const c = await client.request('/form', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': coding },
          body: encode(coding, 'a=1&b=2&a=3'),
          chunked,
        });
        expect(c.json(), label).toEqual({ form: { a: ['1', '3'], b: '2' } });

        const bytes = new Uint8Array(900).map((_, i) => (i * 7) % 256);
        const d = await client.request('/bytes', {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': coding },
          body: encode(coding, bytes),
          chunked,
        });
        expect(d.json(), label).toEqual({ bytes: 900 });
      }
    } finally {
      await client.close();
    }
  });

  test.each(CODINGS)('%s: a multipart form, its files on disk and its parts streamed', async (coding) => {
    const client = await transport.connect(application());
    try {
      const form = multipart([
        { name: 'title', content: 'report' },
        { name: 'file', filename: 'a.txt', type: 'text/plain', content: 'z'.repeat(500) },
      ]);
      const headers = { 'Content-Type': FORM_TYPE, 'Content-Encoding': coding };
      const files = await client.request('/upload', { method: 'POST', headers, body: encode(coding, form) });
      expect(files.status).toBe(200);
      expect(files.json()).toEqual({ fields: { title: 'report' }, files: [{ name: 'a.txt', size: 500 }] });
      const parts = await client.request('/parts', {
        method: 'POST',
        headers,
        body: encode(coding, form),
        chunked: true,
      });
      expect(parts.json()).toEqual({ seen: ['title=report', 'a.txt:500'] });
    } finally {
      await client.close();
    }
  });

  test.each(CODINGS)('%s: the limit counts decoded bytes', async (coding) => {
    const client = await transport.connect(application());
    try {
      for (const chunked of [false, true]) {
        // A thousand repeated bytes encode to a few dozen: the encoded size says nothing of the decoded.
        const exact = await client.request('/bytes', {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': coding },
          body: encode(coding, 'x'.repeat(LIMIT)),
          chunked,
        });
        expect(exact.status, `chunked: ${chunked}`).toBe(200);
        expect(exact.json()).toEqual({ bytes: LIMIT });
        const encoded = encode(coding, 'x'.repeat(LIMIT + 1));
        expect(encoded.byteLength).toBeLessThan(100);
        const over = await client.request('/bytes', {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': coding },
          body: encoded,
          chunked,
        });
        expect(over.status, `chunked: ${chunked}`).toBe(413);
        expect(over.json()).toEqual({
          error: `Request body larger than the limit of ${LIMIT} bytes (raise it with bodyLimit on the route, its group or the application)`,
          code: 413,
        });
        // And in a form: its parts are counted decoded as well.
        const form = multipart([{ name: 'f', filename: 'big', content: 'y'.repeat(LIMIT) }]);
        const upload = await client.request('/upload', {
          method: 'POST',
          headers: { 'Content-Type': FORM_TYPE, 'Content-Encoding': coding },
          body: encode(coding, form),
          chunked,
        });
        expect(upload.status).toBe(413);
      }
    } finally {
      await client.close();
    }
  });

  test('gzip then br (Content-Encoding: gzip, br) is undone in reverse order', async () => {
    const client = await transport.connect(application());
    try {
      const reply = await client.request('/json', {
        method: 'POST',
        headers: json('gzip, br'),
        body: encode('br', encode('gzip', '{"stacked":true}')),
      });
      expect(reply.status).toBe(200);
      expect(reply.json()).toEqual({ body: { stacked: true } });
    } finally {
      await client.close();
    }
  });

  const gzipped = gzipSync(`{"ok":true,"padding":"${'p'.repeat(200)}"}`);
  const CORRUPT: [string, string, Uint8Array, RegExp][] = [
    ['not gzip at all', 'gzip', Buffer.from('{"plain":"json"}'), /^Request body is not valid gzip: /],
    [
      'gzip cut short',
      'gzip',
      gzipped.subarray(0, gzipped.byteLength - 10),
      /^Request body is not valid gzip: /,
    ],
    [
      'gzip with a flipped byte',
      'gzip',
      gzipped.map((byte, i) => (i === 20 ? byte ^ 0xff : byte)),
      /^Request body is not valid gzip: /,
    ],
    [
      'raw deflate sent as deflate',
      'deflate',
      deflateRawSync('{"raw":true}'),
      /^Request body is not valid deflate: /,
    ],
    ['not brotli', 'br', Buffer.from('definitely not brotli'), /^Request body is not valid br: /],
    ['not zstd', 'zstd', Buffer.from('definitely not zstd'), /^Request body is not valid zstd: /],
    [
      'gzip under br, the gzip corrupt',
      'gzip, br',
      encode('br', 'not gzip'),
      /^Request body is not valid gzip: /,
    ],
  ];
  test.each(CORRUPT)('%s: 400 naming the coding', async (_label, coding, body, message) => {
    const client = await transport.connect(application());
    try {
      for (const chunked of [false, true]) {
        const reply = await client.request('/json', { method: 'POST', headers: json(coding), body, chunked });
        expect(reply.status, `chunked: ${chunked}`).toBe(400);
        expect(reply.json().error).toMatch(message);
      }
    } finally {
      await client.close();
    }
  });

  test('zstd: a frame asking for a window over 8 MiB is refused before anything is decoded', async () => {
    /** `text` as one streamed zstd frame (no content size) declaring a window of 2^`windowLog` bytes. */
    const framed = async (text: string, windowLog: number) => {
      const compressor = createZstdCompress({ params: { [constants.ZSTD_c_windowLog]: windowLog } });
      const parts: Buffer[] = [];
      compressor.on('data', (part: Buffer) => parts.push(part));
      const ended = new Promise((resolve) => compressor.on('end', resolve));
      compressor.end(text);
      await ended;
      return Buffer.concat(parts);
    };
    const client = await transport.connect(application());
    try {
      const allowed = await client.request('/json', {
        method: 'POST',
        headers: json('zstd'),
        body: await framed('{"window":"8 MiB"}', 23),
      });
      expect(allowed.json()).toEqual({ body: { window: '8 MiB' } });
      const refused = await client.request('/json', {
        method: 'POST',
        headers: json('zstd'),
        body: await framed('{"window":"16 MiB"}', 24),
      });
      expect(refused.status).toBe(400);
      expect(refused.json().error).toBe(
        'Request body is not valid zstd: Frame requires too much memory for decoding',
      );
    } finally {
      await client.close();
    }
  });

  test.each([
    ['compress', 'Content-Encoding "compress" is not supported'],
    ['x-unknown', 'Content-Encoding "x-unknown" is not supported'],
    ['gzip, x-unknown', 'Content-Encoding "gzip, x-unknown" is not supported'],
    ['x-unknown, gzip', 'Content-Encoding "x-unknown, gzip" is not supported'],
    ['gzip, gzip, gzip', 'Content-Encoding "gzip, gzip, gzip" stacks 3 codings (at most 2 are decoded)'],
  ])('Content-Encoding: %s is 415', async (coding, error) => {
    const client = await transport.connect(application());
    try {
      const reply = await client.request('/json', {
        method: 'POST',
        headers: json(coding),
        body: encode('gzip', '{}'),
      });
      expect(reply.status).toBe(415);
      expect(reply.json()).toEqual({ error, code: 415 });
    } finally {
      await client.close();
    }
  });

  test('identity is the body as sent, decompressing or not', async () => {
    const client = await transport.connect(application());
    try {
      const reply = await client.request('/json', {
        method: 'POST',
        headers: json('identity'),
        body: '{"a":1}',
      });
      expect(reply.json()).toEqual({ body: { a: 1 } });
    } finally {
      await client.close();
    }
  });

  test('off by default: 415 as before, for every coding and for forms', async () => {
    const client = await transport.connect(application({}));
    try {
      for (const coding of CODINGS) {
        const reply = await client.request('/json', {
          method: 'POST',
          headers: json(coding),
          body: encode(coding, '{}'),
        });
        expect(reply.status, coding).toBe(415);
        expect(reply.json()).toEqual({ error: `Content-Encoding "${coding}" is not supported`, code: 415 });
      }
      const form = await client.request('/upload', {
        method: 'POST',
        headers: { 'Content-Type': FORM_TYPE, 'Content-Encoding': 'gzip' },
        body: encode('gzip', multipart([{ name: 'a', content: 'b' }])),
      });
      expect(form.status).toBe(415);
    } finally {
      await client.close();
    }
  });

  test('per route and per group: the nearest setting wins', async () => {
    const app = new Application(withEngine());
    const echo = (
      req: import('../../ts/src/app/index.js').Request,
      res: import('../../ts/src/app/index.js').Response,
    ) => res.json(req.json());
    app.post('/off', echo);
    app.post('/on', echo).decompress();
    app
      .group('/g', (g) => {
        g.post('/inherits', echo);
        g.post('/own', echo).decompress(false);
        g.group('/inner', (inner) => inner.post('/x', echo)).decompress(false);
      })
      .decompress();
    const client = await transport.connect(app);
    try {
      const status = async (path: string) =>
        (
          await client.request(path, {
            method: 'POST',
            headers: json('gzip'),
            body: encode('gzip', '{"a":1}'),
          })
        ).status;
      expect({
        off: await status('/off'),
        on: await status('/on'),
        inherits: await status('/g/inherits'),
        own: await status('/g/own'),
        inner: await status('/g/inner/x'),
      }).toEqual({ off: 415, on: 200, inherits: 200, own: 415, inner: 415 });
      // A route's .decompress(false) in an application that decompresses.
      const refused = await transport.connect(application());
      try {
        const reply = await refused.request('/refused', {
          method: 'POST',
          headers: json('gzip'),
          body: encode('gzip', '{}'),
        });
        expect(reply.status).toBe(415);
      } finally {
        await refused.close();
      }
    } finally {
      await client.close();
    }
  });

  test('a middleware that answers first decodes nothing: corrupt data is its 401, not a 400', async () => {
    const client = await transport.connect(application());
    try {
      for (const chunked of [false, true]) {
        const reply = await client.request('/private', {
          method: 'POST',
          headers: json('gzip'),
          body: Buffer.from('not gzip at all, never decoded'),
          chunked,
        });
        expect(reply.status).toBe(401);
      }
    } finally {
      await client.close();
    }
  });

  test('a middleware that reads the body gets it decoded', async () => {
    const client = await transport.connect(application());
    try {
      const reply = await client.request('/peek', {
        method: 'POST',
        headers: json('br'),
        body: encode('br', '{"x":[1]}'),
      });
      expect(reply.json()).toEqual({ seen: { x: [1] } });
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(testServer === 'arbor')('over HTTP/2 (cleartext, node server)', () => {
  test.each(CODINGS)('%s: decoded, and the limit counts decoded bytes', async (coding) => {
    const { server: _suite, ...base } = withEngine();
    const app = new Application({ ...base, http2: true, decompress: true, bodyLimit: LIMIT });
    app.post('/json', (req, res) => res.json({ body: req.json() }));
    const server = app.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const post = (body: Uint8Array) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/json',
        'content-type': 'application/json',
        'content-encoding': coding,
      });
      stream.end(body);
      return answerOf(stream);
    };
    try {
      const ok = await post(encode(coding, '{"h2":"yes"}'));
      expect(ok).toEqual({ status: 200, body: JSON.stringify({ body: { h2: 'yes' } }) });
      const over = await post(encode(coding, `"${'x'.repeat(LIMIT)}"`));
      expect(over.status).toBe(413);
    } finally {
      session.close();
      await server.closeGracefully(500);
    }
  });
});

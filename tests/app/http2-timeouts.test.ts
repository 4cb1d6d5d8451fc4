/**
 * `headersTimeout` and `requestTimeout` on the HTTP/2 server (`http2: true`), over real sockets: on its
 * HTTP/1.1 fallback (TLS without ALPN `h2`) a trickled head or body gets node:http's 408 and the
 * connection closes; over HTTP/2 (TLS and h2c) a trickled body gets a 408 on its stream, which is then
 * reset with NO_ERROR (the session carries on), a request whose answer already started is reset with
 * CANCEL, a head still arriving past `headersTimeout` closes the session, and a request that arrived whole
 * is never cut however long its answer takes. The handler never sees a body cut short.
 *
 * Timed bounds: the timeouts are short (500 ms, 1,000 ms); each wait gives up after {@link CAP_MS} and
 * each bound allows {@link SLACK_MS} beyond the configured time (the server checks on a period of a
 * quarter of `headersTimeout`, and a loaded machine is slow). Only the node server does HTTP/2: the file
 * is skipped in the `arbor-server` project.
 */
import http2, { type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type ArborServer, Response } from '../../ts/src/app/index.js';
import { testCertificate } from '../support/tls-cert.js';
import { withEngine } from './support/engine.js';
import { answerOf, frame, http11OverTls } from './support/http2-client.js';

const HEADERS_TIMEOUT = 500;
const REQUEST_TIMEOUT = 1_000;
const SLACK_MS = 2_500;
/** How long a wait lasts before the test calls the connection "never closed" (the defect's symptom). */
const CAP_MS = 8_000;

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** Bodies that reached a handler: a request cut short must never arrive as if whole. */
let handled: number[] = [];

function application(secure: boolean): Application {
  const { server: _suite, ...base } = withEngine();
  const app = new Application({
    ...base,
    ...(secure ? { tls: testCertificate() } : {}),
    http2: true,
    headersTimeout: HEADERS_TIMEOUT,
    requestTimeout: REQUEST_TIMEOUT,
    // Longer than any wait here: an idle-session timeout must not be what closes a trickling client.
    keepAliveTimeout: 30_000,
  });
  handled = [];
  app.post('/upload', (req, res) => {
    handled.push(req.rawBody().byteLength);
    return res.json({ bytes: req.rawBody().byteLength });
  });
  app.get('/hello', (_q, res) => res.send('hello'));
  // An answer that outlives the request timeout, to a request that arrived whole.
  app.post('/slow', async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT * 2));
    return res.json({ bytes: req.rawBody().byteLength });
  });
  // Answers (a live event stream) before the body is read, so its answer is under way while the body
  // still trickles in.
  app.alias('early', () =>
    new Response().sse(
      (async function* () {
        yield { data: 'open' };
        await new Promise(() => {});
      })(),
    ),
  );
  app.post('/early', (_q, res) => res.send('unreachable')).middleware('early');
  return app;
}

async function start(server: ArborServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => server.closeGracefully(200) });
  return (server.address() as AddressInfo).port;
}

/** Milliseconds until `socket` closes, or a rejection once {@link CAP_MS} have passed with it still open. */
function closeOf(socket: Socket, startedAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const cap = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after ${CAP_MS} ms`));
    }, CAP_MS);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(cap);
      resolve(performance.now() - startedAt);
    });
  });
}

/** `write` every 200 ms until `socket` closes (a client that is slow, never silent). */
function trickle(write: () => void, closed: { once(event: 'close', listener: () => void): unknown }): void {
  const timer = setInterval(write, 200);
  closed.once('close', () => clearInterval(timer));
}

function session(authority: string, secure: boolean): ClientHttp2Session {
  const client = http2.connect(authority, secure ? { ca: testCertificate().cert } : {});
  client.on('error', () => {});
  open.push({ close: () => void client.destroy() });
  return client;
}

interface StreamEnd {
  status: number;
  body: string;
  rstCode: number | undefined;
  ms: number;
}

/** A POST whose body never ends (a byte every 200 ms): what the server answers, and when the stream closes. */
function trickledPost(client: ClientHttp2Session, path: string): Promise<StreamEnd> {
  const startedAt = performance.now();
  const stream: ClientHttp2Stream = client.request({ ':method': 'POST', ':path': path });
  let status = 0;
  let body = '';
  stream.setEncoding('utf8');
  stream.on('response', (headers) => {
    status = Number(headers[':status']);
  });
  stream.on('data', (chunk: string) => {
    body += chunk;
  });
  stream.on('error', () => {});
  trickle(() => stream.write('a'), stream);
  return new Promise((resolve, reject) => {
    const cap = setTimeout(() => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`the stream was still open after ${CAP_MS} ms (status ${status})`));
    }, CAP_MS);
    stream.once('close', () => {
      clearTimeout(cap);
      resolve({ status, body, rstCode: stream.rstCode, ms: performance.now() - startedAt });
    });
  });
}

function get(client: ClientHttp2Session, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = client.request({ ':path': path });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      body += chunk;
    });
    stream.on('end', () => resolve(body));
    stream.on('error', reject);
  });
}

describe.skipIf(process.env.ARBOR_TEST_SERVER === 'arbor')(
  'http2: true enforces the request timeouts',
  () => {
    test('HTTP/1.1 fallback: a head trickled a line at a time gets 408 and the connection closes by headersTimeout', async () => {
      const port = await start(application(true).createServer());
      const socket = await http11OverTls(port);
      expect(socket.alpnProtocol).toBe('http/1.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      const startedAt = performance.now();
      socket.write('GET /hello HTTP/1.1\r\nHost: localhost\r\n');
      let line = 0;
      trickle(() => socket.write(`X-Line-${line++}: still coming\r\n`), socket);
      const ms = await closeOf(socket, startedAt);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms).toBeLessThan(HEADERS_TIMEOUT + SLACK_MS);
    });

    test('HTTP/1.1 fallback: a body trickled a byte at a time gets 408 by requestTimeout', async () => {
      const port = await start(application(true).createServer());
      const socket = await http11OverTls(port);
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      const startedAt = performance.now();
      socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n');
      trickle(() => socket.write('a'), socket);
      const ms = await closeOf(socket, startedAt);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(ms).toBeLessThan(REQUEST_TIMEOUT + SLACK_MS);
      expect(handled).toEqual([]);
    });

    test.each([
      ['h2 (TLS)', true],
      ['h2c (cleartext)', false],
    ])(
      '%s: a trickled body gets 408 on its stream, reset with NO_ERROR, by requestTimeout; the session carries on',
      async (_label, secure) => {
        const port = await start(application(secure).createServer());
        const client = session(`${secure ? 'https' : 'http'}://localhost:${port}`, secure);
        const end = await trickledPost(client, '/upload');
        expect(end.status).toBe(408);
        expect(JSON.parse(end.body)).toEqual({ error: 'Request Timeout', code: 408 });
        // NO_ERROR: "stop sending, and keep the answer" (a client must not discard it).
        expect(end.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
        expect(end.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 50);
        expect(end.ms).toBeLessThan(REQUEST_TIMEOUT + SLACK_MS);
        expect(handled).toEqual([]);
        // Only the stream was ended: the connection serves the next request.
        expect(await get(client, '/hello')).toBe('hello');
      },
    );

    test('h2: a trickled body whose answer is already under way: the stream is reset with CANCEL', async () => {
      const port = await start(application(true).createServer());
      const client = session(`https://localhost:${port}`, true);
      const end = await trickledPost(client, '/early');
      expect(end.status).toBe(200);
      expect(end.body).toContain('data: open');
      expect(end.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
      expect(end.ms).toBeLessThan(REQUEST_TIMEOUT + SLACK_MS);
      expect(await get(client, '/hello')).toBe('hello');
    });

    test('h2: a request that arrived whole is not cut, however long its answer takes', async () => {
      const port = await start(application(true).createServer());
      const client = session(`https://localhost:${port}`, true);
      const stream = client.request({ ':method': 'POST', ':path': '/slow' });
      stream.end('abc');
      const answer = await answerOf(stream);
      expect(answer).toEqual({ status: 200, body: '{"bytes":3}' });
    });

    test('h2c: a head still arriving after headersTimeout (a frame trickled a few bytes at a time) closes the session', async () => {
      const port = await start(application(false).createServer());
      const socket = netConnect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const frames: number[] = [];
      let answered: () => void = () => {};
      const firstAnswer = new Promise<void>((resolve) => {
        answered = resolve;
      });
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 9) {
          const length = buffered.readUIntBE(0, 3);
          if (buffered.length < 9 + length) break;
          frames.push(buffered[3] as number);
          if (buffered[3] === 0x1) answered(); // a response's HEADERS
          buffered = buffered.subarray(9 + length);
        }
      });
      socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
      socket.write(frame(0x4, 0, 0, Buffer.alloc(0))); // SETTINGS
      // A head (END_STREAM | END_HEADERS): GET, http, /, :authority localhost, then a literal `x-pad`
      // field that makes the frame long enough to trickle for seconds.
      const pad = Buffer.alloc(120, 0x61);
      const block = Buffer.concat([
        Buffer.from([0x82, 0x86, 0x84, 0x41, 0x09]),
        Buffer.from('localhost'),
        Buffer.from([0x00, 0x05]),
        Buffer.from('x-pad'),
        Buffer.from([pad.length]),
        pad,
      ]);
      // Sent whole on stream 1, it is answered: the head is well formed, and the session has a stream
      // already when the same head trickles in on stream 3.
      socket.write(frame(0x1, 0x5, 1, block));
      await firstAnswer;
      const startedAt = performance.now();
      const headers = frame(0x1, 0x5, 3, block);
      let sent = 0;
      trickle(() => {
        if (sent >= headers.length) return;
        socket.write(headers.subarray(sent, sent + 3));
        sent += 3;
      }, socket);
      const ms = await closeOf(socket, startedAt);
      expect(sent).toBeLessThan(headers.length); // the head was still incomplete
      expect(frames).toContain(0x7); // GOAWAY
      expect(ms).toBeLessThan(HEADERS_TIMEOUT + SLACK_MS);
    });
  },
);

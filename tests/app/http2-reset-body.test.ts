/**
 * A request body cut short by the client resetting its HTTP/2 stream (`http2: true`, h2c and h2 over
 * TLS) is the client leaving: 499 in the log, never a 500, and never a body handed to the handler as if it
 * were whole. Files written for an upload cut so are deleted, and the session serves the next request. A
 * body that arrives whole still reaches its handler intact.
 *
 * The bug: node:http2's compatibility request ends its readable side when its stream is reset, and reads
 * `complete`, so a multipart form whose bytes happened to be complete reached its handler (the stream
 * reset short of its declared length, or without END_STREAM), a form cut mid-file was a 400, and a JSON
 * body failed as a logged 500 ("Premature close").
 *
 * Two ways to cut a body. Node's own client (`stream.close(NGHTTP2_CANCEL)`) ends its side of the stream
 * (an empty DATA frame with END_STREAM) before it sends RST_STREAM: that is a cut only when the request
 * declared a longer Content-Length (node:http2 then refuses the short END_STREAM and resets the stream).
 * A raw client here sends RST_STREAM after DATA without END_STREAM (a client that cancels mid-upload
 * without ending its side first): a cut with or without Content-Length; or closes the connection mid-body. A body the client ended with END_STREAM is
 * whole, whatever follows (node's client sends that without a Content-Length: the handler runs).
 *
 * Only the node server does HTTP/2: the file is skipped in the `arbor-server` project.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http2, { type ClientHttp2Session } from 'node:http2';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type MemoryLogger, memoryLogger } from '../../ts/src/app/index.js';
import { testCertificate } from '../support/tls-cert.js';
import { withEngine } from './support/engine.js';
import { answerOf, frame } from './support/http2-client.js';

/** How long a wait lasts before the test gives up on what it waits for. */
const CAP_MS = 8_000;

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** Resolves once `value()` is defined, re-checked at each `wake()`; rejects after {@link CAP_MS}. */
class Signals {
  readonly #checks = new Set<() => void>();

  wake(): void {
    for (const check of this.#checks) check();
  }

  when<T>(what: string, value: () => T | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = value();
        if (found === undefined) return;
        this.#checks.delete(check);
        clearTimeout(cap);
        resolve(found);
      };
      const cap = setTimeout(() => {
        this.#checks.delete(check);
        reject(new Error(`${what}: not after ${CAP_MS} ms`));
      }, CAP_MS);
      this.#checks.add(check);
      check();
    });
  }
}

/** Resolves once `check` holds, polled every 10 ms: a folder's contents have no event to wait on. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + CAP_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${CAP_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Served {
  port: number;
  logger: MemoryLogger;
  /** Calls of each route's handler: a body cut short must never reach one. */
  handled: { json: number; upload: number };
  /** The folder uploads are written to. */
  folder: string;
  /** Resolves once the app has seen `count` requests arrive (before their bodies are read). */
  arrived(count: number): Promise<true>;
  /** The status of the `count`-th request to arrive, once it is settled (what the request log would write). */
  settled(count: number): Promise<number>;
}

async function serve(secure: boolean): Promise<Served> {
  const logger = memoryLogger();
  const folder = mkdtempSync(join(tmpdir(), 'arbor-h2-reset-'));
  const { server: _suite, ...base } = withEngine();
  const app = new Application({
    ...base,
    ...(secure ? { tls: testCertificate() } : {}),
    http2: true,
    logger,
    uploads: { tmpDir: folder },
  });
  const handled = { json: 0, upload: 0 };
  const signals = new Signals();
  const statuses: number[] = [];
  let seen = 0;
  app.middleware(async (req, handler) => {
    const index = seen++;
    signals.wake();
    const res = await handler.handle(req);
    statuses[index] = res.getStatus();
    signals.wake();
    return res;
  });
  app.post('/json', (req, res) => {
    handled.json++;
    return res.json({ bytes: req.rawBody().byteLength, body: req.json() });
  });
  app.post('/upload', (req, res) => {
    handled.upload++;
    return res.json({
      files: req.files().map((file) => ({ size: file.size, sha256: sha256(readFileSync(file.path)) })),
    });
  });
  app.get('/hello', (_q, res) => res.send('hello'));
  const server = app.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => server.closeGracefully(200) });
  return {
    port: (server.address() as AddressInfo).port,
    logger,
    handled,
    folder,
    arrived: (count) => signals.when(`request ${count} arriving`, () => (seen >= count ? true : undefined)),
    settled: (count) => signals.when(`request ${count} settling`, () => statuses[count - 1]),
  };
}

// --- node's own client ---

function nodeSession(port: number, secure: boolean): ClientHttp2Session {
  const client = http2.connect(
    `${secure ? 'https' : 'http'}://localhost:${port}`,
    secure ? { ca: testCertificate().cert } : {},
  );
  client.on('error', () => {});
  open.push({ close: () => void client.destroy() });
  return client;
}

// --- a raw client: frames written by hand ---

/** One field of a header block, HPACK "literal without indexing" with a static-table name, no Huffman. */
function field(nameIndex: number, value: string): Buffer {
  const name = nameIndex < 15 ? [nameIndex] : [0x0f, nameIndex - 15];
  return Buffer.concat([Buffer.from([...name, value.length]), Buffer.from(value, 'latin1')]);
}

/** HPACK's static table: the indexes used here. */
const AUTHORITY = 1;
const PATH = 4;
const CONTENT_LENGTH = 28;
const CONTENT_TYPE = 31;

const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;
const ACK = 0x1;

/** `:status` in a response's header block, when node:http2 sends it as a static-table entry. */
const INDEXED_STATUS = new Map([
  [0x88, 200],
  [0x89, 204],
  [0x8c, 400],
  [0x8d, 404],
  [0x8e, 500],
]);

/** An HTTP/2 client over a bare socket (h2c, or h2 over TLS), for resets node's client never sends. */
class RawSession {
  readonly #socket: Socket;
  readonly #secure: boolean;
  readonly #signals = new Signals();
  /** The first byte of each response head, by stream id. */
  readonly #heads = new Map<number, number>();
  #buffered = Buffer.alloc(0);

  private constructor(socket: Socket, secure: boolean) {
    this.#socket = socket;
    this.#secure = secure;
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    open.push({ close: () => void socket.destroy() });
  }

  static async open(port: number, secure: boolean): Promise<RawSession> {
    const socket = secure
      ? tlsConnect({
          port,
          host: '127.0.0.1',
          servername: 'localhost',
          ca: testCertificate().cert,
          ALPNProtocols: ['h2'],
        })
      : netConnect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once(secure ? 'secureConnect' : 'connect', resolve));
    const session = new RawSession(socket, secure);
    socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    socket.write(frame(SETTINGS, 0, 0, Buffer.alloc(0)));
    return session;
  }

  /** Sends a request head; `fields` beyond the pseudo-header fields as [static index, value]. */
  head(streamId: number, method: 'GET' | 'POST', path: string, fields: [number, string][], end: boolean) {
    const block = Buffer.concat([
      // Indexed: `:method` GET (2) or POST (3), `:scheme` http (6) or https (7).
      Buffer.from([method === 'GET' ? 0x82 : 0x83, this.#secure ? 0x87 : 0x86]),
      field(PATH, path),
      field(AUTHORITY, 'localhost'),
      ...fields.map(([index, value]) => field(index, value)),
    ]);
    this.#socket.write(frame(HEADERS, END_HEADERS | (end ? END_STREAM : 0), streamId, block));
  }

  /** Sends body bytes, in frames of at most 16 KiB (the default maximum frame size), never ending the stream. */
  data(streamId: number, body: Buffer): void {
    for (let at = 0; at < body.length; at += 16_384)
      this.#socket.write(frame(DATA, 0, streamId, body.subarray(at, at + 16_384)));
  }

  /** Closes the connection (a FIN, no GOAWAY): the session is gone with its streams. */
  drop(): void {
    this.#socket.end();
  }

  reset(streamId: number, code: number): void {
    const payload = Buffer.alloc(4);
    payload.writeUInt32BE(code);
    this.#socket.write(frame(RST_STREAM, 0, streamId, payload));
  }

  /** The status of the response on `streamId`, once its head arrives. */
  async status(streamId: number): Promise<number> {
    const first = await this.#signals.when(`a response on stream ${streamId}`, () =>
      this.#heads.get(streamId),
    );
    return INDEXED_STATUS.get(first) ?? Number.NaN;
  }

  #read(chunk: Buffer): void {
    this.#buffered = Buffer.concat([this.#buffered, chunk]);
    while (this.#buffered.length >= 9) {
      const length = this.#buffered.readUIntBE(0, 3);
      if (this.#buffered.length < 9 + length) break;
      const type = this.#buffered[3];
      const flags = this.#buffered[4] as number;
      const streamId = this.#buffered.readUInt32BE(5) & 0x7fffffff;
      const payload = this.#buffered.subarray(9, 9 + length);
      this.#buffered = this.#buffered.subarray(9 + length);
      if (type === SETTINGS && (flags & ACK) === 0)
        this.#socket.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
      else if (type === HEADERS && !this.#heads.has(streamId)) {
        this.#heads.set(streamId, payload[0] as number);
        this.#signals.wake();
      }
    }
  }
}

// --- bodies ---

const BOUNDARY = 'arbor-h2-boundary';
const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const FILE = Buffer.alloc(40_000, 0x61);
/** A form with one file: every byte up to its closing boundary. */
const FORM = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  ),
  FILE,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

interface Route {
  name: string;
  path: '/json' | '/upload';
  type: string;
  /** What is sent before the reset. */
  sent: Buffer;
  /** Resolves once the server is reading the body (the request arrived; for an upload, its file is on disk). */
  reading(served: Served): Promise<unknown>;
}

const uploadStarted = (served: Served) =>
  until('the upload started writing', () => readdirSync(served.folder).length > 0);

const ROUTES: Route[] = [
  {
    name: 'JSON, 3 bytes',
    path: '/json',
    type: 'application/json',
    sent: Buffer.from('[1]'),
    reading: (served) => served.arrived(1),
  },
  {
    name: 'multipart, every byte of the form up to its closing boundary',
    path: '/upload',
    type: FORM_TYPE,
    sent: FORM,
    reading: uploadStarted,
  },
  {
    name: 'multipart, cut mid-file',
    path: '/upload',
    type: FORM_TYPE,
    sent: FORM.subarray(0, 20_000),
    reading: uploadStarted,
  },
];

interface Cut {
  name: string;
  /** Sends `route`'s head and bytes, resets once the server is reading, and returns the status of a next request on the same session. */
  run(served: Served, secure: boolean, route: Route): Promise<number>;
}

const CUTS: Cut[] = [
  {
    name: "node's client, Content-Length declared longer, close(CANCEL)",
    async run(served, secure, route) {
      const client = nodeSession(served.port, secure);
      const stream = client.request({
        ':method': 'POST',
        ':path': route.path,
        'content-type': route.type,
        'content-length': String(route.sent.length + 1000),
      });
      stream.on('error', () => {});
      stream.write(route.sent);
      await route.reading(served);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      const next = await answerOf(client.request({ ':path': '/hello' }));
      return next.status;
    },
  },
  {
    name: 'RST_STREAM without END_STREAM, Content-Length declared longer',
    async run(served, secure, route) {
      const raw = await RawSession.open(served.port, secure);
      raw.head(
        1,
        'POST',
        route.path,
        [
          [CONTENT_TYPE, route.type],
          [CONTENT_LENGTH, String(route.sent.length + 1000)],
        ],
        false,
      );
      raw.data(1, route.sent);
      await route.reading(served);
      raw.reset(1, http2.constants.NGHTTP2_CANCEL);
      raw.head(3, 'GET', '/hello', [], true);
      return raw.status(3);
    },
  },
  {
    name: 'RST_STREAM without END_STREAM, no Content-Length',
    async run(served, secure, route) {
      const raw = await RawSession.open(served.port, secure);
      raw.head(1, 'POST', route.path, [[CONTENT_TYPE, route.type]], false);
      raw.data(1, route.sent);
      await route.reading(served);
      raw.reset(1, http2.constants.NGHTTP2_CANCEL);
      raw.head(3, 'GET', '/hello', [], true);
      return raw.status(3);
    },
  },
  {
    name: 'the connection closed mid-body',
    async run(served, secure, route) {
      const raw = await RawSession.open(served.port, secure);
      raw.head(1, 'POST', route.path, [[CONTENT_TYPE, route.type]], false);
      raw.data(1, route.sent);
      await route.reading(served);
      raw.drop();
      // A new session, then.
      const next = await RawSession.open(served.port, secure);
      next.head(1, 'GET', '/hello', [], true);
      return next.status(1);
    },
  },
];

const PROTOCOLS = [
  { protocol: 'h2c', secure: false },
  { protocol: 'h2 (TLS)', secure: true },
];

const CASES = PROTOCOLS.flatMap(({ protocol, secure }) =>
  ROUTES.flatMap((route) => CUTS.map((cut) => ({ protocol, secure, route, cut }))),
);

describe.skipIf(process.env.ARBOR_TEST_SERVER === 'arbor')('an HTTP/2 body cut by a stream reset', () => {
  test.each(CASES)(
    '$protocol, $route.name, $cut.name: 499, the handler never called, nothing left on disk',
    async ({ secure, route, cut }) => {
      const served = await serve(secure);
      const next = await cut.run(served, secure, route);
      expect(await served.settled(1)).toBe(499);
      expect(served.handled).toEqual({ json: 0, upload: 0 });
      expect(served.logger.errors.map((error) => error.message)).toEqual([]);
      // The server carries on: the next request, on a new stream of the same session (or on a new session
      // when the cut closed the connection), is answered.
      expect(next).toBe(200);
      await until('the upload deleted', () => readdirSync(served.folder).length === 0);
    },
  );

  test.each(PROTOCOLS)(
    '$protocol: a body that arrives whole reaches its handler intact',
    async ({ secure }) => {
      const served = await serve(secure);
      const client = nodeSession(served.port, secure);
      const json = JSON.stringify({ title: 'x'.repeat(50_000) });
      const posted = client.request({
        ':method': 'POST',
        ':path': '/json',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(json)),
      });
      posted.end(json);
      const answer = await answerOf(posted);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ bytes: Buffer.byteLength(json), body: JSON.parse(json) });

      // Without Content-Length too (its end is END_STREAM alone).
      const upload = client.request({ ':method': 'POST', ':path': '/upload', 'content-type': FORM_TYPE });
      upload.end(FORM);
      const uploaded = await answerOf(upload);
      expect(uploaded.status).toBe(200);
      expect(JSON.parse(uploaded.body)).toEqual({ files: [{ size: FILE.length, sha256: sha256(FILE) }] });
      expect(served.handled).toEqual({ json: 1, upload: 1 });
      expect(served.logger.errors).toEqual([]);
      // Deleted once the answer is out.
      await until('the upload deleted', () => readdirSync(served.folder).length === 0);
    },
  );
});

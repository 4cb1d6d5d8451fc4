/**
 * WebSocket test helpers: an application on a loopback port (closed after each test, its WebSockets
 * first), a real `ws` client told as promises, and the raw bytes of a handshake and of a client frame for
 * what `ws`'s client will not send (a malformed key, a frame in the same write as the head).
 */
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { Application, type ApplicationConfig, memoryLogger } from '../../../ts/src/app/index.js';
import { withEngine } from './engine.js';
import { listen } from './transport.js';

export interface Served {
  app: Application;
  port: number;
  logger: ReturnType<typeof memoryLogger>;
  /** `ws://127.0.0.1:<port><path>`. */
  url(path: string): string;
}

/**
 * `start(setup, config)`: an application on the engine and server under test, listening on loopback;
 * after each test its WebSockets are closed, then its server, then the clients left open.
 */
export function webSocketStarter(): (
  setup: (app: Application) => void,
  config?: ApplicationConfig,
) => Promise<Served> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (setup, config = {}) => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger, ...config }));
    setup(app);
    const { server, port } = await listen(app);
    cleanups.push(async () => {
      await app.webSockets.closeAll(200);
      await server.closeGracefully(500);
    });
    return { app, port, logger, url: (path) => `ws://127.0.0.1:${port}${path}` };
  };
}

const clients = new Set<WebSocket>();
afterEach(() => {
  for (const client of clients) client.terminate();
  clients.clear();
});

/** A `ws` client, open (rejects with the status when the server answers the handshake otherwise). */
export function openSocket(url: string, options: WebSocket.ClientOptions & { protocols?: string[] } = {}) {
  const { protocols, ...rest } = options;
  const socket = new WebSocket(url, protocols ?? [], rest);
  clients.add(socket);
  queue(socket);
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`the handshake was answered ${response.statusCode}`)),
    );
  });
}

export interface Refusal {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** The HTTP answer the server gave instead of `101` (rejects if the handshake succeeds). */
export function refusedHandshake(url: string, headers: Record<string, string> = {}): Promise<Refusal> {
  const socket = new WebSocket(url, { headers });
  clients.add(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the handshake succeeded')));
    socket.once('error', () => {}); // ws reports the refusal as an error too, after 'unexpected-response'
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
}

export interface Message {
  data: Buffer;
  isBinary: boolean;
}

interface Inbox {
  arrived: Message[];
  waiting: ((message: Message) => void)[];
}

const inboxes = new WeakMap<WebSocket, Inbox>();

/**
 * Keeps every message from the start: a server that sends at once may have its first message arrive in
 * the same read as the 101, emitted before the test can listen.
 */
function queue(socket: WebSocket): void {
  const inbox: Inbox = { arrived: [], waiting: [] };
  inboxes.set(socket, inbox);
  socket.on('message', (data, isBinary) => {
    const message = { data: data as Buffer, isBinary };
    const waiter = inbox.waiting.shift();
    if (waiter === undefined) inbox.arrived.push(message);
    else waiter(message);
  });
}

/** The next message the client receives (of a socket from {@link openSocket}). */
export function nextMessage(socket: WebSocket): Promise<Message> {
  const inbox = inboxes.get(socket);
  if (inbox === undefined) throw new Error('not a socket from openSocket()');
  const message = inbox.arrived.shift();
  if (message !== undefined) return Promise.resolve(message);
  return new Promise((resolve) => inbox.waiting.push(resolve));
}

/** The close code and reason the client sees. */
export function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) resolve({ code: 1006, reason: '' });
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
}

/** The head of a WebSocket handshake for `path`, with `extra` header lines (each ending in CRLF). */
export function handshakeHead(
  path: string,
  { key = 'dGhlIHNhbXBsZSBub25jZQ==', version = '13', extra = '' } = {},
): string {
  return (
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: ${version}\r\n${extra}\r\n`
  );
}

/** A masked client frame (RFC 6455 §5.2), payload under 64 KiB. `opcode` 1 is text, 2 binary, 8 close. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
  return Buffer.concat([header, mask, masked]);
}

/** A raw connection: what it received so far, and whether the server closed it. */
export interface RawConnection {
  socket: Socket;
  received(): Buffer;
  /** Resolves when `predicate` holds of the bytes received (or the connection closed, then checks once). */
  until(predicate: (bytes: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
  ended: Promise<void>;
}

/** Connects and writes `payload` in one write. */
export function rawConnection(port: number, payload: Buffer | string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const waiters: (() => void)[] = [];
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      for (const waiter of waiters.splice(0)) waiter();
    });
    socket.on('error', () => {});
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    ended.then(() => {
      for (const waiter of waiters.splice(0)) waiter();
    });
    let closed = false;
    ended.then(() => {
      closed = true;
    });
    const received = () => Buffer.concat(chunks);
    const until = (predicate: (bytes: Buffer) => boolean, timeoutMs = 3000) =>
      new Promise<Buffer>((done, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`timed out; received ${JSON.stringify(received().toString('latin1'))}`)),
          timeoutMs,
        );
        const check = () => {
          const bytes = received();
          if (predicate(bytes) || closed) {
            clearTimeout(timer);
            done(bytes);
          } else waiters.push(check);
        };
        check();
      });
    socket.once('connect', () => {
      socket.write(payload);
      resolve({ socket, received, until, ended });
    });
    socket.once('error', reject);
  });
}

/**
 * The own server's upgrade hand-over (`IncomingInput.upgrade`): a dispatch that takes the connection gets
 * its socket in the state node:http's `'upgrade'` event gives it, and the bytes after the head; `ws`
 * then speaks WebSocket on it exactly as behind node:http. Nobody taking it: answered, then closed.
 */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { ArborServer } from '../../ts/src/http/app-server.js';
import type { Dispatch, IncomingInput, OutgoingResponse } from '../../ts/src/http/dispatch.js';
import { createWireServer } from '../../ts/src/http/wire/server.js';
import { parseResponses } from './support/raw-exchange.js';

const answer = (status: number, body = ''): OutgoingResponse => ({
  getStatus: () => status,
  getHeaders: () => ({ 'Content-Type': 'text/plain' }),
  getBody: () => body,
});

/** What ws reads of node's request: the method, the target and the headers. */
const requestOf = (input: IncomingInput) =>
  ({
    method: input.method,
    url: input.target,
    headers: Object.fromEntries(input.headers.all()),
  }) as unknown as IncomingMessage;

let server: ArborServer | undefined;
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws) => ws.on('message', (data) => ws.send(`echo:${String(data)}`)));
afterEach(async () => {
  for (const client of wss.clients) client.terminate();
  await server?.closeGracefully(200);
  server = undefined;
});

/** The own server with `dispatch`, short timeouts: a detached connection must outlive them. */
async function serve(dispatch: Dispatch): Promise<number> {
  const errors: unknown[] = [];
  server = createWireServer(
    dispatch,
    { error: (_m, e) => errors.push(e) },
    {
      headersTimeout: 200,
      requestTimeout: 200,
      keepAliveTimeout: 200,
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Takes the connection on `/ws` (after `delayMs` when given) and hands it to ws. */
function upgrading(delayMs?: number): Dispatch & { heads: Buffer[] } {
  const heads: Buffer[] = [];
  const take = (input: IncomingInput) => {
    const channel = input.upgrade;
    if (input.target !== '/ws' || channel === undefined) return answer(200, 'plain');
    expect(channel.protocol).toBe('websocket');
    const { socket, head } = channel.take();
    expect(channel.taken).toBe(true);
    expect(() => channel.take()).toThrow(/already taken/);
    // A copy: ws unmasks the frames it reads in place.
    heads.push(Buffer.from(head));
    wss.handleUpgrade(requestOf(input), socket, head, (ws) => wss.emit('connection', ws));
    // Whatever comes back now is not written: the connection is no longer HTTP's.
    return answer(500, 'never written');
  };
  const dispatch = (input: IncomingInput) =>
    delayMs === undefined
      ? take(input)
      : new Promise<OutgoingResponse>((resolve) => setTimeout(() => resolve(take(input)), delayMs));
  return Object.assign(dispatch, { heads });
}

const handshake = (path = '/ws') =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';

/** A masked text frame, as a client sends it (RFC 6455 §5.2). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = payload.map((byte, i) => byte ^ (mask[i % 4] as number));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.byteLength]), mask, masked]);
}

/** Reads from `socket` until `done(received)`. */
async function readUntil(socket: Socket, done: (received: Buffer) => boolean): Promise<Buffer> {
  let received = Buffer.alloc(0);
  while (!done(received)) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    received = Buffer.concat([received, chunk]);
  }
  return received;
}

/** The text frames the server sent after its 101 (unmasked, short). */
function serverFrames(received: Buffer): string[] {
  const end = received.indexOf('\r\n\r\n');
  const texts: string[] = [];
  let at = end + 4;
  while (at + 2 <= received.byteLength) {
    const length = (received[at + 1] as number) & 0x7f;
    if (at + 2 + length > received.byteLength) break;
    texts.push(received.toString('utf8', at + 2, at + 2 + length));
    at += 2 + length;
  }
  return texts;
}

describe.skipIf(process.env.ARBOR_TEST_SERVER !== undefined)('the own server hands an upgrade over', () => {
  test('a ws client exchanges messages, past every HTTP timeout of the server', async () => {
    const port = await serve(upgrading());
    const client = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await once(client, 'open');
    const replies: string[] = [];
    client.on('message', (data) => replies.push(String(data)));
    for (const text of ['one', 'two', 'three']) {
      client.send(text);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // 600 ms: three times the keep-alive, head and request timeouts, none of which applies any more.
    expect(replies).toEqual(['echo:one', 'echo:two', 'echo:three']);
    client.close();
    await once(client, 'close');
  });

  test.each([
    { name: 'taken at once', delayMs: undefined },
    { name: 'taken after the frame arrived', delayMs: 50 },
  ])('the first frame in the same packet as the head reaches ws ($name)', async ({ delayMs }) => {
    const dispatch = upgrading(delayMs);
    const port = await serve(dispatch);
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(Buffer.concat([Buffer.from(handshake()), clientFrame('early')]));
    const received = await readUntil(socket, (bytes) => serverFrames(bytes).length > 0);
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(serverFrames(received)).toEqual(['echo:early']);
    expect(dispatch.heads.map((head) => head.equals(clientFrame('early')))).toEqual([true]);
    socket.destroy();
  });

  test('a connection handed over leaves the server: its graceful close neither ends nor cuts it', async () => {
    const port = await serve(upgrading());
    const client = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await once(client, 'open');
    const closing = (server as ArborServer).closeGracefully(100);
    server = undefined;
    // Past the grace period, after which the server cuts every connection it still holds.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.readyState).toBe(WebSocket.OPEN);
    client.send('still');
    const [reply] = (await once(client, 'message')) as [Buffer];
    expect(String(reply)).toBe('echo:still');
    client.close();
    // node:net's close waits for every socket, handed over or not: it resolves once the client is gone.
    await closing;
  });

  test('an upgrade nobody takes: answered with Connection: close, then closed; what follows is not read', async () => {
    const port = await serve(upgrading());
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`${handshake('/plain')}GET /plain HTTP/1.1\r\nHost: x\r\n\r\n`);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await once(socket, 'close');
    const { responses, leftover } = parseResponses(Buffer.concat(chunks));
    expect(responses.map((r) => [r.status, r.headers.connection, r.body.toString()])).toEqual([
      [200, 'close', 'plain'],
    ]);
    expect(leftover.byteLength).toBe(0);
  });

  test('a request with a body that asks to upgrade is offered no channel', async () => {
    let offered: boolean | undefined;
    const port = await serve((input) => {
      offered = input.upgrade !== undefined;
      return answer(200, 'plain');
    });
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /ws HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\n{}',
    );
    socket.resume();
    await once(socket, 'close');
    expect(offered).toBe(false);
  });
});

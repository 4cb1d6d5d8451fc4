/**
 * WebSocket routes after the handshake, on a real server on loopback: many messages in order, binary
 * frames, a first frame that arrives in the same packet as the handshake's head, closing from either side,
 * closing every socket at shutdown (1001), the options (maxPayload, subprotocols). Runs on both servers.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from '../../ts/src/app/index.js';
import {
  clientFrame,
  closed,
  handshakeHead,
  nextMessage,
  openSocket,
  rawConnection,
  refusedHandshake,
  webSocketStarter,
} from './support/websocket.js';

const start = webSocketStarter();

const echo = (socket: WebSocket) =>
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));

describe('app.ws: messages', () => {
  it('echoes 1,000 messages in order, sent without waiting', async () => {
    const { url } = await start((app) => app.ws('/echo', echo));
    const socket = await openSocket(url('/echo'));
    for (let i = 0; i < 1000; i++) socket.send(`message ${i}`);
    for (let i = 0; i < 1000; i++) expect((await nextMessage(socket)).data.toString()).toBe(`message ${i}`);
  });

  it('echoes binary frames byte for byte, as binary', async () => {
    const { url } = await start((app) => app.ws('/echo', echo));
    const socket = await openSocket(url('/echo'));
    for (const size of [0, 1, 125, 126, 65_535, 65_536, 300_000]) {
      const payload = randomBytes(size);
      socket.send(payload);
      const reply = await nextMessage(socket);
      expect(reply.isBinary).toBe(true);
      expect(reply.data.equals(payload)).toBe(true);
    }
  });

  it('reads a first frame that arrives in the same write as the handshake (the head)', async () => {
    const { port } = await start((app) =>
      app.ws('/echo', (socket) => socket.on('message', (data) => socket.send(`got ${data}`))),
    );
    const frame = clientFrame(1, Buffer.from('early'));
    const connection = await rawConnection(port, Buffer.concat([Buffer.from(handshakeHead('/echo')), frame]));
    // The 101, then an unmasked text frame: FIN + text, length 9, "got early".
    const expected = Buffer.concat([Buffer.from([0x81, 9]), Buffer.from('got early')]);
    const bytes = await connection.until((received) => received.includes(expected));
    const text = bytes.toString('latin1');
    expect(text).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(text).toContain('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(bytes.includes(expected)).toBe(true);
    connection.socket.destroy();
  });
});

describe('app.ws: closing', () => {
  it('the client closes: the server sees its code and reason', async () => {
    let seen: Promise<{ code: number; reason: string }> | undefined;
    const { url, app } = await start((app) =>
      app.ws('/echo', (socket) => {
        seen = new Promise((resolve) =>
          socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
        );
      }),
    );
    const socket = await openSocket(url('/echo'));
    socket.close(4000, 'bye');
    expect(await closed(socket)).toEqual({ code: 4000, reason: 'bye' });
    await expect.poll(() => seen).toBeDefined();
    expect(await seen).toEqual({ code: 4000, reason: 'bye' });
    await expect.poll(() => app.webSockets.size).toBe(0);
  });

  it('the server closes: the client sees its code and reason', async () => {
    const { url } = await start((app) => app.ws('/bye', (socket) => socket.close(4001, 'done')));
    const socket = await openSocket(url('/bye'));
    expect(await closed(socket)).toEqual({ code: 4001, reason: 'done' });
  });

  it('a client that vanishes (TCP reset) is forgotten; the server goes on', async () => {
    const { url, app } = await start((app) => app.ws('/echo', echo));
    const gone = await openSocket(url('/echo'));
    await expect.poll(() => app.webSockets.size).toBe(1);
    gone.terminate();
    await expect.poll(() => app.webSockets.size).toBe(0);
    const socket = await openSocket(url('/echo'));
    const reply = nextMessage(socket);
    socket.send('ok');
    expect((await reply).data.toString()).toBe('ok');
  });

  it('closeAll() closes every socket with 1001 Going Away and refuses new handshakes with 503', async () => {
    const { url, app } = await start((app) => {
      app.ws('/a', echo);
      app.group('/g', (g) => g.ws('/b', echo));
    });
    const sockets = await Promise.all([
      openSocket(url('/a')),
      openSocket(url('/g/b')),
      openSocket(url('/a')),
    ]);
    await expect.poll(() => app.webSockets.size).toBe(3);
    const closing = sockets.map(closed);
    await app.webSockets.closeAll(2000);
    for (const close of await Promise.all(closing))
      expect(close).toEqual({ code: 1001, reason: 'Server shutting down' });
    expect(app.webSockets.size).toBe(0);
    const late = await refusedHandshake(url('/a'));
    expect(late.status).toBe(503);
  });

  it('closeAll() cuts a client that never answers the close frame after the grace period', async () => {
    const { port, app } = await start((app) => app.ws('/echo', echo));
    // A raw client: it completes the handshake and then never reads nor answers.
    const connection = await rawConnection(port, handshakeHead('/echo'));
    await connection.until((bytes) => bytes.includes('\r\n\r\n'));
    await expect.poll(() => app.webSockets.size).toBe(1);
    const started = Date.now();
    await app.webSockets.closeAll(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await connection.ended;
    expect(app.webSockets.size).toBe(0);
  });
});

describe('app.ws: options', () => {
  it('maxPayload: a larger message closes the connection with 1009', async () => {
    const { url } = await start((app) => app.ws('/small', echo, { maxPayload: 1024 }));
    const socket = await openSocket(url('/small'));
    const reply = nextMessage(socket);
    socket.send(Buffer.alloc(1024, 1));
    expect((await reply).data.length).toBe(1024);
    socket.send(Buffer.alloc(1025, 1));
    expect((await closed(socket)).code).toBe(1009);
  });

  it('the default maxPayload is 1 MiB', async () => {
    const { url } = await start((app) => app.ws('/echo', echo));
    const socket = await openSocket(url('/echo'));
    socket.send(Buffer.alloc(1024 * 1024 + 1));
    expect((await closed(socket)).code).toBe(1009);
  });

  it('subprotocols: the first offered by default; handleProtocols picks with the request at hand', async () => {
    const { url } = await start((app) => {
      app.ws('/any', (socket) => socket.send(socket.protocol));
      app.ws('/:version', (socket) => socket.send(socket.protocol), {
        handleProtocols: (offered, req) =>
          offered.has(req.param('version') ?? '') ? (req.param('version') ?? false) : false,
      });
    });
    const first = await openSocket(url('/any'), { protocols: ['chat', 'superchat'] });
    expect((await nextMessage(first)).data.toString()).toBe('chat');
    const picked = await openSocket(url('/superchat'), { protocols: ['chat', 'superchat'] });
    expect(picked.protocol).toBe('superchat');
    expect((await nextMessage(picked)).data.toString()).toBe('superchat');
  });
});

/**
 * JSON bodies on the read path every transport shares (body.ts, body-loader.ts): what a faster read must
 * not change. The decoder is shared between requests, a Content-Type is read once per distinct value, a
 * body the own server already holds is parsed in the same turn, and node:http's body is read from its
 * events: each is checked here against what a client sees.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Application, type ArborServer, memoryLogger, requestLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { type Client, listen, transports } from './support/transport.js';

function buildApp(): Application {
  const app = new Application(withEngine({ bodyLimit: 4096 }));
  app.post('/json', (req, res) => res.json({ json: req.json() }));
  app.post('/keys', (req, res) => {
    const body = req.json<Record<string, unknown>>();
    return res.json({
      own: Object.keys(body),
      prototypeIsObject: Object.getPrototypeOf(body) === Object.prototype,
      polluted: ({} as Record<string, unknown>).polluted !== undefined,
    });
  });
  app.post('/body', (req, res) => res.json({ body: req.body() }));
  return app;
}

describe.each(transports)('JSON bodies over $name', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await transport.connect(buildApp());
  });
  afterAll(() => client.close());
  const post = (path: string, body: string | Uint8Array, contentType: string) =>
    client.request(path, { method: 'POST', headers: { 'Content-Type': contentType }, body });

  test('invalid UTF-8 is a 400, and the next body decodes as if nothing happened', async () => {
    const bad = await post(
      '/json',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      'application/json',
    );
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/invalid UTF-8/);
    const good = await post('/json', '{"a":"café ✓"}', 'application/json');
    expect(good.status).toBe(200);
    expect(good.json()).toEqual({ json: { a: 'café ✓' } });
  });

  test('a byte-order mark before the JSON is dropped, not a syntax error', async () => {
    const reply = await post(
      '/json',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"b":2}')]),
      'application/json',
    );
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ json: { b: 2 } });
  });

  test("malformed JSON is a 400 that carries the parser's message", async () => {
    const reply = await post('/json', '{"c":', 'application/json');
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatch(/^Malformed JSON body: .*JSON/);
  });

  test('Content-Types that change from one request to the next are each read for what they say', async () => {
    const sequence: [string | Uint8Array, string, unknown][] = [
      ['{"d":1}', 'application/json', { body: { d: 1 } }],
      [Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=latin1', { body: 'café' }],
      ['{"d":2}', 'application/json', { body: { d: 2 } }],
      ['x=1&x=2', 'application/x-www-form-urlencoded', { body: { x: ['1', '2'] } }],
      ['{"d":3}', 'Application/JSON; charset=UTF-8', { body: { d: 3 } }],
      ['héllo', 'text/plain; charset=utf-8', { body: 'héllo' }],
      ['{"d":4}', 'application/json', { body: { d: 4 } }],
    ];
    for (const [body, type, expected] of sequence) {
      const reply = await post('/body', body, type);
      expect(reply.status, type).toBe(200);
      expect(reply.json(), type).toEqual(expected);
    }
  });

  test('__proto__, constructor and prototype keys are plain data: no prototype is set or polluted', async () => {
    const reply = await post(
      '/keys',
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"prototype":{"polluted":1}}',
      'application/json',
    );
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      own: ['__proto__', 'constructor', 'prototype'],
      prototypeIsObject: true,
      polluted: false,
    });
  });
});

describe('a JSON body over a socket, as it arrives', () => {
  let server: ArborServer | undefined;
  afterEach(async () => {
    await server?.closeGracefully(500);
    server = undefined;
  });

  async function start() {
    const logger = memoryLogger();
    let handled = 0;
    const app = new Application(withEngine({ logger }));
    app.middleware(requestLogger({ logger }));
    app.post('/orders', (req, res) => {
      handled++;
      return res.json({ items: req.json<{ items: unknown[] }>().items.length });
    });
    const listening = await listen(app);
    server = listening.server;
    return { port: listening.port, logger, handled: () => handled };
  }

  /** Writes `parts` one after the other, `gapMs` apart, and reads until the server closes. */
  async function trickle(port: number, parts: string[], gapMs: number): Promise<string> {
    const socket: Socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    const closed = once(socket, 'close');
    for (const part of parts) {
      if (socket.destroyed) break;
      socket.write(part);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    await closed;
    return Buffer.concat(chunks).toString('utf8');
  }

  test('a body sent in several writes is read whole, in order', async () => {
    const { port } = await start();
    const body = JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ sku: `s${i}`, qty: i })) });
    const head = `POST /orders HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const thirds = [body.slice(0, 100), body.slice(100, 400), body.slice(400)];
    const raw = await trickle(port, [head, ...thirds], 30);
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.endsWith('{"items":40}')).toBe(true);
  });

  test('a chunked body past the limit in its second chunk is a 413, read no further', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger, bodyLimit: 64 }));
    app.post('/orders', (req, res) => res.json(req.json()));
    const listening = await listen(app);
    server = listening.server;
    const head =
      'POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = (data: string) => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;
    // 40 bytes, then 40 more: the limit (64) is crossed in the second chunk.
    const first = chunk(`{"a":"${'x'.repeat(32)}",`);
    const raw = await trickle(listening.port, [head, first, chunk(`"b":"${'y'.repeat(34)}"`)], 30);
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(logger.errors).toEqual([]);
  });

  test('a client that ends its side mid-body is no server error, and the server serves on', async () => {
    const { port, logger, handled } = await start();
    const socket: Socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.write(
      'POST /orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"items":[',
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.end();
    await once(socket, 'close');
    const deadline = Date.now() + 5000;
    while (logger.lines.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(handled()).toBe(0);
    expect(logger.errors).toEqual([]);
    for (const line of logger.lines) expect(line).not.toMatch(/ 5\d\d /);
    const next = await fetch(`http://127.0.0.1:${port}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"items":[1,2]}',
    });
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ items: 2 });
  });
});

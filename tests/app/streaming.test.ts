/**
 * Streamed bodies on every transport (the node:http server, Arbor's own server in the `arbor-server`
 * project, and `app.fetch()`): framing, HEAD, an error midway, the client leaving, `req.signal`, and the
 * `timeout` middleware. Memory under a slow reader is measured in streaming-memory.test.ts.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, memoryLogger, timeout } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

const servers: { closeGracefully(ms: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.closeGracefully(200)));
});

async function serve(app: Application): Promise<{ port: number; base: string }> {
  const { server, port, base } = await listen(app);
  servers.push(server);
  return { port, base };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** The sources a handler may stream, each yielding `a`, `b`, `c`. */
const SOURCES: [string, () => Parameters<import('../../ts/src/app/index.js').Response['send']>[0]][] = [
  [
    'an async generator of strings and bytes',
    () =>
      (async function* () {
        yield 'a';
        yield bytes('b');
        yield 'c';
      })(),
  ],
  ['a Node Readable', () => Readable.from(['a', 'b', 'c'])],
  [
    'a web ReadableStream',
    () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of ['a', 'b', 'c']) controller.enqueue(bytes(part));
          controller.close();
        },
      }),
  ],
];

describe.each(SOURCES)('a body from %s', (_name, source) => {
  test('over HTTP: chunked, in order, and the connection serves the next request', async () => {
    const app = new Application(withEngine());
    app.get('/s', (_q, res) => res.send(source()));
    app.get('/ok', (_q, res) => res.send('ok'));
    const { port } = await serve(app);
    const reply = await rawRequest(
      port,
      'GET /s HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(reply.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply.head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(reply.head.toLowerCase()).not.toContain('content-length');
    expect(reply.head).toContain('Content-Type: application/octet-stream');
    // Chunks as sent (sizes in hex), the last chunk, then the next response.
    const [first, second] = reply.body.split('HTTP/1.1 ');
    expect(dechunk(first ?? '')).toBe('abc');
    expect(second).toMatch(/^200 [\s\S]*\r\n\r\nok$/);
  });

  test('through app.fetch(): a web stream of the same bytes', async () => {
    const app = new Application(withEngine());
    app.get('/s', (_q, res) => res.send(source()));
    const response = await app.fetch(new Request('http://x/s'));
    expect(response.status).toBe(200);
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(await response.text()).toBe('abc');
  });
});

/** The payload of a chunked body (checks each chunk's size line). */
function dechunk(raw: string): string {
  let rest = raw;
  let out = '';
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (Number.isNaN(size)) throw new Error(`not a chunk size: ${JSON.stringify(rest.slice(0, 20))}`);
    if (size === 0) {
      expect(rest.slice(line, line + 4)).toBe('\r\n\r\n');
      return out;
    }
    out += rest.slice(line + 2, line + 2 + size);
    expect(rest.slice(line + 2 + size, line + 4 + size)).toBe('\r\n');
    rest = rest.slice(line + 4 + size);
  }
}

describe('framing and HEAD', () => {
  test('a Content-Length set before send() frames the stream (no chunking)', async () => {
    const app = new Application(withEngine());
    app.get('/known', (_q, res) => res.header('Content-Length', 6).send(Readable.from(['abc', 'def'])));
    const { base } = await serve(app);
    const response = await fetch(`${base}/known`);
    expect(response.headers.get('content-length')).toBe('6');
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(await response.text()).toBe('abcdef');
  });

  test('HEAD: the head only, and the source is released unread', async () => {
    let pulled = 0;
    let source: AsyncGenerator<string> | undefined;
    const app = new Application(withEngine());
    app.get('/s', (_q, res) => {
      source = (async function* () {
        for (;;) {
          pulled++;
          yield 'x';
        }
      })();
      return res.send(source);
    });
    const { port } = await serve(app);
    const reply = await rawRequest(port, 'HEAD /s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
    // The GET would be streamed: the HEAD says no length (not a Content-Length of 0).
    expect(reply.head.toLowerCase()).not.toContain('content-length');
    expect(pulled).toBe(0);
    // Closed by the server: a generator that was returned answers `done` from then on.
    expect(await source?.next()).toEqual({ done: true, value: undefined });
  });

  test('an HTTP/1.0 client: the body ends with the connection', async () => {
    const app = new Application(withEngine());
    app.get('/s', (_q, res) => res.send(Readable.from(['one', 'two'])));
    const { port } = await serve(app);
    const reply = await rawRequest(port, 'GET /s HTTP/1.0\r\n\r\n');
    expect(reply.head.toLowerCase()).not.toContain('transfer-encoding');
    expect(reply.body).toBe('onetwo');
  });
});

describe('an error in the middle of a stream', () => {
  test('truncates the message (never a second response), is logged once, and the server goes on', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/fail', (_q, res) =>
      res.send(
        (async function* () {
          yield 'part';
          throw new Error('the source broke');
        })(),
      ),
    );
    app.get('/ok', (_q, res) => res.send('ok'));
    const { port, base } = await serve(app);
    const reply = await rawRequest(
      port,
      'GET /fail HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(reply.head).toMatch(/^HTTP\/1\.1 200 /);
    // The part that was sent, and no last chunk: a client knows the message was cut short.
    expect(reply.body).toContain('part');
    expect(reply.body).not.toContain('0\r\n\r\n');
    expect(reply.raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    await expect(fetch(`${base}/fail`).then((r) => r.text())).rejects.toThrow();
    expect(await (await fetch(`${base}/ok`)).text()).toBe('ok');
    await until(() => logger.errors.length === 2);
    expect(logger.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('the source broke'),
      expect.stringContaining('the source broke'),
    ]);
  });

  test('through app.fetch(): the body stream errors', async () => {
    const app = new Application(withEngine());
    app.get('/fail', (_q, res) =>
      res.send(
        (async function* () {
          yield 'part';
          throw new Error('the source broke');
        })(),
      ),
    );
    const response = await app.fetch(new Request('http://x/fail'));
    await expect(response.text()).rejects.toThrow('the source broke');
  });
});

describe('the client going away', () => {
  test('destroys the source (its finally runs) and fires req.signal', async () => {
    let finished = false;
    let aborted: unknown;
    const app = new Application(withEngine());
    app.get('/endless', (req, res) => {
      req.signal.addEventListener('abort', () => {
        aborted = req.signal.reason;
      });
      return res.send(
        (async function* () {
          try {
            for (;;) {
              yield 'tick\n';
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
          } finally {
            finished = true;
          }
        })(),
      );
    });
    const { port } = await serve(app);
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.destroy();
    await until(() => finished && aborted !== undefined);
    expect((aborted as DOMException).name).toBe('AbortError');
  });

  test('req.signal fires while the handler is still waiting, and not after a normal answer', async () => {
    const seen: string[] = [];
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const app = new Application(withEngine());
    app.get('/slow', async (req, res) => {
      started();
      await new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve()));
      seen.push('slow aborted');
      return res.send('too late');
    });
    app.get('/fast', (req, res) => {
      req.signal.addEventListener('abort', () => seen.push('fast aborted'));
      return res.send('ok');
    });
    const { port, base } = await serve(app);
    expect(await (await fetch(`${base}/fast`)).text()).toBe('ok');
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    // The client leaves once the handler is waiting: not before the request is in.
    await running;
    socket.destroy();
    await until(() => seen.includes('slow aborted'));
    expect(seen).toEqual(['slow aborted']);
  });
});

describe('timeout()', () => {
  test('a handler that does not answer in time: 503 JSON, and req.signal fires with a TimeoutError', async () => {
    let reason: unknown;
    const app = new Application(withEngine());
    app
      .get('/stuck', async (req, res) => {
        await new Promise<void>((resolve) =>
          req.signal.addEventListener('abort', () => {
            reason = req.signal.reason;
            resolve();
          }),
        );
        return res.send('late');
      })
      .middleware(timeout(100));
    app.get('/quick', (_q, res) => res.send('ok')).middleware(timeout(1000));
    const { base } = await serve(app);
    const stuck = await fetch(`${base}/stuck`);
    expect(stuck.status).toBe(503);
    expect(await stuck.json()).toEqual({
      error: 'The request took longer than 100 ms',
      code: 503,
    });
    expect((reason as DOMException).name).toBe('TimeoutError');
    expect(await (await fetch(`${base}/quick`)).text()).toBe('ok');
  });

  test('a stream still flowing at the deadline is cut; Server-Sent Events are not', async () => {
    const app = new Application(withEngine());
    app.middleware(timeout(150));
    const slowly = async function* () {
      for (let i = 0; i < 10; i++) {
        yield `${i}\n`;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    };
    app.get('/stream', (_q, res) => res.send(slowly()));
    app.get('/events', (_q, res) =>
      res.sse(
        (async function* () {
          for await (const i of slowly()) yield { data: i.trim() };
        })(),
      ),
    );
    const { base } = await serve(app);
    await expect(fetch(`${base}/stream`).then((r) => r.text())).rejects.toThrow();
    const events = await (await fetch(`${base}/events`)).text();
    expect(events.match(/^data: /gm)).toHaveLength(10);
  });

  test('refuses a deadline that is not a positive whole number of ms', () => {
    expect(() => timeout(0)).toThrow(RangeError);
    expect(() => timeout(1.5)).toThrow(/positive whole number/);
  });
});

describe('a handler that returns something else than its response', () => {
  test('is told to return the res it was given', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/wrong', () => ({ id: 1 }) as never);
    const response = await app.fetch(new Request('http://x/wrong'));
    expect(response.status).toBe(500);
    expect(logger.errors[0]?.message).toMatch(/return the `res` you were given/);
  });
});

/** Resolves once `condition` holds (polling), or fails after 5 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

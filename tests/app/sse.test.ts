/**
 * Server-Sent Events read by a Node client on both servers (and through `app.fetch()`): the encoding
 * (a table), headers, heartbeats while quiet, the source's `return()` when the client leaves, and
 * `Last-Event-ID` for resumption. The push form: order, when a send settles (only once the transport
 * took the event: a bare socket that reads nothing holds it back), close(), the bound on a client that
 * falls behind, the client leaving, one heartbeat timer per period. Chromium's EventSource reads them in
 * tests/browser/sse.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Application, encodeEvent, memoryLogger, type ServerSentEvent } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const servers: { closeGracefully(ms: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.closeGracefully(200)));
});

async function serve(app: Application): Promise<number> {
  const { server, port } = await listen(app);
  servers.push(server);
  return port;
}

describe('encodeEvent', () => {
  test.each<[string, ServerSentEvent, string]>([
    ['a string', { data: 'hello' }, 'data: hello\n\n'],
    ['JSON data', { data: { a: [1, 2] } }, 'data: {"a":[1,2]}\n\n'],
    ['a number', { data: 42 }, 'data: 42\n\n'],
    ['undefined data as null', { data: undefined }, 'data: null\n\n'],
    ['an empty string', { data: '' }, 'data: \n\n'],
    ['LF lines', { data: 'a\nb' }, 'data: a\ndata: b\n\n'],
    ['CRLF and CR lines', { data: 'a\r\nb\rc' }, 'data: a\ndata: b\ndata: c\n\n'],
    ['a trailing line break', { data: 'a\n' }, 'data: a\ndata: \n\n'],
    [
      'every field',
      { event: 'update', id: 7, retry: 1000, data: 'x' },
      'event: update\nid: 7\nretry: 1000\ndata: x\n\n',
    ],
    ['a colon in data', { data: ': not a comment' }, 'data: : not a comment\n\n'],
  ])('%s', (_name, event, wire) => {
    expect(encodeEvent(event)).toBe(wire);
  });

  test.each<[string, unknown, RegExp]>([
    ['a line break in the event type', { event: 'a\nb', data: 1 }, /event cannot contain a line break/],
    ['a line break in the id', { id: 'a\rb', data: 1 }, /id cannot contain a line break/],
    ['NUL in the id', { id: 'a\0b', data: 1 }, /id cannot contain NUL/],
    ['a negative retry', { retry: -1, data: 1 }, /retry must be a whole number/],
    ['a fractional retry', { retry: 1.5, data: 1 }, /retry must be a whole number/],
    ['not an object', 'hello', /must be an object/],
  ])('refuses %s', (_name, event, message) => {
    expect(() => encodeEvent(event as ServerSentEvent)).toThrow(message);
  });
});

/** Opens an event stream and collects what arrives until `done` says so. */
function readEvents(
  port: number,
  path: string,
  headers: Record<string, string>,
  done: (text: string) => boolean,
): Promise<{ response: IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (done(text)) {
          request.destroy();
          resolve({ response, text });
        }
      });
      response.on('end', () => resolve({ response, text }));
    });
    request.on('error', reject);
  });
}

describe('res.sse() over HTTP', () => {
  test('the head, events as they come, and Last-Event-ID readable by the handler', async () => {
    const app = new Application(withEngine());
    app.get('/events', (req, res) =>
      res.sse(
        (async function* () {
          yield { event: 'resume', data: { after: req.header('last-event-id') ?? null } };
          for (let id = 1; id <= 3; id++) {
            yield { id, data: `event ${id}` };
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })(),
      ),
    );
    const port = await serve(app);
    const { response, text } = await readEvents(port, '/events', { 'Last-Event-ID': '41' }, () => false);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(text).toBe(
      'event: resume\ndata: {"after":"41"}\n\n' +
        'id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: event 3\n\n',
    );
  });

  test('a comment heartbeat while the source is quiet, and only then', async () => {
    const app = new Application(withEngine());
    app.get('/quiet', (_req, res) =>
      res.sse(
        (async function* () {
          yield { data: 'hello' };
          await new Promise((resolve) => setTimeout(resolve, 60_000));
        })(),
        { heartbeatMs: 30 },
      ),
    );
    const port = await serve(app);
    const { text } = await readEvents(port, '/quiet', {}, (seen) => seen.split(':\n\n').length > 2);
    expect(text.startsWith('data: hello\n\n')).toBe(true);
    expect(text.slice('data: hello\n\n'.length)).toMatch(/^(:\n\n)+$/);
  });

  test('an iterator with its own return() is returned as soon as the client leaves', async () => {
    let returned = false;
    const app = new Application(withEngine());
    app.get('/manual', (_req, res) => {
      let sent = false;
      const source: AsyncIterable<ServerSentEvent> = {
        [Symbol.asyncIterator]: () => ({
          next: (): Promise<IteratorResult<ServerSentEvent>> => {
            // One event, then a wait that never ends: only return() can end this source.
            if (sent) return new Promise(() => undefined);
            sent = true;
            return Promise.resolve({ done: false, value: { data: 'only' } });
          },
          return: () => {
            returned = true;
            return Promise.resolve({ done: true, value: undefined });
          },
        }),
      };
      return res.sse(source, { heartbeatMs: 0 });
    });
    const port = await serve(app);
    await readEvents(port, '/manual', {}, (seen) => seen.includes('data: only'));
    const deadline = Date.now() + 5000;
    while (!returned && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(returned).toBe(true);
  });
});

test('through app.fetch(): the same bytes as a web stream', async () => {
  const app = new Application(withEngine());
  app.get('/events', (_req, res) =>
    res.sse(
      (async function* () {
        yield { data: 'a' };
        yield { event: 'b', data: [1] };
      })(),
    ),
  );
  const response = await app.fetch(new Request('http://x/events'));
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(await response.text()).toBe('data: a\n\nevent: b\ndata: [1]\n\n');
});

/** A promise and its resolver, for what a handler hands back to the test. */
function later<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Whether `promise` is still pending after the event loop's current turn. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const turn = new Promise((resolve) => setImmediate(resolve, PENDING));
  return (await Promise.race([promise, turn])) === PENDING;
}
const PENDING = Symbol('pending');

/** A GET on a bare socket that reads nothing until told: its kernel buffers fill, then the server's. */
function stalledGet(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Waits for the socket to close, reading (and dropping) whatever is left. */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.once('close', () => resolve());
    socket.resume();
  });
}

/** An event of 64 KiB never sent before, so that nothing on the way can share or shrink it. */
const fresh = (): ServerSentEvent => ({ data: randomBytes(48 * 1024).toString('base64') });

describe('res.sse(producer): the push form', () => {
  test('events in the order sent, each send settling true; the stream ends when the function returns', async () => {
    const settled: boolean[] = [];
    const app = new Application(withEngine());
    app.get('/events', (req, res) =>
      res.sse(async (events) => {
        settled.push(await events.send({ event: 'resume', data: { after: req.header('last-event-id') } }));
        for (let id = 1; id <= 3; id++) {
          settled.push(await events.send({ id, data: `event ${id}` }));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }),
    );
    const port = await serve(app);
    const { response, text } = await readEvents(port, '/events', { 'Last-Event-ID': '7' }, () => false);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(text).toBe(
      'event: resume\ndata: {"after":"7"}\n\n' +
        'id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: event 3\n\n',
    );
    expect(settled).toEqual([true, true, true, true]);
  });

  test('close() ends the stream after what was sent; a later send settles false', async () => {
    const after = later<{ sent: boolean; reason: string; aborted: boolean }>();
    const app = new Application(withEngine());
    app.get('/events', (_req, res) =>
      res.sse(async (events) => {
        void events.send({ data: 'one' });
        void events.send({ data: 'two' });
        events.close();
        const sent = await events.send({ data: 'three' });
        after.resolve({ sent, reason: await events.closed, aborted: events.signal.aborted });
        // The function goes on; the stream ended at close() all the same.
        await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
      }),
    );
    const port = await serve(app);
    const { text } = await readEvents(port, '/events', {}, () => false);
    expect(text).toBe('data: one\n\ndata: two\n\n');
    expect(await after.promise).toEqual({ sent: false, reason: 'ended', aborted: true });
  });

  test('a send waits while the client reads nothing, and settles true once it reads', async () => {
    // Wrapped: a promise resolved with a promise would wait for it.
    const blocked = later<{ sent: Promise<boolean> }>();
    const app = new Application(withEngine());
    app.get('/events', (_req, res) =>
      res.sse(async (events) => {
        // Each send settles at once while the transport takes it; the first that waits is the proof.
        for (;;) {
          const sent = events.send(fresh());
          if (await pending(sent)) {
            blocked.resolve({ sent });
            break;
          }
        }
        await events.closed;
      }),
    );
    const port = await serve(app);
    const socket = await stalledGet(port, '/events');
    const { sent } = await blocked.promise;
    expect(await pending(sent)).toBe(true);
    socket.on('data', () => undefined);
    socket.resume();
    expect(await sent).toBe(true);
    socket.destroy();
  });

  test('a client more than maxUnsentBytes behind is cut, and the cut logged', async () => {
    const reason = later<string>();
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/events', (_req, res) =>
      res.sse(
        async (events) => {
          void events.closed.then(reason.resolve);
          // A broadcast: sends without waiting for them.
          while (!events.signal.aborted) {
            void events.send(fresh());
            await new Promise((resolve) => setImmediate(resolve));
          }
        },
        { maxUnsentBytes: 256 * 1024 },
      ),
    );
    const port = await serve(app);
    const socket = await stalledGet(port, '/events');
    expect(await reason.promise).toBe('too-slow');
    await closed(socket);
    expect(logger.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/client fell more than 262144 bytes behind/),
    ]);
  });

  test('the client leaving fires req.signal and closes the handle', async () => {
    const seen = later<{ reason: string; request: boolean; handle: boolean; sent: boolean }>();
    const app = new Application(withEngine());
    app.get('/events', (req, res) =>
      res.sse(async (events) => {
        const left = new Promise((resolve) => req.signal.addEventListener('abort', resolve));
        await events.send({ data: 'hello' });
        const reason = await events.closed;
        await left;
        const sent = await events.send({ data: 'too late' });
        seen.resolve({ reason, request: req.signal.aborted, handle: events.signal.aborted, sent });
      }),
    );
    const port = await serve(app);
    await readEvents(port, '/events', {}, (text) => text.includes('data: hello'));
    expect(await seen.promise).toEqual({ reason: 'client-left', request: true, handle: true, sent: false });
  });

  test('one heartbeat timer for every stream of a period, cleared when the last one closes', async () => {
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    try {
      const closings: Promise<string>[] = [];
      const app = new Application(withEngine());
      app.get('/quiet', (_req, res) =>
        res.sse(
          async (events) => {
            closings.push(events.closed);
            await events.send({ data: 'hello' });
            await events.closed;
          },
          { heartbeatMs: 37 },
        ),
      );
      const port = await serve(app);
      const texts = await Promise.all(
        [0, 1, 2].map(() => readEvents(port, '/quiet', {}, (seen) => seen.split(':\n\n').length > 2)),
      );
      for (const { text } of texts) expect(text).toMatch(/^data: hello\n\n(:\n\n){2,}$/);
      const timers = setSpy.mock.results.filter((_r, i) => setSpy.mock.calls[i]?.[1] === 37);
      expect(timers).toHaveLength(1);
      expect(await Promise.all(closings)).toEqual(['client-left', 'client-left', 'client-left']);
      expect(clearSpy.mock.calls.filter(([timer]) => timer === timers[0]?.value)).toHaveLength(1);
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
  });

  test('a function that throws at once is a 500; one that fails later cuts the stream, logged', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/at-once', (_req, res) =>
      res.sse(() => {
        throw new Error('no feed');
      }),
    );
    app.get('/later', (_req, res) =>
      res.sse(async (events) => {
        await events.send({ data: 'one' });
        throw new Error('feed lost');
      }),
    );
    const port = await serve(app);
    const { response } = await readEvents(port, '/at-once', {}, () => false);
    expect(response.statusCode).toBe(500);
    const cut = await new Promise<string>((resolve) => {
      const request = get({ host: '127.0.0.1', port, path: '/later' }, (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          text += chunk;
        });
        answer.on('error', () => resolve(`${text}[cut]`));
        answer.on('end', () => resolve(`${text}[end]`));
      });
      request.on('error', () => resolve('[request error]'));
    });
    expect(cut).toBe('data: one\n\n[cut]');
    expect(logger.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/feed lost/));
  });

  test('HEAD: the head only, and the function hears the stream closed', async () => {
    const reason = later<string>();
    const app = new Application(withEngine());
    app.get('/events', (_req, res) =>
      res.sse(async (events) => {
        void events.send({ data: 'never sent' });
        reason.resolve(await events.closed);
      }),
    );
    const port = await serve(app);
    const response = await fetch(`http://127.0.0.1:${port}/events`, { method: 'HEAD' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe('');
    expect(await reason.promise).toBe('client-left');
  });
});

describe('res.sse(producer) through app.fetch()', () => {
  test('a send settles only once the reader takes the event; cancelling closes the handle', async () => {
    const first = later<{ sent: Promise<boolean> }>();
    const reason = later<string>();
    const app = new Application(withEngine());
    app.get('/events', (_req, res) =>
      res.sse(async (events) => {
        first.resolve({ sent: events.send({ id: 1, data: { a: 1 } }) });
        reason.resolve(await events.closed);
      }),
    );
    const response = await app.fetch(new Request('http://x/events'));
    const { sent } = await first.promise;
    expect(await pending(sent)).toBe(true);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('id: 1\ndata: {"a":1}\n\n');
    expect(await sent).toBe(true);
    await reader.cancel();
    expect(await reason.promise).toBe('client-left');
  });

  test('the same bytes as over HTTP, ending when the function returns', async () => {
    const app = new Application(withEngine());
    app.get('/events', (_req, res) =>
      res.sse(async (events) => {
        void events.send({ data: 'a' });
        await events.send({ event: 'b', data: [1] });
        void events.send({ data: 'two\nlines' });
      }),
    );
    const response = await app.fetch(new Request('http://x/events'));
    expect(await response.text()).toBe('data: a\n\nevent: b\ndata: [1]\n\ndata: two\ndata: lines\n\n');
  });
});

/**
 * Server-Sent Events read by a Node client on both servers (and through `app.fetch()`): the encoding
 * (a table), headers, heartbeats while quiet, the source's `return()` when the client leaves, and
 * `Last-Event-ID` for resumption. Chromium's EventSource reads them in tests/browser/sse.test.ts.
 */
import { get, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, encodeEvent, type ServerSentEvent } from '../../ts/src/app/index.js';
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

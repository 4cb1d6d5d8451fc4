/**
 * WebSocket routes (`app.ws`) on a real server on loopback, with a real `ws` client: the route is found by
 * the router (typed parameters, query, groups), the middleware runs before the handshake and can refuse
 * it with an HTTP status, a request without an upgrade gets 426, a malformed handshake `ws`'s 400, and a
 * handler that throws closes the socket with 1011 and is logged. Messages and closing:
 * websocket-frames.test.ts. Runs on both servers (the `arbor-server` project re-runs tests/app).
 */
import { describe, expect, it } from 'vitest';
import { Application, HttpError, type Middleware, Response } from '../../ts/src/app/index.js';
import { OpenApiExporter } from '../../ts/src/openapi/index.js';
import { withEngine } from './support/engine.js';
import { rawRequest } from './support/raw.js';
import {
  closed,
  handshakeHead,
  nextMessage,
  openSocket,
  rawConnection,
  refusedHandshake,
  webSocketStarter,
} from './support/websocket.js';

const start = webSocketStarter();

/** Refuses without `Authorization: Bearer good`; else sets `user`. */
const auth: Middleware = async (req, next) => {
  if (req.bearerToken() !== 'good')
    return new Response().status(401).json({ error: 'Unauthorized', code: 401 });
  req.set('user', { id: 7, name: 'ada' });
  return next.handle(req);
};

describe('app.ws: routing', () => {
  it('echoes over a real connection', async () => {
    const { url } = await start((app) => {
      app.ws('/echo', (socket) =>
        socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })),
      );
    });
    const socket = await openSocket(url('/echo'));
    const reply = nextMessage(socket);
    socket.send('hello');
    expect((await reply).data.toString()).toBe('hello');
  });

  it('gives the handler typed parameters, the query and the headers', async () => {
    const { url } = await start((app) => {
      app.ws('/rooms/:room/:page<int>?', (socket, req) => {
        const room: string = req.param('room');
        const page: string | undefined = req.param('page');
        // @ts-expect-error: not a parameter of the pattern
        req.param('nope');
        socket.send(
          JSON.stringify({ room, page: page ?? null, q: req.query('q'), ua: req.header('x-client') }),
        );
      });
    });
    const first = await openSocket(url('/rooms/l%C3%A9a?q=1&q=2'), { headers: { 'X-Client': 'test' } });
    expect(JSON.parse((await nextMessage(first)).data.toString())).toEqual({
      room: 'léa',
      page: null,
      q: '1',
      ua: 'test',
    });
    const second = await openSocket(url('/rooms/a/3'));
    expect(JSON.parse((await nextMessage(second)).data.toString())).toMatchObject({ room: 'a', page: '3' });
  });

  it('passes bound parameters after the request, resolved before the handshake (404 when none)', async () => {
    const rooms = new Map([['lobby', { title: 'The lobby' }]]);
    const { url } = await start((app) => {
      app
        .bind('room', (name) => rooms.get(name))
        .ws('/rooms/{room}', (socket, _req, room) => socket.send(room.title));
    });
    expect((await nextMessage(await openSocket(url('/rooms/lobby')))).data.toString()).toBe('The lobby');
    expect((await refusedHandshake(url('/rooms/attic'))).status).toBe(404);
  });

  it('works in groups: prefix, prefix parameters and group middleware before the handshake', async () => {
    const { url } = await start((app) => {
      app
        .group('/orgs/:org', (org) => {
          org.ws('/feed', (socket, req) => {
            const user = req.get<{ name: string }>('user');
            socket.send(`${req.param('org')}:${user?.name}`);
          });
        })
        .middleware(auth);
    });
    const socket = await openSocket(url('/orgs/acme/feed'), { headers: { Authorization: 'Bearer good' } });
    expect((await nextMessage(socket)).data.toString()).toBe('acme:ada');
    const refusal = await refusedHandshake(url('/orgs/acme/feed'));
    expect(refusal.status).toBe(401);
  });

  it('returns the Route: .name() generates its URL, .middleware() runs before the handshake', async () => {
    let opened = 0;
    const { app, url } = await start((app) => {
      app.alias('auth', auth);
      app
        .ws('/chat/:room', (socket) => {
          opened++;
          socket.close();
        })
        .name('chat')
        .middleware('auth');
    });
    expect(app.route('chat', { room: 'x y' })).toBe('/chat/x%20y');
    const refusal = await refusedHandshake(url('/chat/lobby'), { Authorization: 'Bearer bad' });
    expect(refusal.status).toBe(401);
    expect(refusal.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refusal.body)).toEqual({ error: 'Unauthorized', code: 401 });
    expect(opened).toBe(0);
    const row = app.routeTable().find((r) => r.name === 'chat');
    expect(row).toMatchObject({
      methods: ['GET'],
      pattern: '/chat/:room',
      middleware: ['auth'],
      webSocket: true,
    });
  });

  it('a middleware that throws an HttpError refuses with its status (403), and throttle with 429', async () => {
    const { url } = await start((app) => {
      app
        .ws('/admin', (socket) => socket.close())
        .middleware(() => {
          throw new HttpError(403, 'Admins only');
        });
      app.ws('/limited', (socket) => socket.close()).middleware('throttle:1,1');
    });
    const forbidden = await refusedHandshake(url('/admin'));
    expect([forbidden.status, JSON.parse(forbidden.body)]).toEqual([
      403,
      { error: 'Admins only', code: 403 },
    ]);
    const first = await openSocket(url('/limited'));
    await closed(first);
    const second = await refusedHandshake(url('/limited'));
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBeDefined();
  });

  it('a path no route matches is a 404, answered before any WebSocket', async () => {
    const { url } = await start((app) => {
      app.ws('/echo', (socket) => socket.close());
    });
    const refusal = await refusedHandshake(url('/nowhere'));
    expect(refusal.status).toBe(404);
  });
});

describe('app.ws: what is not a WebSocket handshake', () => {
  it('a plain GET gets 426 with Upgrade: websocket and the JSON error body', async () => {
    const { port } = await start((app) => {
      app.ws('/echo', (socket) => socket.close());
    });
    const res = await fetch(`http://127.0.0.1:${port}/echo`);
    expect(res.status).toBe(426);
    expect(res.headers.get('upgrade')).toBe('websocket');
    expect(await res.json()).toEqual({
      error: 'This is a WebSocket endpoint: connect with a WebSocket client',
      code: 426,
    });
  });

  it('the 426 carries Connection: Upgrade (RFC 9110 §7.8)', async () => {
    const { port } = await start((app) => {
      app.ws('/echo', (socket) => socket.close());
    });
    const res = await fetch(`http://127.0.0.1:${port}/echo`);
    expect(res.headers.get('connection')?.toLowerCase()).toContain('upgrade');
  });

  it('HEAD gets 426 without a body; another method 405', async () => {
    const { port } = await start((app) => {
      app.ws('/echo', (socket) => socket.close());
    });
    const head = await rawRequest(port, 'HEAD /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(head.status).toBe(426);
    expect(head.body).toBe('');
    const post = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('an upgrade to another protocol (h2c) gets 426 and the connection closes', async () => {
    const { port } = await start((app) => {
      app.ws('/echo', (socket) => socket.close());
    });
    const reply = await rawRequest(
      port,
      'GET /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n',
    );
    expect(reply.status).toBe(426);
    expect(reply.head).toMatch(/\r\nupgrade: websocket/i);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 426 });
  });

  it('a malformed handshake (bad key, bad version) gets a well-formed 400 and the connection closes', async () => {
    let opened = 0;
    const { port } = await start((app) => {
      app.ws('/echo', (socket) => {
        opened++;
        socket.close();
      });
    });
    for (const options of [{ key: 'not-a-key' }, { version: '12' }]) {
      const connection = await rawConnection(port, handshakeHead('/echo', options));
      await connection.ended;
      const raw = connection.received().toString('latin1');
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toMatch(/\r\nConnection: close/i);
      expect(Number(/\r\nContent-Length: (\d+)/i.exec(head)?.[1])).toBe(Buffer.byteLength(body));
      if (options.version !== undefined) expect(head).toMatch(/\r\nSec-WebSocket-Version: 13, 8/);
    }
    expect(opened).toBe(0);
  });
});

describe('app.ws: the handler fails', () => {
  it('a handler that throws closes the socket with 1011 and the error is logged, the server lives', async () => {
    const { url, logger } = await start((app) => {
      app.ws('/boom', () => {
        throw new Error('boom');
      });
      app.ws('/echo', (socket) => socket.on('message', (data) => socket.send(data)));
    });
    const socket = await openSocket(url('/boom'));
    expect((await closed(socket)).code).toBe(1011);
    await expect.poll(() => logger.errors.length).toBe(1);
    expect(logger.errors[0]?.error).toBeInstanceOf(Error);
    expect(logger.errors[0]?.error).toMatchObject({ message: 'boom' });
    expect(logger.errors[0]?.message).toContain('/boom');
    const echo = await openSocket(url('/echo'));
    const reply = nextMessage(echo);
    echo.send('still here');
    expect((await reply).data.toString()).toBe('still here');
  });

  it('an async handler that rejects closes with 1011 and is logged', async () => {
    const { url, logger } = await start((app) => {
      app.ws('/later', async (socket) => {
        socket.send('working');
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('later');
      });
    });
    const socket = await openSocket(url('/later'));
    expect((await nextMessage(socket)).data.toString()).toBe('working');
    expect((await closed(socket)).code).toBe(1011);
    await expect.poll(() => logger.errors.map((e) => (e.error as Error).message)).toEqual(['later']);
  });

  it('a handler that rejects with an HttpError still closes with 1011 (no HTTP answer can follow a 101)', async () => {
    const { url } = await start((app) => {
      app.ws('/http-error', () => {
        throw new HttpError(403, 'too late');
      });
    });
    const socket = await openSocket(url('/http-error'));
    expect((await closed(socket)).code).toBe(1011);
  });
});

describe('app.ws: the OpenAPI document', () => {
  it('documents a WebSocket route as a GET answering 101 (and 426), keeping documented statuses', () => {
    const app = new Application(withEngine({ openapi: { info: { title: 'T', version: '1' } } }));
    app.ws('/plain', (socket) => socket.close());
    /**
     * @summary Chat in a room
     * @response 401 Not signed in
     */
    app.ws('/chat/:room', (socket) => socket.close());
    const { paths } = OpenApiExporter.export(app);
    expect(paths['/plain']?.get?.responses).toEqual({
      '101': { description: 'Switching Protocols: the connection continues as a WebSocket' },
      '426': { description: 'Upgrade Required: the request is not a WebSocket handshake' },
    });
    const chat = paths['/chat/{room}']?.get;
    expect(chat?.summary).toBe('Chat in a room');
    expect(Object.keys(chat?.responses ?? {})).toEqual(['101', '401', '426']);
  });
});

/**
 * What README.md and the framework pages (docs/framework/) promise about HTTP, each checked over real HTTP on loopback
 * (fetch, or a bare socket where fetch or node:http would hide the answer). One test per promise; the
 * doc line it pins is in the title.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type ApplicationConfig, HttpError, memoryLogger } from '../../ts/src/app/index.js';
import { exchange, request } from '../support/raw-http.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const MiB = 1024 * 1024;
const SEVEN_VERBS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An application on a free loopback port, closed after the test. */
async function serve(setup: (app: Application) => void, config: ApplicationConfig = {}) {
  const app = new Application(withEngine({ logger: memoryLogger(), ...config }));
  setup(app);
  const { server, port, base } = await listen(app);
  closers.push(() => server.closeGracefully(1000));
  return { app, server, port, base };
}

describe('responses without a body, on the wire', () => {
  test('HEAD on a GET route: Content-Length of the GET body, and not one byte of body', async () => {
    const { port } = await serve((app) => app.get('/doc', (_req, res) => res.json({ hello: 'world' })));
    const get = await exchange(port, request('GET', '/doc'));
    expect(get.body.toString()).toBe('{"hello":"world"}');
    const head = await exchange(port, request('HEAD', '/doc'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(get.body.length));
    expect(head.body.length).toBe(0);
  });

  test('a 204 whose handler set a body sends no body bytes and no Content-Length > 0', async () => {
    const { port } = await serve((app) =>
      app.delete('/x', (_req, res) => res.status(204).json({ ignored: true })),
    );
    const reply = await exchange(port, request('DELETE', '/x'));
    expect(reply.status).toBe(204);
    expect(reply.body.length).toBe(0);
    expect(reply.headers.get('content-length') ?? '0').toBe('0');
    expect(reply.head).not.toMatch(/transfer-encoding/i);
  });
});

describe('errors.md: "OPTIONS * → 204 with Allow of the seven verbs"', () => {
  test('answers the server-wide OPTIONS, whatever the routes', async () => {
    const { port } = await serve((app) => app.get('/only', (_req, res) => res.send('x')));
    const reply = await exchange(port, request('OPTIONS', '*'));
    expect(reply.status).toBe(204);
    expect(reply.headers.get('allow')).toBe(SEVEN_VERBS);
    expect(reply.body.length).toBe(0);
    // `*` is only a target for OPTIONS.
    expect((await exchange(port, request('GET', '*'))).status).toBe(400);
  });
});

describe('configuration.md: "maxUrlLength — characters of the request target; beyond: 414"', () => {
  test('the limit is inclusive, counts the query, and is configurable', async () => {
    const { base } = await serve((app) => app.get('/p/:v', (_req, res) => res.send('ok')), {
      maxUrlLength: 64,
    });
    const target = (length: number) => `/p/${'a'.repeat(length - 3)}`;
    expect(target(64)).toHaveLength(64);
    expect((await fetch(base + target(64))).status).toBe(200);
    const over = await fetch(base + target(65));
    expect(over.status).toBe(414);
    expect(await over.json()).toEqual({ error: 'Request target longer than 64 characters', code: 414 });
    expect((await fetch(`${base}/p/a?${'q'.repeat(60)}`)).status).toBe(414);
  });

  test('the default is 8192', async () => {
    const { base } = await serve((app) => app.get('/p/:v', (_req, res) => res.send('ok')));
    expect((await fetch(`${base}/p/${'a'.repeat(8192 - 3)}`)).status).toBe(200);
    expect((await fetch(`${base}/p/${'a'.repeat(8192 - 2)}`)).status).toBe(414);
  });
});

describe('errors.md: "trailing-slash redirect — 308 (keeps the method and body)"', () => {
  test('a POST to /items/ is redirected with 308 and arrives as the same POST with its body', async () => {
    const seen: unknown[] = [];
    const { base } = await serve(
      (app) =>
        app.post('/items', (req, res) => {
          seen.push({ method: req.getMethod(), body: req.json(), query: req.query('x') });
          return res.status(201).json({ ok: true });
        }),
      { trailingSlash: 'redirect' },
    );
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' };
    const manual = await fetch(`${base}/items/?x=1`, { ...init, redirect: 'manual' });
    expect(manual.status).toBe(308);
    expect(manual.headers.get('location')).toBe('/items?x=1');
    expect(seen).toEqual([]);
    const followed = await fetch(`${base}/items/?x=1`, init);
    expect(followed.status).toBe(201);
    expect(seen).toEqual([{ method: 'POST', body: { n: 1 }, query: '1' }]);
  });
});

describe('request.md: "bodyLimit, default 1 MiB, checked against Content-Length before reading"', () => {
  const routes = (app: Application) =>
    app.post('/upload', (req, res) => res.json({ bytes: (req.body() as Uint8Array).byteLength }));

  test('exactly 1 MiB is accepted; 1 MiB + 1 byte is 413', async () => {
    const { base } = await serve(routes);
    const post = (size: number) =>
      fetch(`${base}/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(size),
      });
    const exact = await post(MiB);
    expect(exact.status).toBe(200);
    expect(await exact.json()).toEqual({ bytes: MiB });
    const over = await post(MiB + 1);
    expect(over.status).toBe(413);
    expect((await over.json()).code).toBe(413);
  });

  test('an oversize Content-Length is answered 413 before one byte of the body is sent', async () => {
    const { port } = await serve(routes);
    // Only the head goes out; the announced 2 MiB never do. An answer means nothing was waited for.
    const reply = await exchange(
      port,
      request('POST', '/upload', { 'Content-Type': 'application/octet-stream', 'Content-Length': 2 * MiB }),
    );
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body.toString()).code).toBe(413);
  });

  test('the boundary follows the configured bodyLimit', async () => {
    const { port } = await serve(routes, { bodyLimit: 10 });
    const send = (size: number) =>
      exchange(
        port,
        Buffer.concat([
          Buffer.from(
            request('POST', '/upload', {
              'Content-Type': 'application/octet-stream',
              'Content-Length': size,
            }),
          ),
          Buffer.alloc(size, 0x61),
        ]),
      );
    expect((await send(10)).status).toBe(200);
    expect((await send(11)).status).toBe(413);
  });
});

describe('middleware.md: which answers application-wide middleware sees', () => {
  test('404, 405, 501, automatic OPTIONS and body errors pass through it; 414 and a malformed target do not', async () => {
    const seen: string[] = [];
    const { base, port } = await serve(
      (app) => {
        app.middleware(async (req, handler) => {
          const res = await handler.handle(req);
          seen.push(`${req.getMethod()} ${res.getStatus()}`);
          return res;
        });
        app.get('/r', (_req, res) => res.send('ok'));
        app.post('/r', (req, res) => res.json(req.json()));
      },
      { maxUrlLength: 100, bodyLimit: 16 },
    );
    const json = { 'content-type': 'application/json' };
    const statuses = [
      (await fetch(`${base}/missing`)).status,
      (await fetch(`${base}/r`, { method: 'DELETE' })).status,
      (await fetch(`${base}/r`, { method: 'OPTIONS' })).status,
      (await fetch(`${base}/r`, { method: 'POST', headers: json, body: '{"broken":' })).status,
      (await fetch(`${base}/r`, { method: 'POST', headers: json, body: '{"far":"too long a body"}' })).status,
    ];
    expect(statuses).toEqual([404, 405, 204, 400, 413]);
    expect(seen).toEqual(['GET 404', 'DELETE 405', 'OPTIONS 204', 'POST 400', 'POST 413']);
    seen.length = 0;
    expect((await fetch(`${base}/r?${'x'.repeat(100)}`)).status).toBe(414);
    expect((await exchange(port, request('GET', 'no-slash'))).status).toBe(400);
    expect(seen).toEqual([]);
    // An unknown method is answered after routing (405 on a known path, 501 elsewhere), so the
    // log and CORS see it like any other answer.
    expect((await exchange(port, request('PROPFIND', '/nowhere'))).status).toBe(501);
    expect((await exchange(port, request('PROPFIND', '/r'))).status).toBe(405);
    expect(seen).toEqual(['PROPFIND 501', 'PROPFIND 405']);
  });
});

describe('routes.md: "Resolvers run after all middleware, just before the handler"', () => {
  test('application, group and route middleware run first; a refusal means no lookup at all', async () => {
    const order: string[] = [];
    const { base } = await serve((app) => {
      app.bind('post', (id) => {
        order.push(`resolve ${id}`);
        return id === '0' ? null : { id };
      });
      app.middleware((req, handler) => {
        order.push('app');
        return handler.handle(req);
      });
      app
        .group('/posts', (g) => {
          g.get('/{post}', (_req, res, post) => {
            order.push('handler');
            return res.json(post);
          }).middleware((req, handler) => {
            order.push('route');
            if (req.header('authorization') !== 'yes') throw new HttpError(401, 'Unauthorized');
            return handler.handle(req);
          });
        })
        .middleware((req, handler) => {
          order.push('group');
          return handler.handle(req);
        });
    });
    const ok = await fetch(`${base}/posts/7`, { headers: { authorization: 'yes' } });
    expect(await ok.json()).toEqual({ id: '7' });
    expect(order).toEqual(['app', 'group', 'route', 'resolve 7', 'handler']);
    order.length = 0;
    expect((await fetch(`${base}/posts/0`, { headers: { authorization: 'yes' } })).status).toBe(404);
    expect(order).toEqual(['app', 'group', 'route', 'resolve 0']);
    order.length = 0;
    expect((await fetch(`${base}/posts/7`)).status).toBe(401);
    expect(order).toEqual(['app', 'group', 'route']);
  });
});

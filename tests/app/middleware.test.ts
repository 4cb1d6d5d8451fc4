/** Middleware: order, short-circuit, aliases with parameters, and the built-ins (CORS, logging, throttle). */
import { describe, expect, test } from 'vitest';
import {
  Application,
  cors,
  MemoryRateLimitStore,
  type Middleware,
  memoryLogger,
  middlewareFactory,
  Response,
  requestLogger,
  throttle,
} from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { appStarter, transports } from './support/transport.js';

/** A middleware that records `name` on the way in and out. */
const tracer =
  (trace: string[], name: string): Middleware =>
  async (req, handler) => {
    trace.push(`>${name}`);
    const res = await handler.handle(req);
    trace.push(`<${name}`);
    return res;
  };

describe.each(transports)('middleware over $name', (transport) => {
  const start = appStarter(transport);

  test('order: application, outer group, inner group, route — and back out in reverse', async () => {
    const trace: string[] = [];
    const c = await start((app) => {
      app.middleware(tracer(trace, 'app'));
      app.alias('outer', tracer(trace, 'outer'));
      app.alias('inner', tracer(trace, 'inner'));
      app.alias('route', tracer(trace, 'route'));
      app
        .group('/a', (outer) => {
          outer.group('/b', (inner) => {
            inner.middleware('inner');
            inner
              .get('/c', (_req, res) => {
                trace.push('handler');
                return res.send('ok');
              })
              .middleware('route');
          });
        })
        .middleware('outer');
    });
    expect((await c.request('/a/b/c')).text).toBe('ok');
    expect(trace).toEqual([
      '>app',
      '>outer',
      '>inner',
      '>route',
      'handler',
      '<route',
      '<inner',
      '<outer',
      '<app',
    ]);
  });

  test('a middleware that does not call the handler short-circuits', async () => {
    let reached = false;
    const c = await start((app) => {
      app.alias('deny', () => new Response().status(403).json({ error: 'Forbidden', code: 403 }));
      app
        .get('/secret', (_req, res) => {
          reached = true;
          return res.send();
        })
        .middleware('deny');
    });
    expect((await c.request('/secret')).status).toBe(403);
    expect(reached).toBe(false);
  });

  test("a parameter string calls the factory: 'role:admin,editor' → ('admin', 'editor')", async () => {
    const calls: string[][] = [];
    const c = await start((app) => {
      app.alias(
        'role',
        middlewareFactory((...roles: string[]) => {
          calls.push(roles);
          return (req, handler) =>
            roles.includes(req.header('x-role') ?? '')
              ? handler.handle(req)
              : new Response().status(403).send();
        }),
      );
      app.get('/admin', (_req, res) => res.send('in')).middleware('role:admin,editor');
    });
    expect((await c.request('/admin', { headers: { 'X-Role': 'editor' } })).status).toBe(200);
    expect((await c.request('/admin', { headers: { 'X-Role': 'guest' } })).status).toBe(403);
    expect(calls).toEqual([['admin', 'editor']]);
  });

  test('middleware attaches values for the handler (set/get)', async () => {
    const c = await start((app) => {
      app.middleware((req, handler) => handler.handle(req.set('user', { id: 7 })));
      app.get('/me', (req, res) => res.json(req.get('user')));
    });
    expect((await c.request('/me')).json()).toEqual({ id: 7 });
  });

  test('a group middleware added after the callback still applies; names can be registered late', async () => {
    const c = await start((app) => {
      app
        .group('/late', (g) => g.get('/x', (req, res) => res.send(String(req.get('seen')))))
        .middleware('mark');
      app.alias('mark', (req, handler) => handler.handle(req.set('seen', true)));
    });
    expect((await c.request('/late/x')).text).toBe('true');
  });

  test('an unknown middleware name is an error before anything is served, naming the route and the name', async () => {
    // Issue 13: it was a 500 for every request of the route. `createServer()` (http) reads `listener`,
    // the fetch client calls `fetch()`: both check first.
    const c = await start((app) => {
      app.alias('auth', (req, handler) => handler.handle(req));
      app.get('/x', (_req, res) => res.send()).middleware('auht');
    }).catch((error: unknown) => error);
    const error =
      c instanceof Error
        ? c
        : await (c as { request(path: string): Promise<unknown> }).request('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RouteError', code: 'UNKNOWN_MIDDLEWARE', pattern: '/x' });
    expect((error as Error).message).toMatch(
      /^route GET \/x \(.*middleware\.test\.ts:\d+\) uses the middleware 'auht', which no alias defines \(did you mean 'auth'\?\); register it with app\.alias\('auht', fn\)$/,
    );
  });

  test('ready() checks the names now; an alias registered after the route still counts', () => {
    const app = new Application();
    app.middleware('audit');
    app.get('/y', (_req, res) => res.send()).middleware('nope');
    expect(() => app.ready()).toThrow(/^the application uses the middleware 'audit', which no alias defines/);
    app.alias('audit', (req, handler) => handler.handle(req));
    expect(() => app.ready()).toThrow(/^route GET \/y .* uses the middleware 'nope'/);
    app.alias('nope', (req, handler) => handler.handle(req));
    expect(app.ready()).toBe(app);
  });

  test('a factory marked with middlewareFactory is called with no arguments when referenced bare', async () => {
    const c = await start((app) => {
      app.alias(
        'cache',
        middlewareFactory(
          (seconds = '60') =>
            async (req, next) =>
              (await next.handle(req)).withHeader('Cache-Control', `max-age=${seconds}`),
        ),
      );
      app.get('/a', (_req, res) => res.send()).middleware('cache');
      app.get('/b', (_req, res) => res.send()).middleware('cache:5');
    });
    expect((await c.request('/a')).headers.get('cache-control')).toBe('max-age=60');
    expect((await c.request('/b')).headers.get('cache-control')).toBe('max-age=5');
  });

  test('CORS: any origin by default, and it answers preflights', async () => {
    const c = await start((app) => {
      app.middleware(cors());
      app.get('/tasks', (_req, res) => res.json([]));
    });
    const reply = await c.request('/tasks');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await c.request('/tasks', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://a.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    // Application middleware also decorates 404s.
    expect((await c.request('/nope')).headers.get('access-control-allow-origin')).toBe('*');
    // Permissions go on preflights only, unless asked for on every answer.
    expect(reply.headers.get('access-control-allow-methods')).toBeNull();
  });

  test('CORS: permissionsOnEveryAnswer sends the methods and listed headers on every answer', async () => {
    const c = await start((app) => {
      app.middleware(cors({ headers: ['Content-Type'], permissionsOnEveryAnswer: true }));
      app.get('/tasks', (_req, res) => res.json([]));
    });
    for (const reply of [await c.request('/tasks'), await c.request('/nope')]) {
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
      expect(reply.headers.get('access-control-allow-headers')).toBe('Content-Type');
    }
  });

  test('CORS with an origin list echoes allowed origins only, with Vary and credentials', async () => {
    const c = await start((app) => {
      app.middleware(
        cors({
          origin: ['https://ok.example'],
          credentials: true,
          maxAge: 600,
          headers: ['Content-Type', 'Authorization'],
        }),
      );
      app.get('/x', (_req, res) => res.send());
    });
    const ok = await c.request('/x', { headers: { Origin: 'https://ok.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://ok.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('vary')).toBe('Origin');
    const other = await c.request('/x', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await c.request('/x', {
      method: 'OPTIONS',
      headers: { Origin: 'https://ok.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
  });

  test('request logging writes method, path, status and milliseconds to the injected logger', async () => {
    const logger = memoryLogger();
    let clock = 1000;
    const c = await start((app) => {
      app.middleware(requestLogger({ logger, now: () => (clock += 2.5) }));
      app.get('/tasks/:id', (_req, res) => res.json({}));
    });
    await c.request('/tasks/1?x=y');
    await c.request('/nope');
    expect(logger.lines).toEqual(['GET /tasks/1 200 2.5ms', 'GET /nope 404 2.5ms']);
  });

  test('throttle:2,1 — N requests per M minutes per client IP, with the rate-limit headers', async () => {
    const c = await start((app) =>
      app.get('/limited', (_req, res) => res.send('ok')).middleware('throttle:2,1'),
    );
    const first = await c.request('/limited');
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await c.request('/limited')).headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await c.request('/limited');
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too Many Requests', code: 429 });
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('throttle', () => {
  test('the window resets after M minutes (injected clock)', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const mw = throttle({ max: 1, minutes: 1, store, now: () => now });
    const app = new Application(withEngine());
    app.get('/x', (_req, res) => res.send()).middleware(mw);
    const hit = async () =>
      (await app.fetch(new Request('http://t/x'), { remoteAddress: '10.0.0.1' })).status;
    expect(await hit()).toBe(200);
    expect(await hit()).toBe(429);
    now = 59_999;
    expect(await hit()).toBe(429);
    now = 60_000;
    expect(await hit()).toBe(200);
  });

  test('clients are counted apart (IP, or the authenticated user)', async () => {
    const app = new Application(withEngine());
    app.alias('login', (req, next) => {
      const user = req.header('x-user');
      return next.handle(user === undefined ? req : req.set('user', { id: user }));
    });
    app.get('/x', (_req, res) => res.send()).middleware(['login', 'throttle:1,1']);
    const hit = async (ip: string, user?: string) =>
      (
        await app.fetch(new Request('http://t/x', { headers: user ? { 'x-user': user } : {} }), {
          remoteAddress: ip,
        })
      ).status;
    expect(await hit('10.0.0.1')).toBe(200);
    expect(await hit('10.0.0.2')).toBe(200);
    expect(await hit('10.0.0.1')).toBe(429);
    expect(await hit('10.0.0.1', 'alice')).toBe(200);
    expect(await hit('10.0.0.9', 'alice')).toBe(429);
  });

  test('a store is pluggable and asynchronous', async () => {
    const keys: string[] = [];
    const store = {
      async hit(key: string, windowMs: number) {
        keys.push(key);
        return { count: 1, resetAt: Date.now() + windowMs };
      },
    };
    const app = new Application(withEngine({ rateLimitStore: store }));
    app.get('/x', (_req, res) => res.send()).middleware('throttle:60,1');
    await app.fetch(new Request('http://t/x'), { remoteAddress: '1.2.3.4' });
    expect(keys).toEqual(['throttle:60,1:ip:1.2.3.4']);
  });

  test('invalid throttle parameters fail at the first request with a clear message', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/x', (_req, res) => res.send()).middleware('throttle:many,1');
    expect((await app.fetch(new Request('http://t/x'))).status).toBe(500);
    expect(logger.errors[0]?.message).toContain('throttle:N,M');
  });
});

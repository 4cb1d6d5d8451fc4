/**
 * docs/framework/middleware.md, "Throttle": the 429's `X-RateLimit-Reset`, and which routes share a client's
 * budget — over real HTTP.
 *
 * Decision (as in Laravel, whose ThrottleRequests keys a client by user id or domain + IP, never by
 * route): every route throttled with the same `N,M` draws on one budget per client. Unlike Laravel,
 * whose key carries no limit (so a `throttle:60,1` route would spend a `throttle:10,1` route's counter),
 * two different limits count apart.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Application, memoryLogger, throttle } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(setup: (app: Application) => void): Promise<(path: string) => Promise<Response>> {
  const app = new Application(withEngine({ logger: memoryLogger() }));
  setup(app);
  const { server, base } = await listen(app);
  closers.push(() => server.closeGracefully(1000));
  return (path) => fetch(base + path);
}

describe('throttle over HTTP', () => {
  test('a 429 carries X-RateLimit-Reset: the window end in epoch seconds, agreeing with Retry-After', async () => {
    const get = await serve((app) => app.get('/x', (_req, res) => res.send('ok')).middleware('throttle:1,2'));
    const firstAt = Date.now();
    expect((await get('/x')).status).toBe(200);
    const refused = await get('/x');
    const refusedAt = Date.now();
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(Number.isInteger(reset)).toBe(true);
    // The window (2 minutes) started with the first request: it ends within that request's span.
    expect(reset).toBeGreaterThanOrEqual(Math.floor((firstAt + 120_000) / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil((refusedAt + 120_000) / 1000));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(reset - Math.ceil(refusedAt / 1000) - retryAfter)).toBeLessThanOrEqual(2);
  });

  test('two routes with the same limit share one budget per client', async () => {
    const get = await serve((app) => {
      app.get('/a', (_req, res) => res.send('a')).middleware('throttle:2,1');
      app.get('/b', (_req, res) => res.send('b')).middleware('throttle:2,1');
      app.group('/g', (g) => g.get('/c', (_req, res) => res.send('c'))).middleware('throttle:2,1');
    });
    const first = await get('/a');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    const second = await get('/b');
    expect([second.status, second.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
    expect((await get('/g/c')).status).toBe(429);
    expect((await get('/a')).status).toBe(429);
  });

  test('routes with different limits count apart', async () => {
    const get = await serve((app) => {
      app.get('/strict', (_req, res) => res.send('s')).middleware('throttle:1,1');
      app.get('/lax', (_req, res) => res.send('l')).middleware('throttle:3,1');
    });
    expect((await get('/lax')).status).toBe(200);
    expect((await get('/lax')).status).toBe(200);
    expect((await get('/strict')).status).toBe(200);
    expect((await get('/strict')).status).toBe(429);
    const third = await get('/lax');
    expect([third.status, third.headers.get('x-ratelimit-remaining')]).toEqual([200, '0']);
  });

  test('a throttle() instance keeps its own store: two instances with the same limit count apart', async () => {
    const get = await serve((app) => {
      app.get('/one', (_req, res) => res.send('1')).middleware(throttle({ max: 1, minutes: 1 }));
      app.get('/two', (_req, res) => res.send('2')).middleware(throttle({ max: 1, minutes: 1 }));
    });
    expect((await get('/one')).status).toBe(200);
    expect((await get('/two')).status).toBe(200);
    expect((await get('/one')).status).toBe(429);
  });
});

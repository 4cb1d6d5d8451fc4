/**
 * CORS from a real browser: a page on one origin (127.0.0.1, one port) calls an API on another (127.0.0.1,
 * another port), on both servers. Chromium's own checks decide: a simple GET, a preflighted PUT with
 * `Authorization` (the reflected request headers), a credentialed round trip that sets and sends back a
 * cookie, a credentialed call to `*` that the browser refuses, and an origin the API does not allow.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer, cors } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

function api(server: 'node' | 'arbor', pageOrigin: string): Application {
  const app = new Application({ server });
  const preflights = (_req: unknown, res: import('../../ts/src/app/index.js').Response) =>
    res.status(204).send();
  app
    .group('/open', (open) => {
      open.get('/items', (_req, res) => res.json({ items: 3 }));
      open.put('/items', (req, res) => res.json({ auth: req.header('authorization') ?? null }));
      open.options('/*', preflights);
    })
    .middleware(cors());
  app
    .group('/cred', (cred) => {
      cred.post('/login', (_req, res) => res.cookie('sid', 'abc', { sameSite: 'lax' }).json({ ok: true }));
      cred.get('/whoami', (req, res) => res.json({ sid: req.cookie('sid') ?? null }));
      cred.options('/*', preflights);
    })
    .middleware(cors({ origin: [pageOrigin], credentials: true, exposeHeaders: ['X-Total'] }));
  app
    .group('/closed', (closed) => {
      closed.get('/items', (_req, res) => res.json({ secret: true }));
      closed.options('/*', preflights);
    })
    .middleware(cors({ origin: /^https:\/\/trusted\.example$/ }));
  return app;
}

describe.each(['node', 'arbor'] as const)('CORS from Chromium, server: %s', (serverKind) => {
  let pageServer: ArborServer;
  let apiServer: ArborServer;
  let apiOrigin: string;
  let page: Page;

  beforeAll(async () => {
    const pages = new Application({ server: serverKind });
    pages.get('/', (_req, res) => res.html('<!doctype html><title>another origin</title>'));
    const started = await serve(pages);
    pageServer = started.server;
    const apiStarted = await serve(api(serverKind, started.origin));
    apiServer = apiStarted.server;
    apiOrigin = apiStarted.origin;
    page = await browser().newPage();
    await page.goto(`${started.origin}/`);
  });
  afterAll(async () => {
    await page?.close();
    await pageServer?.closeGracefully(1000);
    await apiServer?.closeGracefully(1000);
  });

  /** What the page gets from `fetch(url, init)`: the JSON, or the name of the error the browser threw. */
  interface Init {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    credentials?: 'include' | 'omit';
  }
  const call = (url: string, init: Init = {}) =>
    page.evaluate(
      async ([target, options]) => {
        try {
          const res = await fetch(target, options as RequestInit);
          return { status: res.status, body: await res.json(), total: res.headers.get('x-total') };
        } catch (error) {
          return { error: (error as Error).name };
        }
      },
      [url, init] as const,
    );

  it('a simple GET is readable from any origin', async () => {
    expect(await call(`${apiOrigin}/open/items`)).toEqual({ status: 200, body: { items: 3 }, total: null });
  });

  it('a preflighted PUT with Authorization passes: the asked headers are reflected', async () => {
    const reply = await call(`${apiOrigin}/open/items`, {
      method: 'PUT',
      headers: { Authorization: 'Bearer t0k3n', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reply).toEqual({ status: 200, body: { auth: 'Bearer t0k3n' }, total: null });
  });

  it('credentials: the cookie set cross-origin is sent back, and the answer readable', async () => {
    const login = await call(`${apiOrigin}/cred/login`, { method: 'POST', credentials: 'include' });
    expect(login).toMatchObject({ status: 200, body: { ok: true } });
    const who = await call(`${apiOrigin}/cred/whoami`, { credentials: 'include' });
    expect(who).toMatchObject({ status: 200, body: { sid: 'abc' } });
  });

  it("the browser refuses a credentialed answer with '*' (why cors() never sends it)", async () => {
    expect(await call(`${apiOrigin}/open/items`, { credentials: 'include' })).toEqual({ error: 'TypeError' });
  });

  it('an origin the API does not allow cannot read it, simple or preflighted', async () => {
    expect(await call(`${apiOrigin}/closed/items`)).toEqual({ error: 'TypeError' });
    expect(await call(`${apiOrigin}/closed/items`, { headers: { Authorization: 'Bearer x' } })).toEqual({
      error: 'TypeError',
    });
  });
});

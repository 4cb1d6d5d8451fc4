/**
 * Cookies kept and sent back by Chromium, on both servers: a signed session cookie (HttpOnly: invisible to
 * the page's scripts) and a plain one the page can read; the server reads both back; clearing deletes it;
 * a cookie the page forges is refused by the signature.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Application, type ArborServer } from '../../ts/src/app/index.js';
import { launchChromium } from './chromium.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

function application(server: 'node' | 'arbor'): Application {
  const app = new Application({ server, cookies: { secrets: ['a-test-secret-of-enough-length'] } });
  app.get('/', (_req, res) => res.html('<!doctype html><title>cookies</title>'));
  app.post('/login', (_req, res) =>
    res
      .cookie('session', 'user-42', { signed: true })
      .cookie('theme', 'dark', { httpOnly: false })
      .json({ ok: true }),
  );
  app.get('/whoami', (req, res) =>
    res.json({ session: req.signedCookie('session') ?? null, theme: req.cookie('theme') ?? null }),
  );
  app.post('/logout', (_req, res) => res.clearCookie('session').json({ ok: true }));
  return app;
}

describe.each(['node', 'arbor'] as const)('Chromium keeps cookies, server: %s', (serverKind) => {
  let server: ArborServer;
  let page: Page;

  beforeAll(async () => {
    server = application(serverKind).createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  afterAll(async () => {
    await page?.close();
    await server?.closeGracefully(1000);
  });

  it('sends back what it was given, hides HttpOnly from scripts, and forgets a cleared cookie', async () => {
    const result = await page.evaluate(async () => {
      const read = async () => (await fetch('/whoami')).json();
      await fetch('/login', { method: 'POST' });
      const loggedIn = await read();
      const visible = document.cookie;
      // A script cannot overwrite an HttpOnly cookie; a forged copy under a path of its own is sent too,
      // first (the longer path), and the signature refuses it.
      // biome-ignore lint/suspicious/noDocumentCookie: the test forges a cookie as a page script would.
      document.cookie = 'session=user-1.forged; path=/whoami';
      const forged = await read();
      await fetch('/logout', { method: 'POST' });
      const loggedOut = await read();
      return { loggedIn, visible, forged, loggedOut };
    });
    expect(result.loggedIn).toEqual({ session: 'user-42', theme: 'dark' });
    expect(result.visible).toBe('theme=dark');
    expect(result.forged.session).toBeNull();
    expect(result.loggedOut).toEqual({ session: null, theme: 'dark' });
  });
});

/**
 * Cookies kept and sent back by Chromium, on both servers: a signed session cookie (HttpOnly: invisible to
 * the page's scripts) and a plain one the page can read; the server reads both back; clearing deletes it;
 * a cookie the page forges is refused by the signature.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

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
    let origin: string;
    ({ server, origin } = await serve(application(serverKind)));
    page = await browser().newPage();
    await page.goto(`${origin}/`);
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

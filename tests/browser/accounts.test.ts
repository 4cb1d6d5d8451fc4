/**
 * The accounts reference application in Chromium, on both servers, with its defaults (the `Secure`
 * session cookie, which browsers take from `http://localhost`): signing in through the form, the home
 * page's inline script running with its CSP nonce (it fills in the user from `/api/me`) while a script
 * injected without the nonce is blocked, a profile change through the form, another site's form refused
 * (403, nothing changed), and signing out.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsApp } from '../../ts/examples/accounts/app.js';
import { DEMO_USER, Users } from '../../ts/examples/accounts/users.js';
import type { ArborServer } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

describe.each(['node', 'arbor'] as const)(
  'the accounts application in Chromium, server: %s',
  (serverKind) => {
    let server: ArborServer;
    let origin: string;
    let page: Page;
    const users = Users.withDemoUser();

    beforeAll(async () => {
      ({ server, origin } = await serve(
        createAccountsApp({ config: { server: serverKind }, users }),
        'localhost',
      ));
      page = await browser().newPage();
      await page.route('http://evil.example/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><form method="post" action="${origin}/profile"><input type="hidden" name="displayName" value="pwned"><button>Win a prize</button></form>`,
        }),
      );
    });
    afterAll(async () => {
      await page?.close();
      await server?.closeGracefully(1000);
    });

    it('signs in through the form; the nonce-carrying script fills in the user from the API', async () => {
      await page.goto(`${origin}/`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.fill('input[name=username]', DEMO_USER.username);
      await page.fill('input[name=password]', DEMO_USER.password);
      await Promise.all([page.waitForURL(`${origin}/`), page.click('#sign-in')]);
      expect(await page.textContent('#greeting')).toBe('Hello, Ada Lovelace');
      await expect.poll(() => page.textContent('#me')).toBe('Ada Lovelace');
      const cookies = await page.context().cookies(origin);
      expect(cookies.find((c) => c.name === 'sid')).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      });
    });

    it('an inline script without the nonce is blocked by the policy', async () => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) violations.push(message.text());
      });
      const ran = await page.evaluate(async () => {
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.append(script);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return (window as { injected?: boolean }).injected === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => violations.length).toBeGreaterThan(0);
    });

    it("changes the display name through the form; another site's form is refused", async () => {
      await page.fill('input[name=displayName]', 'Countess of Lovelace');
      const [saved] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/profile')),
        page.click('#save'),
      ]);
      expect(saved.status()).toBe(303);
      await expect.poll(() => page.textContent('#greeting')).toBe('Hello, Countess of Lovelace');

      await page.goto('http://evil.example/');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.click('button'),
      ]);
      expect(refused.status()).toBe(403);
      expect(JSON.parse(await refused.text()).error).toBe(
        'Cross-site request refused: origin http://evil.example may not send forms here',
      );
      expect(users.find('u1')?.displayName).toBe('Countess of Lovelace');
    });

    it('signs out: back to the sign-in page, and the API no longer knows the visitor', async () => {
      await page.goto(`${origin}/`);
      await Promise.all([page.waitForURL(`${origin}/login`), page.click('#sign-out')]);
      const me = await page.evaluate(async () => (await fetch('/api/me')).status);
      expect(me).toBe(401);
    });
  },
);

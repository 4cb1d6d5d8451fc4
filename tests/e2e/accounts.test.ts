/**
 * The accounts reference application over real HTTP (loopback, node:http and Arbor's own server), as a
 * browser would use it, cookie by cookie: the sign-in form and its token, a wrong password, sign-in with a
 * new session id (the one from before refused after), the JSON route behind the session, a profile change
 * with and without the page's token and from another origin, sign-out (the session gone from the store),
 * the secure headers with a fresh CSP nonce per page that the page's inline script carries, and the
 * OpenAPI document declaring the session cookie's scheme on the JSON route.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccountsApp } from '../../ts/examples/accounts/app.js';
import { DEMO_USER } from '../../ts/examples/accounts/users.js';
import type { ArborServer } from '../../ts/src/app/index.js';
import { withEngine } from '../app/support/engine.js';
import { listen } from '../app/support/transport.js';

/** A browser's cookie jar, reduced to what these pages set: name → value, dropped when expired. */
class Jar {
  readonly cookies = new Map<string, string>();

  take(response: globalThis.Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => {
        const [key = '', value = ''] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(value) <= Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

describe.each(['node', 'arbor'] as const)('the accounts application, server: %s', (serverKind) => {
  let server: ArborServer;
  let base: string;

  beforeAll(async () => {
    const started = await listen(
      createAccountsApp({
        config: { ...withEngine(), server: serverKind },
        secret: 'the e2e test secret, 32 characters',
        secureCookie: false,
      }),
    );
    server = started.server;
    base = started.base;
  });
  afterAll(async () => {
    await server?.closeGracefully(1000);
  });

  /** A request from this origin's pages (as a browser sends a form: its Origin and Sec-Fetch-Site). */
  async function visit(
    jar: Jar,
    method: string,
    path: string,
    form?: Record<string, string>,
    origin = base,
  ): Promise<{ status: number; text: string; location: string | null; headers: Headers }> {
    const headers: Record<string, string> = { cookie: jar.header };
    if (form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = origin;
    }
    const response = await fetch(base + path, {
      method,
      headers,
      redirect: 'manual',
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    });
    jar.take(response);
    return {
      status: response.status,
      text: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }

  const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  /** Signs in a new visitor; returns its jar and the session id it had before. */
  async function signIn(): Promise<{ jar: Jar; before: string }> {
    const jar = new Jar();
    const page = await visit(jar, 'GET', '/login');
    const before = jar.cookies.get('sid') ?? '';
    const done = await visit(jar, 'POST', '/login', { ...DEMO_USER, _csrf: tokenIn(page.text) });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/');
    return { jar, before };
  }

  test('not signed in: the home page sends to the sign-in page, the API answers 401', async () => {
    const jar = new Jar();
    const home = await visit(jar, 'GET', '/');
    expect([home.status, home.location]).toEqual([303, '/login']);
    const me = await visit(jar, 'GET', '/api/me');
    expect(me.status).toBe(401);
    expect(JSON.parse(me.text)).toEqual({ error: 'Sign in first', code: 401 });
  });

  test('a wrong password is the form again with a 401; a form without its token is refused', async () => {
    const jar = new Jar();
    const page = await visit(jar, 'GET', '/login');
    const wrong = await visit(jar, 'POST', '/login', {
      username: 'ada',
      password: 'wrong',
      _csrf: tokenIn(page.text),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong user name or password');
    const tokenless = await visit(jar, 'POST', '/login', { ...DEMO_USER });
    expect(tokenless.status).toBe(403);
    expect(JSON.parse(tokenless.text)).toEqual({
      error: 'CSRF token missing: send it in the form or the header',
      code: 403,
    });
  });

  test('sign-in makes a new session id; the id from before is worthless', async () => {
    const { jar, before } = await signIn();
    const after = jar.cookies.get('sid');
    expect(before).not.toBe('');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(JSON.parse((await visit(jar, 'GET', '/api/me')).text)).toEqual({
      id: 'u1',
      username: 'ada',
      displayName: expect.any(String),
    });
    const planted = new Jar();
    planted.cookies.set('sid', before);
    expect((await visit(planted, 'GET', '/api/me')).status).toBe(401);
  });

  test('the profile form: accepted with its token from this origin, refused without it or from elsewhere', async () => {
    const { jar } = await signIn();
    const home = await visit(jar, 'GET', '/');
    expect(home.status).toBe(200);
    const token = tokenIn(home.text);
    const forged = await visit(
      jar,
      'POST',
      '/profile',
      { displayName: 'Mallory', _csrf: token },
      'http://evil.example',
    );
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text).error).toBe(
      'Cross-site request refused: origin http://evil.example may not send forms here',
    );
    const tokenless = await visit(jar, 'POST', '/profile', { displayName: 'Mallory' });
    expect(tokenless.status).toBe(403);
    const wrongToken = await visit(jar, 'POST', '/profile', { displayName: 'Mallory', _csrf: 'x.y' });
    expect(JSON.parse(wrongToken.text).error).toBe('CSRF token invalid: reload the form and send it again');
    const saved = await visit(jar, 'POST', '/profile', { displayName: 'Countess <Ada>', _csrf: token });
    expect([saved.status, saved.location]).toEqual([303, '/']);
    const again = await visit(jar, 'GET', '/');
    expect(again.text).toContain('Hello, Countess &#60;Ada&#62;');
    expect(JSON.parse((await visit(jar, 'GET', '/api/me')).text).displayName).toBe('Countess <Ada>');
    await visit(jar, 'POST', '/profile', { displayName: 'Ada Lovelace', _csrf: tokenIn(again.text) });
  });

  test('sign-out destroys the session: the cookie expires, and the old id is refused', async () => {
    const { jar } = await signIn();
    const id = jar.cookies.get('sid') as string;
    const home = await visit(jar, 'GET', '/');
    const out = await visit(jar, 'POST', '/logout', { _csrf: tokenIn(home.text) });
    expect([out.status, out.location]).toEqual([303, '/login']);
    expect(jar.cookies.has('sid')).toBe(false);
    const replay = new Jar();
    replay.cookies.set('sid', id);
    expect((await visit(replay, 'GET', '/api/me')).status).toBe(401);
  });

  test("secure headers on every page; the CSP nonce is new per page and is the inline script's", async () => {
    const { jar } = await signIn();
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const page = await visit(jar, 'GET', '/');
      const csp = page.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
      expect(csp).toContain("script-src 'self' 'nonce-");
      expect(csp).toContain("script-src-attr 'none'");
      expect(page.text).toContain(`<script nonce="${nonce}">`);
      nonces.add(nonce);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-powered-by')).toBeNull();
    }
    expect(nonces.size).toBe(3);
  });

  test('the OpenAPI document declares the session cookie scheme on the JSON route', async () => {
    const doc = JSON.parse((await visit(new Jar(), 'GET', '/api/docs.json')).text);
    expect(doc.components.securitySchemes).toEqual({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
    });
    expect(doc.paths['/api/me'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/me'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Me',
    });
    expect(doc.paths['/login'].post).toBeDefined();
  });
});

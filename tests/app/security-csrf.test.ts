/**
 * csrf(): the origin check as a table of requests (method, Content-Type, Origin, Sec-Fetch-Site,
 * X-Forwarded-Proto → accepted or refused), the allowed-origin options, and the token modes (a signed
 * double-submit cookie, a secret in the session) with tokens sent in a header and in a form field,
 * missing, forged and taken from another client; refusals as 403 { error, code } through onError. Over
 * real HTTP (node:http or Arbor's server, by project) and app.fetch().
 */
import { describe, expect, test } from 'vitest';
import type { Application } from '../../ts/src/app/index.js';
import { CsrfError, type CsrfOptions, csrf } from '../../ts/src/middleware/csrf.js';
import { session } from '../../ts/src/middleware/session.js';
import { appStarter, type Client, transports } from './support/transport.js';

const SECRETS = { cookies: { secrets: ['a-test-secret-of-32-characters!!'] } };
/** Sent on every request: app.fetch() has no Host of its own (over HTTP the client sets the real one). */
const HOST = { host: 'arbor.test' };

/** The origin of the application as the client reaches it (`http://127.0.0.1:port`, or `http://arbor.test`). */
async function ownOrigin(c: Client): Promise<string> {
  return `http://${(await c.request('/host', { headers: HOST })).text}`;
}

function routes(app: Application): void {
  app.get('/host', (req, res) => res.send(req.header('host') ?? ''));
  for (const method of ['post', 'put', 'delete', 'get'] as const)
    app[method]('/act', (req, res) => res.json({ ok: true, method: req.method }));
}

const FORM = 'application/x-www-form-urlencoded';

// [case, method, content type (undefined: none), Origin ('self': the app's own), Sec-Fetch-Site, extra headers, status]
const ORIGIN_TABLE: [
  string,
  string,
  string | undefined,
  string | undefined,
  string | undefined,
  Record<string, string>,
  number,
][] = [
  ['same-origin form', 'POST', FORM, 'self', undefined, {}, 200],
  ['cross-site form', 'POST', FORM, 'https://evil.example', undefined, {}, 403],
  [
    'cross-site multipart',
    'POST',
    'multipart/form-data; boundary=x',
    'https://evil.example',
    undefined,
    {},
    403,
  ],
  ['cross-site text/plain', 'POST', 'text/plain', 'https://evil.example', undefined, {}, 403],
  ['cross-site, no Content-Type', 'POST', undefined, 'https://evil.example', undefined, {}, 403],
  [
    'cross-site form, upper-case type',
    'POST',
    'Application/X-WWW-Form-Urlencoded; charset=utf-8',
    'https://evil.example',
    undefined,
    {},
    403,
  ],
  [
    'cross-site JSON (needs a preflight: cors decides)',
    'POST',
    'application/json',
    'https://evil.example',
    undefined,
    {},
    200,
  ],
  ['form without Origin nor Sec-Fetch-Site', 'POST', FORM, undefined, undefined, {}, 403],
  ['opaque origin (sandboxed frame)', 'POST', FORM, 'null', undefined, {}, 403],
  ['Sec-Fetch-Site same-origin wins', 'POST', FORM, 'https://evil.example', 'same-origin', {}, 200],
  [
    'Sec-Fetch-Site same-site refused by default',
    'POST',
    FORM,
    'https://sub.evil.example',
    'same-site',
    {},
    403,
  ],
  ['Sec-Fetch-Site cross-site', 'POST', FORM, 'https://evil.example', 'cross-site', {}, 403],
  ['Sec-Fetch-Site cross-site, own Origin', 'POST', FORM, 'self', 'cross-site', {}, 200],
  ['PUT form cross-site', 'PUT', FORM, 'https://evil.example', undefined, {}, 403],
  ['DELETE cross-site, no body', 'DELETE', undefined, 'https://evil.example', undefined, {}, 403],
  ['GET cross-site is safe', 'GET', undefined, 'https://evil.example', 'cross-site', {}, 200],
  ['own host over https (a TLS proxy)', 'POST', FORM, 'self-https', undefined, {}, 200],
  [
    'own host over http when the request says https',
    'POST',
    FORM,
    'self',
    undefined,
    { 'x-forwarded-proto': 'https' },
    403,
  ],
  ['own host, another port', 'POST', FORM, 'self-other-port', undefined, {}, 403],
];

function originFor(given: string | undefined, own: string): string | undefined {
  if (given === 'self') return own;
  if (given === 'self-https') return own.replace('http://', 'https://');
  if (given === 'self-other-port') return `${own.replace(/:\d+$/, '')}:1`;
  return given;
}

describe.each(transports)('csrf() over $name', (transport) => {
  const start = appStarter(transport);

  test.each(ORIGIN_TABLE)('%s', async (_case, method, type, origin, site, extra, status) => {
    const c = await start((app) => {
      app.middleware(csrf());
      routes(app);
    });
    const own = await ownOrigin(c);
    const headers: Record<string, string> = { ...HOST, ...extra };
    if (type !== undefined) headers['content-type'] = type;
    const sentOrigin = originFor(origin, own);
    if (sentOrigin !== undefined) headers.origin = sentOrigin;
    if (site !== undefined) headers['sec-fetch-site'] = site;
    const reply = await c.request('/act', {
      method,
      headers,
      ...(method === 'GET' ? {} : { body: type === 'application/json' ? '{}' : 'a=1' }),
    });
    expect(reply.status).toBe(status);
    if (status === 403) {
      expect(reply.json()).toEqual({
        error: expect.stringMatching(/^Cross-site request refused/),
        code: 403,
      });
    }
  });

  test.each<[string, CsrfOptions, string, string | undefined, number]>([
    ['a listed origin', { origin: ['https://app.example'] }, 'https://app.example', undefined, 200],
    ['an unlisted origin', { origin: ['https://app.example'] }, 'https://other.example', undefined, 403],
    ['a list replaces the own origin', { origin: 'https://app.example' }, 'self', undefined, 403],
    ['a RegExp', { origin: /^https:\/\/[a-z]+\.app\.example$/ }, 'https://eu.app.example', undefined, 200],
    [
      'an async function',
      { origin: async (o) => o.endsWith('.trusted.example') },
      'https://x.trusted.example',
      undefined,
      200,
    ],
    ['a function saying no', { origin: () => false }, 'self', undefined, 403],
    [
      'same-site allowed',
      { secFetchSite: ['same-origin', 'same-site'] },
      'https://sub.evil.example',
      'same-site',
      200,
    ],
    ['a Sec-Fetch-Site function', { secFetchSite: (v) => v === 'none' }, 'https://evil.example', 'none', 200],
  ])('origin option: %s', async (_case, options, origin, site, status) => {
    const c = await start((app) => {
      app.middleware(csrf(options));
      routes(app);
    });
    const own = await ownOrigin(c);
    const headers: Record<string, string> = {
      ...HOST,
      'content-type': FORM,
      origin: origin === 'self' ? own : origin,
    };
    if (site !== undefined) headers['sec-fetch-site'] = site;
    expect((await c.request('/act', { method: 'POST', headers, body: 'a=1' })).status).toBe(status);
  });

  test("a refusal reaches the application's onError as a CsrfError", async () => {
    const c = await start((app) => {
      app.middleware(csrf());
      app.onError((error, _req, res) => {
        if (error instanceof CsrfError) return res.status(error.status).json({ refused: error.reason });
        throw error;
      });
      routes(app);
    });
    const reply = await c.request('/act', {
      method: 'POST',
      headers: { ...HOST, 'content-type': FORM, origin: 'https://evil.example' },
      body: 'a=1',
    });
    expect([reply.status, reply.json()]).toEqual([403, { refused: 'origin' }]);
  });

  describe('token mode', () => {
    /** A form page handing out tokens, and a form handler; csrf() with `token`. */
    const tokenApp =
      (token: NonNullable<CsrfOptions['token']>, withSession = false) =>
      (app: Application) => {
        if (withSession) app.middleware(session({ cookie: { secure: false } }));
        app.middleware(csrf({ token }));
        app.get('/host', (req, res) => res.send(req.header('host') ?? ''));
        app.get('/form', (req, res) => res.json({ token: req.get<() => string>('csrfToken')?.() }));
        app.post('/form', (req, res) => res.json({ saved: req.body<{ name?: string }>().name ?? null }));
      };

    /** The cookie pairs of the `Set-Cookie` lines. */
    const cookiesOf = (headers: Headers) =>
      headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');

    async function formPage(c: Client): Promise<{ token: string; cookie: string; origin: string }> {
      const origin = await ownOrigin(c);
      const page = await c.request('/form', { headers: HOST });
      expect(page.status).toBe(200);
      return { token: page.json().token, cookie: cookiesOf(page.headers), origin };
    }

    test.each<[string, NonNullable<CsrfOptions['token']>, boolean]>([
      ['signed double-submit cookie', 'cookie', false],
      ['synchronizer token in the session', 'session', true],
    ])('%s: header, field, missing, forged and foreign tokens', async (_case, mode, withSession) => {
      const c = await start(tokenApp(mode, withSession), SECRETS);
      const { token, cookie, origin } = await formPage(c);
      expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(cookie).toMatch(mode === 'cookie' ? /^csrf=/ : /^sid=/);
      const send = (headers: Record<string, string>, body = 'name=ada') =>
        c.request('/form', {
          method: 'POST',
          headers: { ...HOST, origin, 'content-type': FORM, ...headers },
          body,
        });

      const inHeader = await send({ cookie, 'x-csrf-token': token });
      expect([inHeader.status, inHeader.json()]).toEqual([200, { saved: 'ada' }]);
      const inField = await send({ cookie }, `name=ada&_csrf=${encodeURIComponent(token)}`);
      expect([inField.status, inField.json()]).toEqual([200, { saved: 'ada' }]);
      // A second token from the same secret differs (a fresh salt) and verifies too.
      const second = await c.request('/form', { headers: { ...HOST, cookie } });
      expect(second.json().token).not.toBe(token);
      expect((await send({ cookie, 'x-csrf-token': second.json().token })).status).toBe(200);

      const missing = await send({ cookie });
      expect([missing.status, missing.json()]).toEqual([
        403,
        { error: expect.stringMatching(/CSRF token missing/), code: 403 },
      ]);
      const noCookie = await send({ 'x-csrf-token': token });
      expect([noCookie.status, noCookie.json().error]).toEqual([
        403,
        expect.stringMatching(/CSRF token invalid/),
      ]);
      const [salt, mac] = token.split('.') as [string, string];
      const forged = await send({ cookie, 'x-csrf-token': `${salt}.${mac.slice(0, -2)}AA` });
      expect(forged.status).toBe(403);
      const otherSalt = await send({ cookie, 'x-csrf-token': `x${salt}.${mac}` });
      expect(otherSalt.status).toBe(403);
      // Another client's token does not verify with this client's secret.
      const other = await formPage(c);
      expect((await send({ cookie, 'x-csrf-token': other.token })).status).toBe(403);
      // The origin check still applies with a valid token.
      const crossSite = await send({ cookie, 'x-csrf-token': token, origin: 'https://evil.example' });
      expect([crossSite.status, crossSite.json().error]).toEqual([403, expect.stringMatching(/^Cross-site/)]);
    });

    test('a secret cookie the application did not sign is no secret', async () => {
      const c = await start(tokenApp('cookie'), SECRETS);
      const { token, cookie, origin } = await formPage(c);
      const unsigned = cookie.replace(/\.[^.]+$/, '');
      const reply = await c.request('/form', {
        method: 'POST',
        headers: { ...HOST, origin, 'content-type': FORM, cookie: unsigned, 'x-csrf-token': token },
        body: 'name=ada',
      });
      expect(reply.status).toBe(403);
    });

    test('the secret cookie is set once, HttpOnly and SameSite=Lax', async () => {
      const c = await start(tokenApp('cookie'), SECRETS);
      const first = await c.request('/form', { headers: HOST });
      const line = first.headers.getSetCookie()[0] ?? '';
      expect(line).toMatch(/^csrf=[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
      const again = await c.request('/form', { headers: { ...HOST, cookie: line.split(';')[0] as string } });
      expect(again.headers.getSetCookie()).toEqual([]);
    });

    test('a GET that renders no form sets no cookie', async () => {
      const c = await start(tokenApp('cookie'), SECRETS);
      expect((await c.request('/host', { headers: HOST })).headers.getSetCookie()).toEqual([]);
    });
  });
});

test('csrf() refuses a token mode it does not know, at start-up', () => {
  expect(() => csrf({ token: 'header' as never })).toThrow(/token must be 'cookie' or 'session'/);
});

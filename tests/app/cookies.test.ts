/**
 * Cookies: reading (`req.cookie`, `req.cookies`), writing (`res.cookie`, `res.clearCookie`) with every
 * RFC 6265bis attribute and the safe defaults, and signed cookies — tampered byte by byte, moved to another
 * name, verified across a key rotation — on both servers and through `app.fetch()`. Chromium keeps and
 * sends them back in tests/browser/cookies.test.ts. Last, the records built from what a client names —
 * the cookies, and `req.query()` beside them — against names that are members of `Object.prototype`.
 */
import { describe, expect, test } from 'vitest';
import { Application, type CookieOptions, memoryLogger } from '../../ts/src/app/index.js';
import { CookieSigner, parseCookies, setCookieLine } from '../../ts/src/helpers/cookies.js';
import { withEngine } from './support/engine.js';
import { transports } from './support/transport.js';

const CURRENT = 'current-secret-0123456789abcdef';
const PREVIOUS = 'previous-secret-0123456789abcdef';

describe('Set-Cookie lines', () => {
  test.each<[string, CookieOptions, string]>([
    ['the defaults', {}, 'id=1; Path=/; HttpOnly; SameSite=Lax'],
    ['Max-Age', { maxAge: 3600 }, 'id=1; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax'],
    [
      'Expires',
      { expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)) },
      'id=1; Path=/; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; SameSite=Lax',
    ],
    [
      'Domain and Path',
      { domain: 'example.com', path: '/app' },
      'id=1; Domain=example.com; Path=/app; HttpOnly; SameSite=Lax',
    ],
    ['Secure', { secure: true }, 'id=1; Path=/; HttpOnly; Secure; SameSite=Lax'],
    ['script-readable', { httpOnly: false }, 'id=1; Path=/; SameSite=Lax'],
    ['SameSite=Strict', { sameSite: 'strict' }, 'id=1; Path=/; HttpOnly; SameSite=Strict'],
    [
      'SameSite=None (Secure)',
      { sameSite: 'none', secure: true },
      'id=1; Path=/; HttpOnly; Secure; SameSite=None',
    ],
    [
      'Partitioned',
      { partitioned: true, secure: true },
      'id=1; Path=/; HttpOnly; Secure; Partitioned; SameSite=Lax',
    ],
    ['Priority', { priority: 'high' }, 'id=1; Path=/; HttpOnly; Priority=High; SameSite=Lax'],
  ])('%s', (_name, options, line) => {
    expect(setCookieLine('id', '1', options)).toBe(line);
  });

  test('a value that needs it is percent-encoded, and read back decoded', () => {
    const line = setCookieLine('note', 'a b;c,é');
    expect(line.startsWith('note=a%20b%3Bc%2C%C3%A9;')).toBe(true);
    expect(parseCookies('note=a%20b%3Bc%2C%C3%A9')).toEqual({ note: 'a b;c,é' });
  });

  test.each<[string, string, CookieOptions, RegExp]>([
    ['a name with a space', 'my id', {}, /"my id" is not a valid cookie name/],
    ['a name with =', 'a=b', {}, /not a valid cookie name/],
    ['an empty name', '', {}, /not a valid cookie name/],
    ['SameSite=None without Secure', 'id', { sameSite: 'none' }, /SameSite=None needs secure: true/],
    ['a domain with ;', 'id', { domain: 'a;b' }, /res\.cookie\("id"\)/],
    ['a path with a line break', 'id', { path: '/\n' }, /res\.cookie\("id"\)/],
  ])('refuses %s at the call', (_label, name, options, message) => {
    expect(() => setCookieLine(name, 'v', options)).toThrow(TypeError);
    expect(() => setCookieLine(name, 'v', options)).toThrow(message);
  });
});

describe('signing', () => {
  const signer = new CookieSigner({ secrets: [CURRENT] });

  test('verifies what it signed, for that name only', () => {
    const signed = signer.sign('session', 'abc');
    expect(signed).toMatch(/^abc\.[\w-]{43}$/);
    expect(signer.unsign('session', signed)).toBe('abc');
    expect(signer.unsign('role', signed)).toBeUndefined();
  });

  test('every single-byte alteration of a signed value reads as absent, never throws', () => {
    const signed = signer.sign('session', 'user-42');
    for (let i = 0; i < signed.length; i++) {
      for (const replacement of ['A', '.', '-', '%', '']) {
        if (signed[i] === replacement) continue;
        const tampered = signed.slice(0, i) + replacement + signed.slice(i + 1);
        expect(signer.unsign('session', tampered), tampered).toBeUndefined();
      }
    }
    expect(signer.unsign('session', 'user-42')).toBeUndefined();
    expect(signer.unsign('session', '')).toBeUndefined();
    expect(signer.unsign('session', `${signed}x`)).toBeUndefined();
  });

  test('rotation: the first secret signs, every secret verifies', () => {
    const before = new CookieSigner({ secrets: [PREVIOUS] }).sign('session', 'old');
    const rotated = new CookieSigner({ secrets: [CURRENT, PREVIOUS] });
    expect(rotated.unsign('session', before)).toBe('old');
    expect(rotated.sign('session', 'new')).toBe(signer.sign('session', 'new'));
    // Once the old secret is dropped, what it signed no longer verifies.
    expect(signer.unsign('session', before)).toBeUndefined();
  });

  test.each<[string, unknown]>([
    ['no secrets', []],
    ['a short secret', ['short']],
    ['not a list', 'a-single-secret-that-is-long-enough'],
  ])('refuses %s at new Application()', (_label, secrets) => {
    expect(() => new Application({ cookies: { secrets: secrets as string[] } })).toThrow(/cookies\.secrets/);
  });
});

function application(secrets: string[] | null, logger = memoryLogger()): Application {
  const app = new Application(withEngine({ logger, ...(secrets === null ? {} : { cookies: { secrets } }) }));
  app.get('/login', (_q, res) =>
    res
      .cookie('session', 'user-42', { signed: true, maxAge: 600 })
      .cookie('theme', 'dark mode', { httpOnly: false })
      .json({ ok: true }),
  );
  app.get('/whoami', (req, res) =>
    res.json({
      session: req.signedCookie('session') ?? null,
      raw: req.cookie('session') ?? null,
      theme: req.cookie('theme') ?? null,
      all: req.cookies(),
    }),
  );
  app.get('/logout', (_q, res) => res.clearCookie('session').json({ ok: true }));
  app.get('/unsigned-app', (_q, res) => res.cookie('x', '1', { signed: true }).send());
  return app;
}

describe.each(transports)('over $name', (transport) => {
  test('set, then read back (signed and plain), then cleared', async () => {
    const client = await transport.connect(application([CURRENT]));
    try {
      const login = await client.request('/login');
      const lines = login.headers.getSetCookie();
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^session=user-42\.[\w-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(lines[1]).toBe('theme=dark%20mode; Path=/; SameSite=Lax');
      const cookie = lines.map((line) => line.split(';')[0]).join('; ');
      const who = (await client.request('/whoami', { headers: { Cookie: cookie } })).json();
      expect(who.session).toBe('user-42');
      expect(who.theme).toBe('dark mode');
      // Forged: the value changed, the signature kept.
      const forged = cookie.replace('user-42', 'user-1');
      expect((await client.request('/whoami', { headers: { Cookie: forged } })).json().session).toBeNull();
      const logout = await client.request('/logout');
      expect(logout.headers.getSetCookie()).toEqual([
        'session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ]);
    } finally {
      await client.close();
    }
  });

  test('a signed cookie without secrets is a 500 that says why', async () => {
    const logger = memoryLogger();
    const client = await transport.connect(application(null, logger));
    try {
      expect((await client.request('/unsigned-app')).status).toBe(500);
      expect((await client.request('/whoami')).status).toBe(500);
      expect(logger.errors.map((e) => e.message)).toEqual([
        expect.stringContaining('the application has no cookie secrets'),
        expect.stringContaining('the application has no cookie secrets'),
      ]);
    } finally {
      await client.close();
    }
  });

  test('a malformed Cookie field reads as what can be read, never an error', async () => {
    const client = await transport.connect(application([CURRENT]));
    try {
      const who = await client.request('/whoami', { headers: { Cookie: 'theme=%E0%A4%A; =x; bad; a=1' } });
      expect(who.status).toBe(200);
      expect(who.json().all).toMatchObject({ a: '1' });
      expect(who.json().theme).toBe('%E0%A4%A');
    } finally {
      await client.close();
    }
  });
});

/** Names that are members of `Object.prototype`: a record of what a client sent must not answer to them. */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe.each(transports)('cookies named like Object.prototype members, over $name', (transport) => {
  const signer = new CookieSigner({ secrets: [CURRENT] });
  const probe = () => {
    const app = new Application(withEngine({ cookies: { secrets: [CURRENT] } }));
    app.get('/cookie/:name', (req, res) => {
      const name = req.param('name');
      const plain = req.cookie(name);
      const signed = req.signedCookie(name);
      // typeof first: a function or an object would not survive JSON, and that is the failure to see.
      return res.json({
        plain: typeof plain === 'string' ? plain : typeof plain,
        signed: typeof signed === 'string' ? signed : typeof signed,
        names: Object.keys(req.cookies()),
      });
    });
    return app;
  };

  type Row = [name: string, kind: string, field: string, expected: object];
  const absent = (name: string): Row => [
    name,
    'absent',
    'other=1',
    { plain: 'undefined', signed: 'undefined', names: ['other'] },
  ];
  const sent = (name: string): Row[] => {
    const signed = signer.sign(name, 'v');
    return [
      [name, 'sent plain', `${name}=v`, { plain: 'v', signed: 'undefined', names: [name] }],
      [name, 'sent signed', `${name}=${signed}`, { plain: signed, signed: 'v', names: [name] }],
    ];
  };
  // The cookie of that name when sent, else undefined. These were answered otherwise: an absent name read
  // as Object.prototype's member (a function: req.signedCookie threw, a 500), and a `__proto__` cookie was
  // lost (assigning to a plain object's `__proto__` sets its prototype, and a string is ignored).
  const FIXED: Row[] = [...INHERITED.map(absent), ...sent('__proto__')];
  // Sent under the other names, a cookie was already read as its own entry: kept so.
  const KEPT: Row[] = INHERITED.filter((name) => name !== '__proto__').flatMap(sent);

  test.each([...FIXED.map((row) => ['fixed', ...row]), ...KEPT.map((row) => ['kept', ...row])] as [
    string,
    ...Row,
  ][])('%s: %s, %s', async (_status, name, _kind, field, expected) => {
    const client = await transport.connect(probe());
    try {
      const reply = await client.request(`/cookie/${name}`, { headers: { Cookie: field } });
      expect([reply.status, reply.json()]).toEqual([200, expected]);
    } finally {
      await client.close();
    }
  });
});

describe.each(transports)('req.query() of a query string, over $name', (transport) => {
  const probe = () => {
    const app = new Application(withEngine());
    app.get('/query', (req, res) => {
      const all = req.query();
      return res.json({
        all,
        // What the record answers to without the client having sent it.
        inherited: INHERITED.filter((name) => !Object.hasOwn(all, name) && all[name] !== undefined),
      });
    });
    return app;
  };

  // Compared as JSON text: an object literal cannot hold an own `__proto__` key, JSON can.
  test.each([
    ['', '{"all":{},"inherited":[]}'],
    ['?constructor=y&toString=z', '{"all":{"constructor":"y","toString":"z"},"inherited":[]}'],
    ['?__proto__=x', '{"all":{"__proto__":"x"},"inherited":[]}'],
    // First values, as documented (Object.fromEntries kept the last).
    ['?a=1&a=2&b=3', '{"all":{"a":"1","b":"3"},"inherited":[]}'],
  ])('%s', async (query, json) => {
    const client = await transport.connect(probe());
    try {
      const reply = await client.request(`/query${query}`);
      expect([reply.status, reply.text]).toEqual([200, json]);
    } finally {
      await client.close();
    }
  });
});

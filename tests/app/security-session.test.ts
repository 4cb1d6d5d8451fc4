/**
 * session(): no cookie and no store call for a request that did not use the session (nor for a new one
 * left empty); a write sets the signed cookie, the next request reads it back; rolling expiry (the store
 * touched, the cookie sent again) and rolling: false; regenerate() on login (the old id refused after);
 * destroy() (the cookie cleared); the size limit (a 500 with the error logged, or caught around save());
 * a tampered cookie; expiry by the store's clock; the memory store's bound. Over real HTTP (node:http or
 * Arbor's server, by project) and app.fetch(); the store is wrapped to count its calls.
 */
import { describe, expect, test } from 'vitest';
import { type Application, memoryLogger } from '../../ts/src/app/index.js';
import {
  type Session,
  type SessionOptions,
  SessionTooLargeError,
  session,
} from '../../ts/src/middleware/session.js';
import { MemorySessionStore, type SessionStore } from '../../ts/src/middleware/session-store.js';
import { appStarter, type Client, type Reply, transports } from './support/transport.js';

const SECRETS = { cookies: { secrets: ['a-test-secret-of-32-characters!!'] } };

/** A memory store that records the calls made to it. */
class CountingStore implements SessionStore {
  readonly inner: MemorySessionStore;
  readonly calls: string[] = [];
  constructor(inner = new MemorySessionStore()) {
    this.inner = inner;
  }
  get(id: string) {
    this.calls.push('get');
    return this.inner.get(id);
  }
  set(id: string, data: string, ttlMs: number) {
    this.calls.push(`set ${data}`);
    return this.inner.set(id, data, ttlMs);
  }
  touch(id: string, ttlMs: number) {
    this.calls.push('touch');
    return this.inner.touch(id, ttlMs);
  }
  destroy(id: string) {
    this.calls.push('destroy');
    return this.inner.destroy(id);
  }
}

type Data = { user?: string; visits?: number; blob?: string };

function setup(store: SessionStore, options: SessionOptions = {}) {
  return (app: Application) => {
    const sessions = session<Data>({ store, cookie: { secure: false }, ...options });
    app.middleware(sessions);
    // Typed: a group given the middleware first reads `session` as Session<Data>, no cast.
    app.group('/typed', { middleware: [sessions] }, (typed) =>
      typed.get('/', (req, res) => res.json({ user: req.get('session').get('user') ?? null })),
    );
    app.get('/untouched', (_req, res) => res.json({ ok: true }));
    app.get('/read', (req, res) =>
      res.json({ user: req.get<Session<Data>>('session')?.get('user') ?? null }),
    );
    app.post('/login/:name', async (req, res) => {
      const s = req.get<Session<Data>>('session');
      await s?.regenerate();
      s?.set('user', req.param('name') as string);
      return res.json({ ok: true });
    });
    app.post('/logout', async (req, res) => {
      await req.get<Session<Data>>('session')?.destroy();
      return res.json({ ok: true });
    });
    app.post('/big', (req, res) => {
      req.get<Session<Data>>('session')?.set('blob', 'x'.repeat(10_000));
      return res.json({ ok: true });
    });
    app.post('/big-saved', async (req, res) => {
      const s = req.get<Session<Data>>('session');
      s?.set('blob', 'x'.repeat(10_000));
      try {
        await s?.save();
      } catch (error) {
        if (error instanceof SessionTooLargeError) {
          s?.delete('blob');
          return res.status(413).json({ size: error.size, maxSize: error.maxSize });
        }
        throw error;
      }
      return res.json({ ok: true });
    });
  };
}

const cookieOf = (reply: Reply) =>
  reply.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');

describe.each(transports)('session() over $name', (transport) => {
  const start = appStarter(transport);

  async function loggedIn(c: Client, name = 'ada'): Promise<string> {
    const reply = await c.request(`/login/${name}`, { method: 'POST' });
    expect(reply.status).toBe(200);
    return cookieOf(reply);
  }

  test('a request that never uses the session sets no cookie and calls no store', async () => {
    const store = new CountingStore();
    const c = await start(setup(store), SECRETS);
    const reply = await c.request('/untouched');
    expect(reply.headers.getSetCookie()).toEqual([]);
    expect(store.calls).toEqual([]);
    // Read but left empty: still no cookie and no write.
    const read = await c.request('/read');
    expect([read.json(), read.headers.getSetCookie()]).toEqual([{ user: null }, []]);
    expect(store.calls).toEqual([]);
  });

  test('a write sets a signed, HttpOnly cookie, and the next request reads the session back', async () => {
    const store = new CountingStore();
    const c = await start(setup(store), SECRETS);
    const login = await c.request('/login/ada', { method: 'POST' });
    const line = login.headers.getSetCookie()[0] ?? '';
    expect(line).toMatch(/^sid=[\w-]{43}\.[\w-]+; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(store.calls).toEqual(['set {"user":"ada"}']);
    const read = await c.request('/read', { headers: { cookie: cookieOf(login) } });
    expect(read.json()).toEqual({ user: 'ada' });
    // Only read: the store's expiry and the cookie start again (rolling), nothing is rewritten.
    expect(store.calls).toEqual(['set {"user":"ada"}', 'get', 'touch']);
    expect(read.headers.getSetCookie()[0]).toMatch(/^sid=.+; Max-Age=86400/);
    // A request with the cookie that does not use the session reads the store but touches nothing.
    const untouched = await c.request('/untouched', { headers: { cookie: cookieOf(login) } });
    expect(untouched.headers.getSetCookie()).toEqual([]);
    expect(store.calls.slice(3)).toEqual(['get']);
  });

  test('rolling: false sends no cookie and touches nothing for a read', async () => {
    const store = new CountingStore();
    const c = await start(setup(store, { rolling: false }), SECRETS);
    const cookie = await loggedIn(c);
    const read = await c.request('/read', { headers: { cookie } });
    expect([read.json(), read.headers.getSetCookie()]).toEqual([{ user: 'ada' }, []]);
    expect(store.calls).toEqual(['set {"user":"ada"}', 'get']);
  });

  test('regenerate() on login: a new id, and the old one refused afterwards', async () => {
    const store = new CountingStore();
    const c = await start(setup(store), SECRETS);
    const before = await loggedIn(c, 'ada');
    const after = await c.request('/login/root', { method: 'POST', headers: { cookie: before } });
    const renewed = cookieOf(after);
    expect(renewed).not.toBe(before);
    expect((await c.request('/read', { headers: { cookie: renewed } })).json()).toEqual({ user: 'root' });
    const old = await c.request('/read', { headers: { cookie: before } });
    expect(old.json()).toEqual({ user: null });
    expect(store.calls).toContain('destroy');
  });

  test('destroy() deletes the session and clears the cookie', async () => {
    const store = new CountingStore();
    const c = await start(setup(store), SECRETS);
    const cookie = await loggedIn(c);
    const logout = await c.request('/logout', { method: 'POST', headers: { cookie } });
    expect(logout.headers.getSetCookie()[0]).toMatch(
      /^sid=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    expect((await c.request('/read', { headers: { cookie } })).json()).toEqual({ user: null });
  });

  test('a cookie whose signature does not verify is never looked up', async () => {
    const store = new CountingStore();
    const c = await start(setup(store), SECRETS);
    const cookie = await loggedIn(c);
    const [name, value] = cookie.split('=') as [string, string];
    const id = value.slice(0, value.lastIndexOf('.'));
    for (const forged of [`${name}=${id}`, `${name}=${id}.AAAA`, `${name}=x${value}`]) {
      const reply = await c.request('/read', { headers: { cookie: forged } });
      expect(reply.json()).toEqual({ user: null });
    }
    expect(store.calls).toEqual(['set {"user":"ada"}']);
  });

  test('past maxSize: a 500 with the error logged, nothing stored; caught around save(): the handler answers', async () => {
    const store = new CountingStore();
    const logger = memoryLogger();
    const c = await start(setup(store), { ...SECRETS, logger });
    const big = await c.request('/big', { method: 'POST' });
    expect(big.status).toBe(500);
    expect(store.calls).toEqual([]);
    expect(JSON.stringify(logger.records)).toMatch(/SESSION_TOO_LARGE|over maxSize \(8192\)/);
    const caught = await c.request('/big-saved', { method: 'POST' });
    expect([caught.status, caught.json()]).toEqual([413, { size: 10_011, maxSize: 8192 }]);
    expect(caught.headers.getSetCookie()).toEqual([]);
  });

  test('without cookie secrets the first request is a 500 naming the fix', async () => {
    const logger = memoryLogger();
    const c = await start(setup(new MemorySessionStore()), { logger });
    expect((await c.request('/untouched')).status).toBe(500);
    expect(JSON.stringify(logger.records)).toMatch(/cookies: \{ secrets/);
  });
});

describe('MemorySessionStore', () => {
  test('a session expires after its time-to-live, and touch() starts it again', async () => {
    let now = 0;
    const store = new MemorySessionStore({ now: () => now });
    await store.set('a', '{}', 1_000);
    now = 900;
    await store.touch('a', 1_000);
    now = 1_800;
    expect(await store.get('a')).toBe('{}');
    now = 1_900;
    expect(await store.get('a')).toBeUndefined();
  });

  test('holds at most maxSessions, dropping the least recently written', async () => {
    const store = new MemorySessionStore({ maxSessions: 2 });
    await store.set('a', '1', 60_000);
    await store.set('b', '2', 60_000);
    await store.set('a', '3', 60_000);
    await store.set('c', '4', 60_000);
    expect([await store.get('a'), await store.get('b'), await store.get('c'), store.size]).toEqual([
      '3',
      undefined,
      '4',
      2,
    ]);
  });
});

test('session() refuses bad options at start-up', () => {
  expect(() => session({ maxAge: 0 })).toThrow(/maxAge must be a positive number/);
  expect(() => session({ cookieName: 'a b' })).toThrow(/not a valid cookie name/);
  expect(() => session({ cookie: { sameSite: 'none', secure: false } })).toThrow(
    /SameSite=None needs secure/,
  );
});

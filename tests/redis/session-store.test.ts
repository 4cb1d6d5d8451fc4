// The Redis session store against a real redis-server: what it writes (one string per session, with
// Redis's own expiry), touch and destroy; and session() on it over real HTTP on both servers, a session
// surviving the application's restart (a new Application, a new client, the first one closed).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { type Session, session } from '../../ts/src/middleware/session.js';
import { RedisSessionStore } from '../../ts/src/stores/redis-store.js';
import { listen } from '../app/support/transport.js';
import { REDIS_SETUP_TIMEOUT, type RedisInstance, startRedis } from './redis-server.js';

let redis: RedisInstance;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: 2 });
}, REDIS_SETUP_TIMEOUT);

afterAll(async () => {
  await client?.quit();
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let unique = 0;
const freshId = () => `s-${process.pid}-${++unique}`;

describe('RedisSessionStore', () => {
  it('stores one string per session under its prefix, expired by Redis', async () => {
    const store = new RedisSessionStore({ client, prefix: 'test-sessions:' });
    const id = freshId();
    await store.set(id, '{"user":"ada"}', 60_000);
    expect(await client.get(`test-sessions:${id}`)).toBe('{"user":"ada"}');
    const ttl = await client.pttl(`test-sessions:${id}`);
    expect(ttl).toBeGreaterThan(59_000);
    expect(await store.get(id)).toBe('{"user":"ada"}');
    expect(await store.get(freshId())).toBeUndefined();
    const defaults = new RedisSessionStore({ client });
    await defaults.set(id, '{}', 60_000);
    expect(await client.exists(`arbor:session:${id}`)).toBe(1);
  });

  it('touch() starts the time-to-live again; a session gone stays gone', async () => {
    const store = new RedisSessionStore({ client });
    const id = freshId();
    await store.set(id, '{}', 300);
    await sleep(200);
    await store.touch(id, 300);
    await sleep(200);
    expect(await store.get(id)).toBe('{}');
    await sleep(250);
    expect(await store.get(id)).toBeUndefined();
    await store.touch(id, 60_000);
    expect(await client.exists(`arbor:session:${id}`)).toBe(0);
  });

  it('destroy() deletes the session', async () => {
    const store = new RedisSessionStore({ client });
    const id = freshId();
    await store.set(id, '{}', 60_000);
    await store.destroy(id);
    expect(await store.get(id)).toBeUndefined();
  });
});

const SECRETS = { cookies: { secrets: ['a-test-secret-of-32-characters!!'] } };

/** An application with sessions in Redis (its own client), listening; `stop()` closes both. */
async function startApp(server: 'node' | 'arbor', prefix: string) {
  const own = new Redis(redis.url, { maxRetriesPerRequest: 2 });
  const app = new Application({ ...SECRETS, ...(server === 'arbor' ? { server } : {}) });
  app.middleware(
    session({ store: new RedisSessionStore({ client: own, prefix }), cookie: { secure: false } }),
  );
  app.post('/login/:name', async (req, res) => {
    const current = req.get<Session>('session') as Session;
    await current.regenerate();
    current.set('user', req.param('name'));
    return res.json({ ok: true });
  });
  app.get('/me', (req, res) => res.json({ user: req.get<Session>('session')?.get('user') ?? null }));
  const { server: listening, base } = await listen(app);
  return {
    base,
    stop: async () => {
      await listening.closeGracefully(500);
      await own.quit();
    },
  };
}

describe.each(['node', 'arbor'] as const)('session() with Redis, on the %s server', (server) => {
  it('survives a restart of the application, and regenerate() refuses the old id there too', async () => {
    const prefix = `restart-${process.pid}-${server}:`;
    const first = await startApp(server, prefix);
    const login = await fetch(`${first.base}/login/ada`, { method: 'POST' });
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^sid=/);
    const relogin = await fetch(`${first.base}/login/root`, { method: 'POST', headers: { cookie } });
    const renewed = (relogin.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    await first.stop();

    const second = await startApp(server, prefix);
    try {
      const me = await fetch(`${second.base}/me`, { headers: { cookie: renewed } });
      expect(await me.json()).toEqual({ user: 'root' });
      const old = await fetch(`${second.base}/me`, { headers: { cookie } });
      expect(await old.json()).toEqual({ user: null });
      const keys = await client.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});

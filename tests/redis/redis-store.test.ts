// The Redis rate-limit store against a real redis-server: counting, windows, prefixes, atomicity, and
// recovery from the cases a shared server throws at it (script cache flushed, a key without expiry).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimitStore } from '../../ts/src/stores/redis-store.js';
import { REDIS_SETUP_TIMEOUT, type RedisInstance, startRedis } from './redis-server.js';

let redis: RedisInstance;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 2 });
}, REDIS_SETUP_TIMEOUT);

afterAll(async () => {
  await client?.quit();
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let unique = 0;
const freshKey = () => `client-${process.pid}-${++unique}`;

describe('RedisRateLimitStore', () => {
  it('counts hits per key and reports when the window ends', async () => {
    const store = new RedisRateLimitStore({ client });
    const key = freshKey();
    const before = Date.now();
    const first = await store.hit(key, 60_000);
    const second = await store.hit(key, 60_000);
    const other = await store.hit(freshKey(), 60_000);
    expect([first.count, second.count, other.count]).toEqual([1, 2, 1]);
    expect(first.resetAt).toBeGreaterThanOrEqual(before + 59_000);
    expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
    // The window is fixed: a later hit does not push the end further.
    expect(Math.abs(second.resetAt - first.resetAt)).toBeLessThan(1_000);
  });

  it('starts a new window once the old one expired', async () => {
    const store = new RedisRateLimitStore({ client });
    const key = freshKey();
    await store.hit(key, 150);
    await store.hit(key, 150);
    await sleep(250);
    expect((await store.hit(key, 150)).count).toBe(1);
  });

  it('writes under its prefix only, so two applications can share one Redis', async () => {
    const a = new RedisRateLimitStore({ client, prefix: 'app-a:' });
    const b = new RedisRateLimitStore({ client, prefix: 'app-b:' });
    const key = freshKey();
    await a.hit(key, 60_000);
    await a.hit(key, 60_000);
    expect((await b.hit(key, 60_000)).count).toBe(1);
    expect(await client.get(`app-a:${key}`)).toBe('2');
    expect(await client.pttl(`app-a:${key}`)).toBeGreaterThan(0);
    const defaults = new RedisRateLimitStore({ client });
    await defaults.hit(key, 60_000);
    expect(await client.exists(`arbor:ratelimit:${key}`)).toBe(1);
  });

  it('loses no increment when many hits race (one atomic script per hit)', async () => {
    // Two clients = two connections, as two processes would have.
    const second = new Redis(redis.url);
    try {
      const stores = [new RedisRateLimitStore({ client }), new RedisRateLimitStore({ client: second })];
      const key = freshKey();
      const hits = await Promise.all(Array.from({ length: 200 }, (_, i) => stores[i % 2]?.hit(key, 60_000)));
      const counts = hits.map((h) => h?.count).sort((x, y) => (x ?? 0) - (y ?? 0));
      expect(counts).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    } finally {
      await second.quit();
    }
  });

  it('reloads its script after SCRIPT FLUSH (restart, failover)', async () => {
    const store = new RedisRateLimitStore({ client });
    const key = freshKey();
    await store.hit(key, 60_000);
    await client.script('FLUSH');
    expect((await store.hit(key, 60_000)).count).toBe(2);
  });

  it('repairs a counter that lost its expiry instead of locking the client out forever', async () => {
    const store = new RedisRateLimitStore({ client });
    const key = freshKey();
    await client.set(`arbor:ratelimit:${key}`, '41');
    const hit = await store.hit(key, 60_000);
    expect(hit.count).toBe(42);
    expect(await client.pttl(`arbor:ratelimit:${key}`)).toBeGreaterThan(0);
  });

  it('forgets a key on reset()', async () => {
    const store = new RedisRateLimitStore({ client });
    const key = freshKey();
    await store.hit(key, 60_000);
    await store.reset(key);
    expect((await store.hit(key, 60_000)).count).toBe(1);
  });

  it('refuses a window that is not a positive duration', async () => {
    const store = new RedisRateLimitStore({ client });
    await expect(store.hit(freshKey(), 0)).rejects.toThrow(RangeError);
    await expect(store.hit(freshKey(), Number.NaN)).rejects.toThrow(RangeError);
  });
});

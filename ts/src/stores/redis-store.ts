/**
 * A Redis-backed `RateLimitStore` for the throttle middleware, for applications that run as several
 * processes (node:cluster) or on several hosts: every process counts in the same Redis key, so the limit
 * holds for the client as a whole. The in-memory store stays the default; this one is opt-in.
 *
 * Counting is a fixed window per key: the first hit creates the key with a time-to-live of `windowMs`,
 * later hits increment it until it expires. Both steps run in one Lua script, so two processes hitting the
 * same key at the same instant can neither lose an increment nor leave a key without an expiry (the race
 * an `INCR` followed by a separate `PEXPIRE` has when a process dies between the two).
 *
 * @example
 * import { Redis } from 'ioredis';
 * const store = new RedisRateLimitStore({ client: new Redis(process.env.REDIS_URL) });
 * app.get('/search', search).middleware(throttle({ max: 60, minutes: 1, store }));
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimitHit, RateLimitStore } from '../app/throttle.js';

export interface RedisRateLimitStoreOptions {
  /** A connected (or connecting) ioredis client. The caller owns it: the store never closes it. */
  client: Redis;
  /** Prefix of every key the store writes (default `arbor:ratelimit:`), so one Redis can serve several apps. */
  prefix?: string;
}

// KEYS[1] the counter, ARGV[1] the window in ms. Returns { count, remaining ttl in ms }.
// The PTTL check also repairs a key that somehow lost its expiry (e.g. written by hand), which would
// otherwise lock a client out forever.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;
const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'arbor:ratelimit:';
  }

  /** Counts one hit for `key` in a window of `windowMs`; atomic across every process sharing the Redis. */
  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    if (!Number.isFinite(windowMs) || windowMs <= 0)
      throw new RangeError(`windowMs must be > 0, got ${windowMs}`);
    const redisKey = this.#prefix + key;
    const window = Math.ceil(windowMs);
    let reply: unknown;
    try {
      // EVALSHA sends 40 bytes instead of the script; the first call on a fresh server (or after
      // SCRIPT FLUSH / a failover) gets NOSCRIPT, and EVAL both runs and caches it.
      reply = await this.#client.evalsha(HIT_SHA, 1, redisKey, window);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      reply = await this.#client.eval(HIT_SCRIPT, 1, redisKey, window);
    }
    const [count, ttl] = parseReply(reply);
    return { count, resetAt: Date.now() + ttl };
  }

  /** Forgets the counter of `key` (e.g. after a successful login). */
  async reset(key: string): Promise<void> {
    await this.#client.del(this.#prefix + key);
  }
}

function parseReply(reply: unknown): [number, number] {
  if (Array.isArray(reply) && typeof reply[0] === 'number' && typeof reply[1] === 'number') {
    return [reply[0], reply[1]];
  }
  throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
}

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
 * The client is `ioredis`, an optional peer dependency of the package: an application that uses this
 * store installs it (`npm install ioredis`), every other application never downloads it. The store itself
 * only needs the three commands of {@link RedisClient}, so it takes a client the application made, or
 * makes one from a URL with {@link RedisRateLimitStore.fromUrl}, which says plainly when ioredis is missing.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const store = new RedisRateLimitStore({ client: new Redis(process.env.REDIS_URL) });
 * app.get('/search', search).middleware(throttle({ max: 60, minutes: 1, store }));
 *
 * @module arbor-router/redis
 */

import { crypto } from '../builtins.js';
import type { RateLimitHit, RateLimitStore } from '../middleware/throttle.js';

// The session store shares the entry: `import { RedisSessionStore } from 'arbor-router/redis'`.
export {
  type RedisSessionClient,
  RedisSessionStore,
  type RedisSessionStoreOptions,
} from './redis-session-store.js';

/**
 * The commands the store sends. An ioredis `Redis` (or `Cluster`) has them; declared here rather than
 * imported from ioredis so that the package's types do not require ioredis to be installed.
 */
export interface RedisClient {
  /** Runs a script Redis already holds, by its SHA-1. */
  evalsha(sha1: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** Runs a script (and makes Redis hold it for later `evalsha` calls). */
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** Deletes keys; answers how many existed. */
  del(...keys: string[]): Promise<number>;
}

/** Options of a {@link RedisRateLimitStore}: the client it sends through and the prefix of its keys. */
export interface RedisRateLimitStoreOptions {
  /** A connected (or connecting) client. The caller owns it: the store never closes it. */
  client: RedisClient;
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
const HIT_SHA = crypto().createHash('sha1').update(HIT_SCRIPT).digest('hex');

/** Thrown by {@link RedisRateLimitStore.fromUrl} when the optional peer dependency is not installed. */
export class MissingPeerDependencyError extends Error {
  readonly code = 'MISSING_PEER_DEPENDENCY';
  readonly dependency: string;

  constructor(dependency: string, cause: unknown) {
    super(
      `arbor-router/redis needs the '${dependency}' package to connect to Redis, and it is not installed: ` +
        `run \`npm install ${dependency}\` in your application (it is an optional peer dependency of arbor-router)`,
      { cause },
    );
    this.name = 'MissingPeerDependencyError';
    this.dependency = dependency;
  }
}

interface IoRedisModule {
  Redis: new (url: string, options?: Record<string, unknown>) => RedisClient & { quit(): Promise<unknown> };
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(options: RedisRateLimitStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'arbor:ratelimit:';
  }

  /**
   * A store with its own ioredis client for `url` (`redis://host:6379/0`). `clientOptions` go to ioredis
   * (default `maxRetriesPerRequest: 1`: a request fails fast instead of waiting while Redis is away).
   * Rejects with a {@link MissingPeerDependencyError} when ioredis is not installed, so the application
   * learns it at start-up, not at its first throttled request. `client.quit()` closes the connection.
   *
   * @example
   * const { store, client } = await RedisRateLimitStore.fromUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
   */
  static async fromUrl(
    url: string,
    options: { prefix?: string; clientOptions?: Record<string, unknown> } = {},
  ): Promise<{
    store: RedisRateLimitStore;
    /** The client the store made; the caller owns it (`quit()` closes it). */
    client: RedisClient & {
      /** Closes the connection once pending replies are in. */
      quit(): Promise<unknown>;
    };
  }> {
    let ioredis: IoRedisModule;
    try {
      // A variable specifier: bundlers and type checkers must not require the optional peer.
      const specifier = 'ioredis';
      ioredis = (await import(specifier)) as IoRedisModule;
    } catch (error) {
      // Only ioredis itself missing; a broken installation of it keeps its own error.
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes("'ioredis'"))
        throw new MissingPeerDependencyError('ioredis', error);
      throw error;
    }
    const client = new ioredis.Redis(url, { maxRetriesPerRequest: 1, ...options.clientOptions });
    const store = new RedisRateLimitStore({
      client,
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    });
    return { store, client };
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

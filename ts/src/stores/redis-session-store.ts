/**
 * A Redis-backed `SessionStore` for the session middleware: sessions shared by every process and host of
 * the application, and kept across restarts and deploys. Each session is one Redis string (its JSON) under
 * `prefix + id`, written with `SET … PX ttl`, so that Redis itself expires it; a rolling read is one
 * `PEXPIRE`, and `destroy` a `DEL`.
 *
 * The client is the application's (`ioredis`, an optional peer dependency: `npm install ioredis`); the
 * store needs only the four commands of {@link RedisSessionClient} and never closes it.
 *
 * @example
 * import { Redis } from 'ioredis';
 * import { RedisSessionStore } from 'arbor-router/redis';
 * app.middleware(session({ store: new RedisSessionStore({ client: new Redis(process.env.REDIS_URL) }) }));
 */
import type { SessionStore } from '../middleware/session-store.js';

/** The commands the session store sends; an ioredis `Redis` (or `Cluster`) has them. */
export interface RedisSessionClient {
  /** The string under `key`, or `null`. */
  get(key: string): Promise<string | null>;
  /** Writes `value` under `key` with a time-to-live in milliseconds (`SET key value PX ms`). */
  set(key: string, value: string, px: 'PX', milliseconds: number): Promise<unknown>;
  /** Sets a key's time-to-live in milliseconds; answers 0 when there is no such key. */
  pexpire(key: string, milliseconds: number): Promise<number>;
  /** Deletes keys; answers how many existed. */
  del(...keys: string[]): Promise<number>;
}

/** Options of a {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A connected (or connecting) client. The caller owns it: the store never closes it. */
  client: RedisSessionClient;
  /** Prefix of every key the store writes (default `arbor:session:`), so one Redis can serve several apps. */
  prefix?: string;
}

/** Sessions in Redis (see the module comment). */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisSessionClient;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'arbor:session:';
  }

  /** The session's JSON, or `undefined` when Redis has none (expired ones included). */
  async get(id: string): Promise<string | undefined> {
    return (await this.#client.get(this.#prefix + id)) ?? undefined;
  }

  /** Writes the session with its time-to-live, in one command. */
  async set(id: string, data: string, ttlMs: number): Promise<void> {
    await this.#client.set(this.#prefix + id, data, 'PX', checkedTtl(ttlMs));
  }

  /** Starts the session's time-to-live again; a session already gone stays gone. */
  async touch(id: string, ttlMs: number): Promise<void> {
    await this.#client.pexpire(this.#prefix + id, checkedTtl(ttlMs));
  }

  /** Deletes the session. */
  async destroy(id: string): Promise<void> {
    await this.#client.del(this.#prefix + id);
  }
}

function checkedTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be > 0, got ${ttlMs}`);
  return Math.ceil(ttlMs);
}

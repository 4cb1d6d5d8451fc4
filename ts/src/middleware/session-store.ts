/**
 * Where sessions live: the {@link SessionStore} interface the `session()` middleware writes through, and
 * the in-memory store it uses by default. A store holds each session as the JSON text the middleware
 * serialised (its size already checked), under the session id, for a time-to-live that every write and
 * every `touch` starts again. The Redis store (`RedisSessionStore` in `arbor-router/redis`) implements the
 * same four calls for applications that run as several processes, or must keep sessions across restarts.
 */

/**
 * Holds sessions by id, each for a time-to-live. Implementations must be safe for concurrent calls; an
 * expired session reads as `undefined`.
 */
export interface SessionStore {
  /** The session's JSON text, or `undefined` when there is none (never stored, destroyed or expired). */
  get(id: string): Promise<string | undefined>;
  /** Stores the session's JSON text for `ttlMs` milliseconds (replacing what was there). */
  set(id: string, data: string, ttlMs: number): Promise<void>;
  /** Starts the time-to-live of a stored session again without rewriting it (rolling expiry). */
  touch(id: string, ttlMs: number): Promise<void>;
  /** Forgets the session. */
  destroy(id: string): Promise<void>;
}

/** Options of a {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Sessions held at most; past it the least recently written one is dropped. Default 10,000. */
  maxSessions?: number;
  /** Milliseconds clock; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  data: string;
  expiresAt: number;
}

/**
 * The default store: one process, bounded and expiring. Sessions are lost when the process ends, and are
 * not shared between workers: use the Redis store for either. Memory is bounded by `maxSessions` times the
 * session middleware's `maxSize`; an expired session is dropped when it is read, and the expired ones are
 * swept as new sessions are written.
 *
 * @example
 * app.middleware(session({ store: new MemorySessionStore({ maxSessions: 50_000 }) }));
 */
export class MemorySessionStore implements SessionStore {
  // A Map keeps insertion order: re-inserting on each write makes its first key the least recently written.
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #now: () => number;
  #nextSweep = 0;

  constructor(options: MemorySessionStoreOptions = {}) {
    const max = options.maxSessions ?? 10_000;
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`MemorySessionStore: maxSessions must be a positive integer, got ${max}`);
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** The sessions held now (expired ones not yet swept included). */
  get size(): number {
    return this.#entries.size;
  }

  /** The session's JSON text, unless it expired (see {@link SessionStore.get}). */
  async get(id: string): Promise<string | undefined> {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.data;
  }

  /** Stores the session, dropping the least recently written one when full (see {@link SessionStore.set}). */
  async set(id: string, data: string, ttlMs: number): Promise<void> {
    const now = this.#now();
    if (now >= this.#nextSweep) this.#sweep(now, ttlMs);
    this.#entries.delete(id);
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, { data, expiresAt: now + ttlMs });
  }

  /** Starts the session's time-to-live again (see {@link SessionStore.touch}). */
  async touch(id: string, ttlMs: number): Promise<void> {
    const entry = this.#entries.get(id);
    const now = this.#now();
    if (entry !== undefined && entry.expiresAt > now) entry.expiresAt = now + ttlMs;
  }

  /** Forgets the session. */
  async destroy(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  #sweep(now: number, ttlMs: number): void {
    for (const [id, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(id);
    // At most one full sweep per tenth of a session's lifetime: writes stay O(1) on average.
    this.#nextSweep = now + Math.max(1_000, ttlMs / 10);
  }
}

/**
 * Rate limiting, Laravel's meaning of `throttle:N,M`: at most N requests per M minutes per client — the
 * authenticated user when a middleware set `req.set('user', { id })`, else the client IP. A fixed window
 * starts at a client's first request.
 *
 * Every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`; a refused request gets 429 with
 * `Retry-After` (seconds) and `X-RateLimit-Reset` (epoch seconds). Counters live in a
 * {@link RateLimitStore}: in memory by default; the interface is asynchronous so a shared store (Redis)
 * can stand in for several processes.
 */
import { HttpError } from '../core/errors.js';
import { type Middleware, middlewareFactory } from '../core/middleware.js';
import type { Request } from '../core/request.js';

/** What a {@link RateLimitStore} answers for one hit: the count so far in the window, and when it ends. */
export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the window ends (epoch milliseconds). */
  resetAt: number;
}

/** Counts hits per key in fixed windows. Implementations must be safe for concurrent calls. */
export interface RateLimitStore {
  /** Counts one hit for `key`, opening a window of `windowMs` when none is open, and answers the window's state. */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
}

/**
 * The in-memory store: one process only. Expired windows are swept as new hits arrive, so memory stays
 * proportional to the clients seen within one window. It is the default; pass one yourself to share it
 * between several `throttle()` middlewares or to give it a clock in tests. Applications that run as
 * several processes use `RedisRateLimitStore` from `arbor-router/redis` instead.
 *
 * @example
 * const store = new MemoryRateLimitStore();
 * app.get('/search', search).middleware(throttle({ max: 60, minutes: 1, store }));
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, RateLimitHit>();
  readonly #now: () => number;
  #nextSweep = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Counts one hit for `key` in this process (see {@link RateLimitStore.hit}). */
  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.#now();
    if (now >= this.#nextSweep) this.#sweep(now, windowMs);
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    return { ...window };
  }

  #sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    this.#nextSweep = now + windowMs;
  }
}

/** Options of the {@link throttle} middleware: how many requests per window, counted where and for whom. */
export interface ThrottleOptions {
  /** Requests allowed per window. */
  max: number;
  /** Window length in minutes (Laravel's M). */
  minutes: number;
  /** Defaults to a new in-memory store for this middleware. */
  store?: RateLimitStore;
  /** Who is counted; default: `user:<id>` when `req.get('user')` has an `id`, else `ip:<address>`. */
  key?: (req: Request) => string;
  /** Milliseconds clock; injectable for deterministic tests. Defaults to `Date.now`. */
  now?: () => number;
}

/**
 * @example
 * app.get('/search', handler).middleware(throttle({ max: 60, minutes: 1 }));
 * app.group('/api', g => { … }).middleware('throttle:60,1');   // the built-in alias
 */
export function throttle(options: ThrottleOptions): Middleware {
  const { max, minutes } = options;
  if (!Number.isInteger(max) || max < 1)
    throw new RangeError(`throttle: max must be a positive integer, got ${max}`);
  if (!(minutes > 0)) throw new RangeError(`throttle: minutes must be positive, got ${minutes}`);
  const store = options.store ?? new MemoryRateLimitStore();
  const now = options.now ?? Date.now;
  const windowMs = Math.round(minutes * 60_000);
  const keyOf = options.key ?? clientKey;
  return async function throttle(req, handler) {
    const { count, resetAt } = await store.hit(`throttle:${max},${minutes}:${keyOf(req)}`, windowMs);
    const remaining = Math.max(0, max - count);
    if (count > max) {
      const retryAfter = Math.max(1, Math.ceil((resetAt - now()) / 1000));
      // Thrown, so that the application's onError and error shape answer it like any other refusal.
      throw new HttpError(429, 'Too Many Requests', {
        headers: {
          'Retry-After': String(retryAfter),
          'X-RateLimit-Limit': String(max),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
        },
      });
    }
    const res = await handler.handle(req);
    return res.clone().header('X-RateLimit-Limit', max).header('X-RateLimit-Remaining', remaining);
  };
}

function clientKey(req: Request): string {
  const user = req.get<{ id?: unknown }>('user');
  if (user !== undefined && user !== null && user.id !== undefined) return `user:${String(user.id)}`;
  // Under `app.fetch()` without `remoteAddress` every client would share the key `ip:` and one budget:
  // fail loudly (a 500 naming the fix in the log) rather than throttle everyone together.
  if (req.ip === '') {
    throw new Error(
      'throttle: the client address is unknown (app.fetch() without { remoteAddress }), so every client ' +
        'would share one budget; pass remoteAddress to app.fetch(), or give throttle() a key',
    );
  }
  return `ip:${req.ip}`;
}

/**
 * The factory behind the built-in `throttle` alias: `'throttle:60,1'` → 60 requests per minute. Every
 * route of one application shares `store`, and the key includes N and M, so two routes with the same
 * limit share a client's budget (as in Laravel).
 */
export function throttleFactory(store: RateLimitStore) {
  return middlewareFactory((max = '60', minutes = '1') => {
    const parsedMax = Number(max);
    const parsedMinutes = Number(minutes);
    if (!Number.isInteger(parsedMax) || parsedMax < 1 || !(parsedMinutes > 0)) {
      throw new RangeError(
        `invalid middleware reference 'throttle:${max},${minutes}': expected throttle:N,M`,
      );
    }
    return throttle({ max: parsedMax, minutes: parsedMinutes, store });
  });
}

/**
 * Sessions: a random session id in a cookie signed with the application's secrets (`cookies.secrets`),
 * the session's data in a {@link SessionStore} (in memory by default, Redis through `arbor-router/redis`).
 *
 * A request that sent a valid cookie has its session read from the store before the handler runs; any
 * other request gets a new, empty session that exists only in memory. On the way out the session is
 * written only if the request used it: a request that never called into `req.get('session')` sets no
 * cookie and writes nothing, and a new session left empty is never stored (no cookie for a visitor who
 * has not logged in). A used session whose data changed is written (its JSON checked against `maxSize`);
 * one only read has its expiry started again (`rolling`), by a `touch` of the store and a fresh cookie.
 */
import { crypto } from '../builtins.js';
import type { Middleware } from '../core/middleware.js';
import type { Response } from '../core/response.js';
import { type CookieOptions, setCookieLine } from '../helpers/cookies.js';
import { MemorySessionStore, type SessionStore } from './session-store.js';

/** What a session holds: JSON values by key. */
export type SessionData = Record<string, unknown>;

/** The cookie attributes of the session cookie (it is always signed; its lifetime is `maxAge`). */
export type SessionCookieOptions = Omit<CookieOptions, 'signed' | 'maxAge' | 'expires'>;

/** Options of the {@link session} middleware. */
export interface SessionOptions {
  /** Where sessions live. Default: a new {@link MemorySessionStore} (one process, bounded, expiring). */
  store?: SessionStore;
  /** The cookie's name. Default `sid`. */
  cookieName?: string;
  /**
   * The cookie's attributes. Default `Path=/; HttpOnly; Secure; SameSite=Lax`: pass `secure: false` to
   * develop over plain HTTP on a host other than `localhost`.
   */
  cookie?: SessionCookieOptions;
  /** Seconds a session lives without being used (the store's time-to-live and the cookie's `Max-Age`). Default 86,400 (a day). */
  maxAge?: number;
  /**
   * Every request that uses the session starts its lifetime again (the store's expiry and the cookie's).
   * `false`: only a write does. Default `true`.
   */
  rolling?: boolean;
  /** Bytes of JSON a session may hold; saving more throws a {@link SessionTooLargeError}. Default 8,192. */
  maxSize?: number;
}

/** Saving a session whose JSON is over `maxSize`: a programming error (a 500, logged) unless caught around `save()`. */
export class SessionTooLargeError extends Error {
  readonly code = 'SESSION_TOO_LARGE';
  /** The session's size as JSON, in bytes. */
  readonly size: number;
  /** The `maxSize` it exceeds. */
  readonly maxSize: number;

  constructor(size: number, maxSize: number) {
    super(
      `session: the session's data is ${size} bytes of JSON, over maxSize (${maxSize}); keep large data elsewhere (a database) and only its key in the session, or raise maxSize`,
    );
    this.name = 'SessionTooLargeError';
    this.size = size;
    this.maxSize = maxSize;
  }
}

/** The request key of the session (`req.get('session')`). */
export const SESSION_KEY = 'session';

const ID_BYTES = 32;
/** A session id as {@link newId} makes it: 32 random bytes in base64url. Anything else is ignored unread. */
const ID_FORM = /^[A-Za-z0-9_-]{43}$/;

function newId(): string {
  return crypto().randomBytes(ID_BYTES).toString('base64url');
}

/** What a session needs of its middleware. */
interface SessionContext {
  store: SessionStore;
  ttlMs: number;
  maxSize: number;
}

/**
 * One client's session, as `req.get('session')`. Reading or writing it (any method) marks the request as
 * one that used the session; see the module comment for what is then written.
 *
 * @example
 * app.post('/login', async (req, res) => {
 *   const user = await checkPassword(req.body());
 *   const session = req.get('session');
 *   await session.regenerate();           // a new id: one planted before login is worthless
 *   session.set('userId', user.id);
 *   return res.json({ ok: true });
 * });
 */
export class Session<D extends object = SessionData> {
  readonly #context: SessionContext;
  #id: string;
  /** The id the store holds this session under, or `null` (new, regenerated, destroyed). */
  #storedId: string | null;
  /** The JSON last read from or written to the store, to tell a changed session from a read one. */
  #storedJson: string | null;
  #data: SessionData;
  #used = false;
  #destroyed = false;

  /** @internal Made by the {@link session} middleware. */
  constructor(context: SessionContext, stored: { id: string; json: string; data: SessionData } | null) {
    this.#context = context;
    this.#id = stored?.id ?? newId();
    this.#storedId = stored?.id ?? null;
    this.#storedJson = stored?.json ?? null;
    this.#data = stored?.data ?? Object.create(null);
  }

  /** The session id (reading it does not count as using the session). */
  get id(): string {
    return this.#id;
  }

  /** True until the session is in the store: no valid cookie came with the request, or it was regenerated. */
  get isNew(): boolean {
    return this.#storedId === null;
  }

  /** The value under `key`, or `undefined`. */
  get<K extends keyof D & string>(key: K): D[K] | undefined {
    this.#used = true;
    return (Object.hasOwn(this.#data, key) ? this.#data[key] : undefined) as D[K] | undefined;
  }

  /** Whether the session holds `key`. */
  has(key: keyof D & string): boolean {
    this.#used = true;
    return Object.hasOwn(this.#data, key);
  }

  /** Stores `value` (a JSON value) under `key`. Chainable. */
  set<K extends keyof D & string>(key: K, value: D[K]): this {
    this.#writable('set');
    this.#data[key] = value;
    return this;
  }

  /** Removes `key`. Chainable. */
  delete(key: keyof D & string): this {
    this.#writable('delete');
    delete this.#data[key];
    return this;
  }

  /** A copy of the data, as it would be stored. */
  toJSON(): Partial<D> {
    this.#used = true;
    return { ...this.#data } as Partial<D>;
  }

  /** Counts the request as one that used the session (its expiry starts again with `rolling`). */
  touch(): void {
    this.#used = true;
  }

  /**
   * A new id for the session, its data emptied (but the keys in `keep`), and the old id deleted from the
   * store at once: call it on login and on any change of privilege, so that an id an attacker planted or
   * read before is worthless. A request carrying the old id afterwards gets a new, empty session.
   */
  async regenerate(keep: readonly (keyof D & string)[] = []): Promise<void> {
    this.#used = true;
    const old = this.#storedId;
    const data: SessionData = Object.create(null);
    for (const key of keep) if (Object.hasOwn(this.#data, key)) data[key] = this.#data[key];
    this.#data = data;
    this.#id = newId();
    this.#storedId = null;
    this.#storedJson = null;
    this.#destroyed = false;
    if (old !== null) await this.#context.store.destroy(old);
  }

  /** Deletes the session from the store and the cookie from the client (logout). `regenerate()` starts a new one. */
  async destroy(): Promise<void> {
    this.#used = true;
    this.#destroyed = true;
    this.#data = Object.create(null);
    const old = this.#storedId;
    this.#storedId = null;
    this.#storedJson = null;
    if (old !== null) await this.#context.store.destroy(old);
  }

  /**
   * Writes the session now (the middleware otherwise writes it once the answer is ready), so that a
   * {@link SessionTooLargeError} or a store failure reaches the handler.
   */
  async save(): Promise<void> {
    this.#writable('save');
    const json = this.#json();
    await this.#context.store.set(this.#id, json, this.#context.ttlMs);
    this.#storedId = this.#id;
    this.#storedJson = json;
  }

  /**
   * @internal What the middleware does once the answer is ready: `'none'` (untouched, or new and empty),
   * `'clear'` (destroyed), or `'cookie'` after writing or touching the store.
   */
  async settle(rolling: boolean): Promise<'none' | 'clear' | 'cookie'> {
    if (!this.#used) return 'none';
    if (this.#destroyed) return 'clear';
    const json = this.#json();
    if (json === this.#storedJson) {
      if (!rolling) return 'none';
      await this.#context.store.touch(this.#id, this.#context.ttlMs);
      return 'cookie';
    }
    // A new session left empty is not worth a cookie (nor a store entry).
    if (this.#storedId === null && json === '{}') return 'none';
    await this.#context.store.set(this.#id, json, this.#context.ttlMs);
    this.#storedId = this.#id;
    this.#storedJson = json;
    return 'cookie';
  }

  #writable(operation: string): void {
    this.#used = true;
    if (this.#destroyed)
      throw new Error(
        `session.${operation}(): this session was destroyed; call regenerate() to start a new one`,
      );
  }

  #json(): string {
    const json = JSON.stringify(this.#data);
    const size = Buffer.byteLength(json);
    if (size > this.#context.maxSize) throw new SessionTooLargeError(size, this.#context.maxSize);
    return json;
  }
}

/** The session stored under `id`, or `null` when the store has none (or holds something that is not a JSON object). */
function parsed(
  id: string,
  json: string | undefined,
): { id: string; json: string; data: SessionData } | null {
  if (json === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  // Null prototype: a key named `__proto__` is data like any other.
  return { id, json, data: Object.assign(Object.create(null), value) };
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`session(): ${name} must be a positive number, got ${value}`);
  return value;
}

/**
 * The session cookie is signed with the application's cookie secrets, which it must have
 * (`new Application({ cookies: { secrets: [...] } })`): without them the first request is a 500 naming
 * the fix. `D` types the session's keys (unchecked at run time: it is what the application stores).
 *
 * @example
 * const app = new Application({ cookies: { secrets: [process.env.COOKIE_SECRET!] } });
 * app.middleware(session());
 * app.get('/me', (req, res) => res.json({ user: req.get('session').get('userId') ?? null }));
 * // several processes, or sessions that outlive a restart:
 * app.middleware(session({ store: new RedisSessionStore({ client: new Redis(process.env.REDIS_URL) }) }));
 */
export function session<D extends object = SessionData>(
  options: SessionOptions = {},
): Middleware<{ session: Session<D> }> {
  const store = options.store ?? new MemorySessionStore();
  const name = options.cookieName ?? 'sid';
  const maxAge = positive('maxAge', options.maxAge ?? 86_400);
  const context: SessionContext = {
    store,
    ttlMs: Math.round(maxAge * 1000),
    maxSize: positive('maxSize', options.maxSize ?? 8_192),
  };
  const rolling = options.rolling ?? true;
  const attributes: CookieOptions = { secure: true, ...options.cookie, maxAge: Math.floor(maxAge) };
  // Checked now (a name that is not a token, SameSite=None without Secure): a start-up error, not a 500.
  setCookieLine(name, 'x', attributes);
  const clearing: CookieOptions = { ...attributes, maxAge: 0, expires: new Date(0) };

  return async function session(req, next) {
    const signer = req.cookieSigner;
    if (signer === null)
      throw new TypeError(
        'session(): the session cookie is signed with the application cookie secrets, and it has none (new Application({ cookies: { secrets: [...] } }))',
      );
    const sent = req.cookie(name);
    const id = sent === undefined ? undefined : signer.unsign(name, sent);
    const stored = id !== undefined && ID_FORM.test(id) ? parsed(id, await store.get(id)) : null;
    const current = new Session<D>(context, stored);
    req.set(SESSION_KEY, current);
    const answer = await next.handle(req);
    const outcome = await current.settle(rolling);
    if (outcome === 'none') return answer;
    if (outcome === 'clear') return sent === undefined ? answer : withCookie(answer, name, '', clearing);
    return withCookie(answer, name, signer.sign(name, current.id), attributes);
  };
}

function withCookie(answer: Response, name: string, value: string, attributes: CookieOptions): Response {
  return answer.clone().appendHeader('Set-Cookie', setCookieLine(name, value, attributes));
}

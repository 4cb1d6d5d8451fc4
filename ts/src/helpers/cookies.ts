/**
 * Cookies: reading the `Cookie` field and writing `Set-Cookie` lines with the `cookie` package, and signing
 * values so that a client cannot forge or alter them (HMAC-SHA256 over the cookie's name and value).
 *
 * A signed value is sent as `value.signature` (base64url). Signing covers the name too, so a value signed
 * for one cookie is refused under another. With several secrets the first signs and every one verifies:
 * rotate by putting the new secret first and keeping the old ones until the cookies they signed expire.
 */
import { parseCookie, type SetCookie, stringifySetCookie } from 'cookie';
import { crypto } from '../builtins.js';

/** `Set-Cookie` attributes (RFC 6265bis), as `res.cookie()` takes them. */
export interface CookieOptions {
  /** Seconds until it expires (`Max-Age`); wins over `expires` in clients that follow the RFC. */
  maxAge?: number;
  expires?: Date;
  domain?: string;
  /** Default `/`. */
  path?: string;
  /** Default `true`: page scripts cannot read it. */
  httpOnly?: boolean;
  secure?: boolean;
  /** Default `'lax'`. `'none'` requires `secure`. */
  sameSite?: 'lax' | 'strict' | 'none' | boolean;
  partitioned?: boolean;
  priority?: 'low' | 'medium' | 'high';
  /** Sign the value with the application's first secret (`cookies.secrets`). */
  signed?: boolean;
}

/** The `cookies` configuration key. */
export interface CookiesConfig {
  /**
   * Secrets for signed cookies, newest first: the first signs, all verify. Use long random values (32
   * bytes or more); a secret shorter than 16 characters is refused.
   */
  secrets: readonly (string | Buffer)[];
}

const DEFAULTS = { path: '/', httpOnly: true, sameSite: 'lax' } as const;
/** A cookie name is an HTTP token (RFC 6265bis §4.1.1). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIN_SECRET_LENGTH = 16;

/**
 * The `Cookie` field's pairs (values percent-decoded where they can be; the first of a repeated name wins),
 * as a null-prototype record: the client names its keys, so `__proto__` or `constructor` is a cookie like
 * any other, and a name that was not sent reads as `undefined`, never as a member of `Object.prototype`.
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (header === undefined || header === '') return out;
  for (const [name, value] of Object.entries(parseCookie(header))) if (value !== undefined) out[name] = value;
  return out;
}

/**
 * One `Set-Cookie` line. Throws a `TypeError` that names the cookie for a name that is not a token, or an
 * attribute the `cookie` package refuses (a domain or path with a `;`, a date outside 1601–9999).
 */
export function setCookieLine(name: string, value: string, options: CookieOptions = {}): string {
  if (!COOKIE_NAME.test(name))
    throw new TypeError(`res.cookie(): ${JSON.stringify(name)} is not a valid cookie name (an HTTP token)`);
  if (typeof value !== 'string')
    throw new TypeError(
      `res.cookie(${JSON.stringify(name)}): the value must be a string, not ${typeof value}`,
    );
  const { signed: _signed, ...attributes } = options;
  const cookie: SetCookie = { ...DEFAULTS, ...attributes, name, value };
  if (cookie.sameSite === 'none' && cookie.secure !== true)
    throw new TypeError(`res.cookie(${JSON.stringify(name)}): SameSite=None needs secure: true`);
  try {
    return stringifySetCookie(cookie);
  } catch (error) {
    throw new TypeError(`res.cookie(${JSON.stringify(name)}): ${(error as Error).message}`);
  }
}

/** Signs and verifies cookie values with the application's secrets. */
export class CookieSigner {
  readonly #secrets: readonly (string | Buffer)[];

  constructor(config: CookiesConfig) {
    const secrets = config.secrets;
    if (!Array.isArray(secrets) || secrets.length === 0)
      throw new TypeError('cookies.secrets: give at least one secret (the first signs, all verify)');
    for (const [index, secret] of secrets.entries()) {
      const length = typeof secret === 'string' ? secret.length : (secret as Buffer)?.byteLength;
      if (length === undefined || length < MIN_SECRET_LENGTH)
        throw new TypeError(
          `cookies.secrets[${index}]: a secret needs ${MIN_SECRET_LENGTH} characters or more (use 32 random bytes)`,
        );
    }
    this.#secrets = secrets;
  }

  /** `value.signature`, signed with the first secret. */
  sign(name: string, value: string): string {
    return `${value}.${mac(this.#secrets[0] as string | Buffer, name, value)}`;
  }

  /** The value if one of the secrets signed it for this name, else `undefined` (never throws). */
  unsign(name: string, signed: string): string | undefined {
    const dot = signed.lastIndexOf('.');
    if (dot === -1) return undefined;
    const value = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1));
    for (const secret of this.#secrets) {
      const expected = Buffer.from(mac(secret, name, value));
      if (expected.byteLength === given.byteLength && crypto().timingSafeEqual(expected, given)) return value;
    }
    return undefined;
  }
}

function mac(secret: string | Buffer, name: string, value: string): string {
  // The name is part of what is signed: a value signed for `role` does not verify as `session`.
  return crypto().createHmac('sha256', secret).update(`${name}=${value}`).digest('base64url');
}

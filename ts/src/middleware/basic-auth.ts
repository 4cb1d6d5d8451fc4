/**
 * HTTP Basic authentication: `Authorization: Basic base64(user:password)` checked against a user (or a
 * list of them) or by a function, and a 401 with `WWW-Authenticate: Basic realm="…", charset="UTF-8"`
 * when it is absent or wrong (a browser then asks for a name and password).
 *
 * Given users are compared in constant time: the SHA-256 digests of the sent and the expected name and
 * password (equal lengths, whatever was sent) with `crypto.timingSafeEqual`, every user of the list
 * compared, so the time taken says neither how much of a password was right nor which names exist.
 * Basic credentials travel in clear text: serve them over HTTPS only.
 */
import { crypto } from '../builtins.js';
import { HttpError } from '../core/errors.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';

/** Who was let in: `req.get('user')` after {@link basicAuth} (`id` is the user name, as `throttle()` counts it). */
export interface BasicAuthUser {
  /** The user name sent. */
  id: string;
}

/** Options of the {@link basicAuth} middleware: exactly one of `users` and `verify`. */
export type BasicAuthOptions = {
  /** The realm the browser shows (`WWW-Authenticate: Basic realm="…"`). Default `Restricted`. */
  realm?: string;
} & (
  | {
      /** The users allowed: one, or a list of them. */
      users: { username: string; password: string } | readonly { username: string; password: string }[];
      verify?: never;
    }
  | {
      /**
       * Decides, possibly asynchronously, whether the name and password let the request in (compare
       * password hashes with a constant-time function such as `bcrypt.compare` or `crypto.scrypt`).
       */
      verify: (username: string, password: string, req: Request) => boolean | Promise<boolean>;
      users?: never;
    }
);

/** The request key of the user let in (`req.get('user')`). */
export const BASIC_AUTH_USER_KEY = 'user';

function digest(text: string): Buffer {
  return crypto().createHash('sha256').update(text, 'utf8').digest();
}

/** The name and password of an `Authorization: Basic` field, or `null` when there is none (or it is malformed). */
export function basicCredentials(field: string | undefined): { username: string; password: string } | null {
  const match = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(field ?? '');
  if (match === null) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * @example
 * app.group('/admin', (admin) => { … }).middleware(basicAuth({ users: { username: 'admin', password: process.env.ADMIN_PASSWORD! } }));
 * app.middleware(basicAuth({ realm: 'Reports', verify: (name, password) => accounts.check(name, password) }));
 */
export function basicAuth(options: BasicAuthOptions): Middleware<{ user: BasicAuthUser }> {
  if ((options.users === undefined) === (options.verify === undefined))
    throw new TypeError('basicAuth(): give exactly one of users and verify');
  const realm = options.realm ?? 'Restricted';
  if (/["\\\r\n]/.test(realm) || !/^[\x20-\x7e]*$/.test(realm))
    throw new TypeError('basicAuth(): realm must be printable ASCII without quotes or backslashes');
  let check: (username: string, password: string, req: Request) => boolean | Promise<boolean>;
  if (options.users !== undefined) {
    const list = Array.isArray(options.users) ? options.users : [options.users];
    if (list.length === 0) throw new TypeError('basicAuth(): users is empty');
    const expected = list.map((user: { username: string; password: string }) => {
      if (
        typeof user.username !== 'string' ||
        user.username.includes(':') ||
        typeof user.password !== 'string'
      )
        throw new TypeError('basicAuth(): each user needs a username (without ":") and a password');
      return { username: digest(user.username), password: digest(user.password) };
    });
    check = (username, password) => {
      const name = digest(username);
      const secret = digest(password);
      let found = false;
      for (const user of expected) {
        // Both compared, for every user: `&&` and an early return would tell by their time what matched.
        const nameMatches = crypto().timingSafeEqual(name, user.username);
        const passwordMatches = crypto().timingSafeEqual(secret, user.password);
        found = (nameMatches && passwordMatches) || found;
      }
      return found;
    };
  } else {
    check = options.verify as typeof check;
  }
  const challenge = { 'WWW-Authenticate': `Basic realm="${realm}", charset="UTF-8"` };

  return async function basicAuth(req, next) {
    const credentials = basicCredentials(req.header('authorization'));
    if (credentials === null) throw new HttpError(401, 'Authentication required', { headers: challenge });
    if (!(await check(credentials.username, credentials.password, req)))
      throw new HttpError(401, 'Invalid user name or password', { headers: challenge });
    req.set(BASIC_AUTH_USER_KEY, { id: credentials.username });
    return next.handle(req);
  };
}

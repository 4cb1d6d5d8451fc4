/**
 * Cross-site request forgery: another site's page making its visitor's browser send this application a
 * request that changes something (a form posted to `/transfer`), with the visitor's cookies.
 *
 * Two checks, as hono/csrf and @fastify/csrf-protection make them:
 *
 * - **Where the request comes from** (always on). An unsafe request (not GET, HEAD or OPTIONS) whose body a
 *   page of another site could send without a CORS preflight — a form (`application/x-www-form-urlencoded`,
 *   `multipart/form-data`, `text/plain`, or no `Content-Type`) — must say, by its `Sec-Fetch-Site` or its
 *   `Origin`, that it comes from this origin (or one allowed). Browsers set both fields and pages cannot
 *   forge them. Other bodies (JSON) cannot be sent cross-site without a preflight, which `cors()` governs.
 * - **A token** (`token: 'cookie'` or `'session'`), for HTML forms: every unsafe request must carry a token
 *   (in a header or a form field) made from a secret the client's browser holds in a signed cookie, or the
 *   session holds. A page of another site can neither read the secret nor a token.
 *
 * A refusal is a {@link CsrfError}: a 403 through the application's `onError` and error shape.
 */
import { crypto } from '../builtins.js';
import { HttpError } from '../core/errors.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';
import { type CookieOptions, type CookieSigner, setCookieLine } from '../helpers/cookies.js';
import { SESSION_KEY, type Session } from './session.js';

/** The values of `Sec-Fetch-Site`: how the page that made the request relates to this origin. */
export type SecFetchSite = 'same-origin' | 'same-site' | 'none' | 'cross-site';

/** Where the token secret lives: a signed cookie (double submit), or the session (synchronizer token). */
export type CsrfTokenMode = 'cookie' | 'session';

/** Options of the token check. */
export interface CsrfTokenOptions {
  /** `'cookie'`: a signed cookie holds the secret. `'session'`: `session()` (registered before) holds it. */
  mode: CsrfTokenMode;
  /** The request header read for the token. Default `x-csrf-token`. */
  header?: string;
  /** The form field read for the token when the header is absent; `false`: none. Default `_csrf`. */
  field?: string | false;
  /** The secret's cookie (mode `'cookie'`). Default `csrf`; `__Host-csrf` with `secure: true` on HTTPS. */
  cookieName?: string;
  /** The secret cookie's attributes (mode `'cookie'`). Default `Path=/; HttpOnly; SameSite=Lax`, no expiry. */
  cookie?: Omit<CookieOptions, 'signed'>;
}

/** Options of the {@link csrf} middleware. */
export interface CsrfOptions {
  /**
   * The origins a form may be posted from. Default: this application's own (the `Host` of the request,
   * over `https`, or over `http` unless the request says it came over HTTPS). A string, a list of
   * origins and RegExps, or a function `(origin, req)` (possibly async) answering whether it is allowed.
   */
  origin?:
    | string
    | RegExp
    | readonly (string | RegExp)[]
    | ((origin: string, req: Request) => boolean | Promise<boolean>);
  /**
   * The `Sec-Fetch-Site` values accepted without looking at `Origin`. Default `'same-origin'`. A value, a
   * list, or a function `(value, req)`.
   */
  secFetchSite?: SecFetchSite | readonly SecFetchSite[] | ((value: string, req: Request) => boolean);
  /** Also require a token on every unsafe request. Default `false` (the origin check alone). */
  token?: false | CsrfTokenMode | CsrfTokenOptions;
}

/** A request refused as a cross-site forgery: 403. `reason` says which check refused it. */
export class CsrfError extends HttpError {
  /** `'origin'`: the request came from another site. `'token'`: its token was missing or wrong. */
  readonly reason: 'origin' | 'token';

  constructor(reason: 'origin' | 'token', message: string) {
    super(403, message);
    this.name = 'CsrfError';
    this.reason = reason;
  }
}

/** What {@link csrf} puts on the request in token mode. */
export interface CsrfVariables {
  /** Makes a token for the page being rendered (a new one per call; any of them verifies). */
  csrfToken: () => string;
}

/** The request key of the token maker (`req.get('csrfToken')()`), in token mode. */
export const CSRF_TOKEN_KEY = 'csrfToken';
/** The session key of the secret in mode `'session'`. */
export const CSRF_SESSION_KEY = 'csrfSecret';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a page of another site can send without a preflight (an HTML form's encodings). */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain', '']);

function mediaType(req: Request): string {
  const value = req.header('content-type') ?? '';
  const semicolon = value.indexOf(';');
  return (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/** The request came over HTTPS, by what it says (a TLS proxy's `X-Forwarded-Proto`, HTTP/2's `:scheme`). */
function saysHttps(req: Request): boolean {
  const proto = req.header('x-forwarded-proto');
  if (proto !== undefined) return proto.split(',')[0]?.trim().toLowerCase() === 'https';
  return req.header(':scheme') === 'https';
}

/** `Origin` is this application's own: its host is the request's, over https (or http unless HTTPS is said). */
function sameOrigin(origin: string, req: Request): boolean {
  const host = (req.header('host') ?? req.header(':authority'))?.toLowerCase();
  if (host === undefined || host === '') return false;
  const given = origin.toLowerCase();
  const https = given.startsWith('https://');
  if (!https && (!given.startsWith('http://') || saysHttps(req))) return false;
  const defaultPort = https ? ':443' : ':80';
  const strip = (authority: string) =>
    authority.endsWith(defaultPort) ? authority.slice(0, -defaultPort.length) : authority;
  return strip(given.slice(https ? 8 : 7)) === strip(host);
}

type OriginCheck = (origin: string, req: Request) => boolean | Promise<boolean>;

function originCheck(option: CsrfOptions['origin']): OriginCheck {
  if (option === undefined) return sameOrigin;
  if (typeof option === 'function') return option;
  const list = typeof option === 'string' || option instanceof RegExp ? [option] : option;
  for (const entry of list)
    if (typeof entry !== 'string' && !(entry instanceof RegExp))
      throw new TypeError(`csrf(): an origin is neither a string nor a RegExp: ${String(entry)}`);
  return (origin) =>
    list.some((entry) => {
      if (typeof entry === 'string') return entry === origin;
      entry.lastIndex = 0;
      return entry.test(origin);
    });
}

function siteCheck(option: CsrfOptions['secFetchSite']): (value: string, req: Request) => boolean {
  if (typeof option === 'function') return option;
  const allowed = new Set<string>(
    option === undefined ? ['same-origin'] : typeof option === 'string' ? [option] : option,
  );
  return (value) => allowed.has(value);
}

/** A token for `secret`: a fresh salt and its HMAC, so that no two pages carry the same token (BREACH). */
function makeToken(secret: string): string {
  const salt = crypto().randomBytes(16).toString('base64url');
  return `${salt}.${tokenMac(secret, salt)}`;
}

function tokenMac(secret: string, salt: string): string {
  return crypto().createHmac('sha256', secret).update(salt).digest('base64url');
}

function tokenMatches(secret: string, token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const expected = Buffer.from(tokenMac(secret, token.slice(0, dot)));
  const given = Buffer.from(token.slice(dot + 1));
  return expected.byteLength === given.byteLength && crypto().timingSafeEqual(expected, given);
}

function newSecret(): string {
  return crypto().randomBytes(32).toString('base64url');
}

/** Where the token secret is read and kept for one request. */
interface SecretPlace {
  read(): string | undefined;
  /** The secret, made (and kept) when there is none. */
  ensure(): string;
  /** The answer with the secret's cookie when this request made one. */
  finish(answer: Response): Response;
}

function cookiePlace(req: Request, name: string, attributes: CookieOptions): SecretPlace {
  const signer: CookieSigner | null = req.cookieSigner;
  if (signer === null)
    throw new TypeError(
      "csrf({ token: 'cookie' }): the secret's cookie is signed with the application cookie secrets, and it has none (new Application({ cookies: { secrets: [...] } }))",
    );
  let secret: string | undefined;
  let made = false;
  const read = () => {
    if (secret === undefined) {
      const sent = req.cookie(name);
      secret = sent === undefined ? undefined : signer.unsign(name, sent);
    }
    return secret;
  };
  return {
    read,
    ensure() {
      const known = read();
      if (known !== undefined) return known;
      secret = newSecret();
      made = true;
      return secret;
    },
    finish: (answer) =>
      made
        ? answer
            .clone()
            .appendHeader('Set-Cookie', setCookieLine(name, signer.sign(name, secret as string), attributes))
        : answer,
  };
}

function sessionPlace(req: Request): SecretPlace {
  const current = req.get<Session<Record<string, unknown>>>(SESSION_KEY);
  if (current === undefined)
    throw new TypeError(
      "csrf({ token: 'session' }): no session on the request; register session() before csrf()",
    );
  const read = () => {
    const value = current.get(CSRF_SESSION_KEY);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    read,
    ensure() {
      const known = read();
      if (known !== undefined) return known;
      const secret = newSecret();
      current.set(CSRF_SESSION_KEY, secret);
      return secret;
    },
    finish: (answer) => answer,
  };
}

/** The token the request carries: the header, else the form field (reading the body). */
async function sentToken(req: Request, header: string, field: string | false): Promise<string | undefined> {
  const inHeader = req.header(header);
  if (inHeader !== undefined && inHeader !== '') return inHeader;
  if (field === false) return undefined;
  const type = mediaType(req);
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') return undefined;
  let body: unknown;
  try {
    body = await req.readBody();
  } catch (error) {
    // A form the route streams (`.uploads({ stream: true })`) has no fields to read here: the header only.
    if (error instanceof HttpError) throw error;
    return undefined;
  }
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && Object.hasOwn(body as object, field) ? value : undefined;
}

/**
 * In token mode the request carries `csrfToken`, a function making a token for the page it renders
 * (`req.get('csrfToken')()`); the first one sets the secret's cookie (mode `'cookie'`) or session key.
 *
 * @example
 * app.middleware(csrf());                                           // the origin check
 * app.middleware(csrf({ origin: ['https://app.example', 'https://admin.example'] }));
 * app.group('/account', (account) => {
 *   account.get('/', (req, res) => res.html(`<form method="post">
 *     <input type="hidden" name="_csrf" value="${req.get('csrfToken')()}"> …</form>`));
 *   account.post('/', save);
 * }).middleware([session(), csrf({ token: 'session' })]);
 */
export function csrf(options: CsrfOptions = {}): Middleware<CsrfVariables> {
  const allowedOrigin = originCheck(options.origin);
  const allowedSite = siteCheck(options.secFetchSite);
  const token = options.token === undefined || options.token === false ? null : options.token;
  const tokenOptions: CsrfTokenOptions | null = typeof token === 'string' ? { mode: token } : token;
  if (tokenOptions !== null && tokenOptions.mode !== 'cookie' && tokenOptions.mode !== 'session')
    throw new TypeError(
      `csrf(): token must be 'cookie' or 'session', not ${JSON.stringify(tokenOptions.mode)}`,
    );
  const header = (tokenOptions?.header ?? 'x-csrf-token').toLowerCase();
  const field = tokenOptions?.field ?? '_csrf';
  const cookieName = tokenOptions?.cookieName ?? 'csrf';
  const cookieAttributes: CookieOptions = { ...tokenOptions?.cookie };
  // A bad name or attribute is a start-up error, not a 500 on the first form.
  if (tokenOptions?.mode === 'cookie') setCookieLine(cookieName, 'x', cookieAttributes);

  const checkOrigin = async (req: Request): Promise<void> => {
    if (!FORM_TYPES.has(mediaType(req))) return;
    const site = req.header('sec-fetch-site');
    if (site !== undefined && allowedSite(site.toLowerCase(), req)) return;
    const origin = req.header('origin');
    if (origin !== undefined && origin !== 'null' && (await allowedOrigin(origin, req))) return;
    throw new CsrfError(
      'origin',
      origin === undefined
        ? 'Cross-site request refused: a form was sent without an Origin header'
        : `Cross-site request refused: origin ${origin} may not send forms here`,
    );
  };

  return async function csrf(req, next) {
    const unsafe = !SAFE.has(req.method);
    if (unsafe) await checkOrigin(req);
    if (tokenOptions === null) return next.handle(req);
    const place =
      tokenOptions.mode === 'cookie' ? cookiePlace(req, cookieName, cookieAttributes) : sessionPlace(req);
    if (unsafe) {
      const sent = await sentToken(req, header, field);
      if (sent === undefined)
        throw new CsrfError('token', 'CSRF token missing: send it in the form or the header');
      const secret = place.read();
      if (secret === undefined || !tokenMatches(secret, sent))
        throw new CsrfError('token', 'CSRF token invalid: reload the form and send it again');
    }
    req.set(CSRF_TOKEN_KEY, () => makeToken(place.ensure()));
    return place.finish(await next.handle(req));
  };
}

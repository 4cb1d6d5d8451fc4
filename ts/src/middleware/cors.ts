/**
 * Cross-origin resource sharing: which other origins' pages may read this application's answers, and
 * send it requests a browser would otherwise hold back (a method other than GET, HEAD and POST, a header
 * such as `Authorization`, a JSON body).
 *
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 by the middleware itself,
 * with the methods, the headers (by default those the browser asked for) and `Access-Control-Max-Age`;
 * every other answer gets `Access-Control-Allow-Origin` (and credentials, exposed headers) on its way out.
 * Whenever the answer depends on the request's `Origin` or `Access-Control-Request-Headers`, the field
 * is added to `Vary`, so that a shared cache never hands one origin's answer to another.
 *
 * `*` is never sent with `credentials: true` (browsers refuse such an answer): that pair is a `TypeError`
 * when the middleware is made, and the origins allowed to send credentials must be named (a list, a
 * RegExp, a function), or `origin: true` reflects any origin on purpose.
 */
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import { addVary } from './vary.js';

/** One allowed origin: the exact serialized origin (`https://app.example`), or a RegExp tested on it. */
export type OriginMatcher = string | RegExp;

/**
 * What the origin function answers: `true` (echo the request's origin), `false`/`null`/`undefined`
 * (refuse it), or the value to send in `Access-Control-Allow-Origin`.
 */
export type OriginDecision = boolean | string | null | undefined;

/** Options of the {@link cors} middleware: which origins, methods and headers a cross-origin request may use. */
export interface CorsOptions {
  /**
   * Which origins may read the answers. `'*'` (default): any, without credentials. `true`: any, by echoing
   * the request's origin (never the opaque `null` origin of sandboxed frames and `file:` pages). A string:
   * that one origin, always sent. A RegExp, or a list of strings and RegExps: the request's origin is
   * echoed when it matches. A function `(origin, req)`, possibly async: see {@link OriginDecision}.
   */
  origin?:
    | '*'
    | true
    | OriginMatcher
    | readonly OriginMatcher[]
    | ((origin: string, req: Request) => OriginDecision | Promise<OriginDecision>);
  /** Methods a preflight allows. Default `GET, POST, PUT, DELETE, OPTIONS`. */
  methods?: readonly string[] | string;
  /**
   * Request headers a preflight allows. Default: the ones the browser asks for
   * (`Access-Control-Request-Headers` reflected, with `Vary` on it). A list allows those only.
   */
  headers?: readonly string[] | string;
  /** Response headers the page may read beyond the CORS-safelisted ones (`Access-Control-Expose-Headers`). */
  exposeHeaders?: readonly string[] | string;
  /** `Access-Control-Allow-Credentials: true`: the browser sends cookies and reveals the answer. Default `false`. */
  credentials?: boolean;
  /** Seconds a browser may cache a preflight answer (`Access-Control-Max-Age`). */
  maxAge?: number;
  /**
   * Also send `Access-Control-Allow-Methods` (and `Access-Control-Allow-Headers`, when `headers` is a
   * list) on every answer, not only on preflights: browsers read them on preflights alone, but some
   * clients and API gateways look for them on every answer. Default `false`.
   */
  permissionsOnEveryAnswer?: boolean;
}

const join = (value: readonly string[] | string): string =>
  typeof value === 'string' ? value : value.join(', ');

/** How the request's origin becomes `Access-Control-Allow-Origin`: `null` refuses it. */
type OriginRule = {
  /** Whether the answer depends on the request's `Origin` (then `Vary: Origin`). */
  varies: boolean;
  decide(origin: string | undefined, req: Request): string | null | Promise<string | null>;
};

function originRule(option: CorsOptions['origin'], credentials: boolean): OriginRule {
  if (option === undefined || option === '*') {
    if (credentials)
      throw new TypeError(
        "cors(): credentials: true cannot be sent with Access-Control-Allow-Origin: * (browsers refuse it); name the origins allowed (origin: ['https://app.example'], a RegExp or a function), or reflect any origin on purpose with origin: true",
      );
    return { varies: false, decide: () => '*' };
  }
  if (option === true) {
    return {
      varies: true,
      decide: (origin) => (origin === undefined || origin === 'null' ? null : origin),
    };
  }
  if (typeof option === 'string') {
    if (option === '') throw new TypeError('cors(): origin must not be empty');
    return { varies: false, decide: () => option };
  }
  if (typeof option === 'function') {
    return {
      varies: true,
      decide: (origin, req) => {
        if (origin === undefined) return null;
        const decision = option(origin, req);
        return decision instanceof Promise
          ? decision.then((value) => decided(value, origin))
          : decided(decision, origin);
      },
    };
  }
  const list: readonly OriginMatcher[] = option instanceof RegExp ? [option] : option;
  if (!Array.isArray(list))
    throw new TypeError(`cors(): origin must be '*', true, a string, a RegExp, a list or a function`);
  for (const entry of list) {
    if (typeof entry !== 'string' && !(entry instanceof RegExp))
      throw new TypeError(`cors(): an origin in the list is neither a string nor a RegExp: ${String(entry)}`);
    if (entry === '*') throw new TypeError("cors(): '*' inside a list means nothing; pass origin: '*' alone");
  }
  return {
    varies: true,
    decide: (origin) => {
      if (origin === undefined) return null;
      for (const entry of list) {
        if (typeof entry === 'string' ? entry === origin : matches(entry, origin)) return origin;
      }
      return null;
    },
  };
}

/** A RegExp with the `g` or `y` flag keeps a position between tests: reset it so that each test starts at 0. */
function matches(pattern: RegExp, origin: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(origin);
}

function decided(value: OriginDecision, origin: string): string | null {
  if (value === true) return origin;
  if (typeof value === 'string' && value !== '') return value;
  return null;
}

/**
 * @example
 * app.middleware(cors());                                            // any origin, no credentials
 * app.middleware(cors({ origin: ['https://app.example', /^https:\/\/[a-z]+\.example\.com$/], credentials: true }));
 * app.group('/api', (api) => { … }).middleware(cors({ origin: async (origin) => tenants.has(origin) }));
 */
export function cors(options: CorsOptions = {}): Middleware {
  const credentials = options.credentials === true;
  const rule = originRule(options.origin, credentials);
  const methods = join(options.methods ?? ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
  const allowHeaders = options.headers === undefined ? null : join(options.headers);
  const exposeHeaders = options.exposeHeaders === undefined ? null : join(options.exposeHeaders);
  const maxAge = options.maxAge;
  const everyAnswer = options.permissionsOnEveryAnswer === true;
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0))
    throw new RangeError(`cors(): maxAge must be a whole number of seconds, got ${maxAge}`);

  const preflight = (req: Request, allowed: string | null): Response => {
    const res = new Response().status(204);
    if (rule.varies) addVary(res, 'Origin');
    if (allowHeaders === null) addVary(res, 'Access-Control-Request-Headers');
    // A refused origin gets an answer without permissions: the browser stops there.
    if (allowed === null) return res;
    res.header('Access-Control-Allow-Origin', allowed).header('Access-Control-Allow-Methods', methods);
    const headers = allowHeaders ?? req.header('access-control-request-headers');
    if (headers !== undefined && headers !== '') res.header('Access-Control-Allow-Headers', headers);
    if (credentials) res.header('Access-Control-Allow-Credentials', 'true');
    if (maxAge !== undefined) res.header('Access-Control-Max-Age', maxAge);
    return res;
  };

  const decorate = (answer: Response, allowed: string | null): Response => {
    const res = answer.clone();
    if (rule.varies) addVary(res, 'Origin');
    if (allowed === null) return res;
    res.header('Access-Control-Allow-Origin', allowed);
    if (credentials) res.header('Access-Control-Allow-Credentials', 'true');
    if (exposeHeaders !== null) res.header('Access-Control-Expose-Headers', exposeHeaders);
    if (everyAnswer) {
      res.header('Access-Control-Allow-Methods', methods);
      if (allowHeaders !== null) res.header('Access-Control-Allow-Headers', allowHeaders);
    }
    return res;
  };

  const answer = async (req: Request, allowed: string | null, next: () => Promise<Response>) =>
    req.method === 'OPTIONS' && req.hasHeader('access-control-request-method')
      ? preflight(req, allowed)
      : decorate(await next(), allowed);

  return function cors(req, handler) {
    const allowed = rule.decide(req.header('origin'), req);
    const next = () => handler.handle(req);
    return allowed instanceof Promise
      ? allowed.then((value) => answer(req, value, next))
      : answer(req, allowed, next);
  };
}

/**
 * Secure headers with helmet's defaults, helmet itself computing them: `Content-Security-Policy`,
 * `Strict-Transport-Security` (on HTTPS only), `X-Content-Type-Options`, `X-Frame-Options` (and the CSP's
 * `frame-ancestors`), `Referrer-Policy`, `Cross-Origin-Opener-Policy`, `Cross-Origin-Resource-Policy`,
 * `Origin-Agent-Cluster`, `X-DNS-Prefetch-Control`, `X-Download-Options`,
 * `X-Permitted-Cross-Domain-Policies`, `X-XSS-Protection: 0`, and no `X-Powered-By`.
 *
 * helmet runs once per policy, when the middleware is made (its option checks become start-up errors), on
 * a stand-in response that records the headers; a request then copies the recorded list, putting its own
 * nonce into the CSP when the policy has one. A header the response already carries is kept (the
 * handler's own word wins). A `secureHeaders()` on a route or group inside an application-wide one
 * replaces the options it names for that route: the outermost writes the headers, once.
 */
import helmet, { type HelmetOptions } from 'helmet';
import { crypto } from '../builtins.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';

/**
 * Put in a CSP directive (`scriptSrc: ["'self'", NONCE]`) to allow the elements that carry the request's
 * nonce (`<script nonce="${req.get('cspNonce')}">`).
 */
export const NONCE = "'nonce-{arbor-csp-nonce}'";

/** helmet's options (each header by its name, `false` to leave it out), and when HSTS is sent. */
export type SecureHeadersOptions = HelmetOptions & {
  /**
   * Whether a request came over HTTPS, which alone gets `Strict-Transport-Security` (a browser ignores it
   * over plain HTTP, RFC 6797). Default: the request says so — `X-Forwarded-Proto: https` from a TLS
   * proxy, or HTTP/2's `:scheme`. A request over node:https on HTTP/1.1 does not say it was encrypted: an
   * application served over TLS only passes `true`.
   */
  https?: boolean | ((req: Request) => boolean);
  /**
   * Adds a per-request nonce to `script-src` (`'nonce-…'`), read by the handler as `req.get('cspNonce')`.
   * Default `false`; {@link NONCE} in any directive also makes one.
   */
  nonce?: boolean;
};

/** The request key of the nonce (`req.get('cspNonce')`). */
export const CSP_NONCE_KEY = 'cspNonce';

/**
 * What `secureHeaders()` adds to a request: its CSP nonce. A group or route given
 * `secureHeaders({ nonce: true })` in its middleware reads `req.get('cspNonce')` as a `string`; given
 * `secureHeaders()` without `nonce: true`, as `string | undefined` (a nonce comes only from {@link NONCE}
 * in a directive, or from another `secureHeaders()` around it that has one).
 */
export interface SecureHeadersVariables {
  /** The nonce of this request's Content-Security-Policy (base64): `<script nonce="…">`. */
  [CSP_NONCE_KEY]: string;
}
/** The request key under which an enclosing `secureHeaders()` hears what an inner one asks for. */
const LAYER_KEY = 'arbor.secureHeaders';
const HSTS = 'strict-transport-security';
const NONCE_TOKEN = '{arbor-csp-nonce}';

/** One policy: the headers helmet wrote for it, by lower-case key. */
class Policy {
  readonly options: SecureHeadersOptions;
  readonly headers: readonly [key: string, name: string, value: string][];
  /** Index of the CSP entry whose value holds the nonce token, or -1. */
  readonly nonceAt: number;
  readonly https: (req: Request) => boolean;
  readonly #merged = new WeakMap<SecureHeadersOptions, Policy>();

  constructor(options: SecureHeadersOptions) {
    this.options = options;
    const { https, nonce, ...helmetOptions } = options;
    this.headers = recordHelmet(nonce === true ? withScriptNonce(helmetOptions) : helmetOptions);
    this.nonceAt = this.headers.findIndex(([, , value]) => value.includes(NONCE_TOKEN));
    this.https = https === undefined ? viaHttps : typeof https === 'function' ? https : () => https;
  }

  /** This policy with `inner`'s options over its own (a route's `secureHeaders()` inside the application's). */
  merged(inner: SecureHeadersOptions): Policy {
    let policy = this.#merged.get(inner);
    if (policy === undefined) {
      // helmet types its options as a union of alias choices; merging two valid choices keeps one of each.
      policy = new Policy({ ...this.options, ...inner } as SecureHeadersOptions);
      this.#merged.set(inner, policy);
    }
    return policy;
  }
}

/** What helmet would set, recorded from a stand-in response. helmet throws here on an invalid option. */
function recordHelmet(options: HelmetOptions): [string, string, string][] {
  const recorded: [string, string, string][] = [];
  const res = {
    setHeader(name: string, value: string | number) {
      recorded.push([name.toLowerCase(), name, String(value)]);
    },
    removeHeader() {},
  };
  let failure: unknown;
  // helmet's middleware reads nothing of the request but what directive functions read; it is synchronous.
  helmet(options)({ headers: {} } as never, res as never, (error?: unknown) => {
    failure = error;
  });
  if (failure !== undefined) throw failure;
  return recorded;
}

/** The options with {@link NONCE} added to `script-src` (helmet's default one when none is given). */
function withScriptNonce(options: HelmetOptions): HelmetOptions {
  const csp = options.contentSecurityPolicy;
  if (csp === false) throw new TypeError('secureHeaders(): nonce: true needs the Content-Security-Policy');
  const given = csp === undefined || csp === true ? {} : csp;
  const directives = { ...(given.directives ?? {}) } as Record<string, unknown>;
  const key = 'script-src' in directives ? 'script-src' : 'scriptSrc';
  const current = directives[key] ?? (given.useDefaults === false ? [] : ["'self'"]);
  directives[key] = [...(current as Iterable<string>), NONCE];
  return { ...options, contentSecurityPolicy: { ...given, directives } as never };
}

/** The default of `https`: what the request itself says. */
function viaHttps(req: Request): boolean {
  const proto = req.header('x-forwarded-proto');
  if (proto !== undefined) return proto.split(',')[0]?.trim().toLowerCase() === 'https';
  return req.header(':scheme') === 'https';
}

function newNonce(): string {
  return crypto().randomBytes(16).toString('base64');
}

interface Layer {
  policy: Policy;
  nonce: string | null;
}

function apply(answer: Response, req: Request, layer: Layer): Response {
  const res = answer.clone();
  const { policy, nonce } = layer;
  const headers = policy.headers;
  for (let i = 0; i < headers.length; i++) {
    const [key, name, value] = headers[i] as [string, string, string];
    if (res.hasHeader(key)) continue;
    if (key === HSTS && !policy.https(req)) continue;
    // Values are helmet's, checked once when the policy was made.
    res.setKnownHeader(key, name, i === policy.nonceAt ? value.replaceAll(NONCE_TOKEN, nonce ?? '') : value);
  }
  return res.removeHeader('x-powered-by');
}

/**
 * The request carries `cspNonce` (`req.get('cspNonce')`, a string) when the policy has a nonce.
 *
 * @example
 * app.middleware(secureHeaders());                                        // helmet's defaults
 * app.middleware(secureHeaders({ nonce: true, https: true }));
 * app.get('/', (req, res) => res.html(`<script nonce="${req.get('cspNonce')}">start()</script>`));
 * app.get('/embed', embed).middleware(secureHeaders({ xFrameOptions: false,
 *   contentSecurityPolicy: { directives: { frameAncestors: ['https://partner.example'] } } }));
 */
export function secureHeaders(
  options: SecureHeadersOptions & { nonce: true },
): Middleware<SecureHeadersVariables>;
/** Helmet's headers without a nonce of its own: `req.get('cspNonce')` is a string only if one is made. */
export function secureHeaders(options?: SecureHeadersOptions): Middleware<Partial<SecureHeadersVariables>>;
export function secureHeaders(options: SecureHeadersOptions = {}): Middleware {
  const own = new Policy(options);
  return async function secureHeaders(req, next) {
    const outer = req.get<Layer>(LAYER_KEY);
    if (outer !== undefined) {
      // An enclosing secureHeaders() writes the headers on the way out: it takes our options over its own.
      outer.policy = outer.policy.merged(options);
      if (outer.policy.nonceAt !== -1 && outer.nonce === null) {
        outer.nonce = newNonce();
        req.set(CSP_NONCE_KEY, outer.nonce);
      }
      return next.handle(req);
    }
    const layer: Layer = { policy: own, nonce: own.nonceAt === -1 ? null : newNonce() };
    req.set(LAYER_KEY, layer);
    if (layer.nonce !== null) req.set(CSP_NONCE_KEY, layer.nonce);
    return apply(await next.handle(req), req, layer);
  };
}

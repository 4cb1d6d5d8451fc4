/**
 * Cross-origin resource sharing. With no options it adds three headers, enough for a browser to call a
 * JSON API: `Access-Control-Allow-Origin: *`, `Access-Control-Allow-Methods: GET, POST, PUT, DELETE,
 * OPTIONS`, `Access-Control-Allow-Headers: Content-Type`. A preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered 204 by the middleware itself, before routing's own
 * automatic OPTIONS.
 */
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';

/** Options of the {@link cors} middleware: which origins, methods and headers a cross-origin request may use. */
export interface CorsOptions {
  /** `'*'` (default), one origin, a list (the request's origin is echoed when listed), or a predicate. */
  origin?: string | readonly string[] | ((origin: string) => boolean);
  methods?: readonly string[] | string;
  headers?: readonly string[] | string;
  exposeHeaders?: readonly string[] | string;
  credentials?: boolean;
  /** Seconds a browser may cache a preflight answer. */
  maxAge?: number;
}

const join = (value: readonly string[] | string): string =>
  typeof value === 'string' ? value : value.join(', ');

/**
 * @example
 * app.middleware(cors());                                           // the three default headers
 * app.middleware(cors({ origin: ['https://app.example'], credentials: true, maxAge: 600 }));
 */
export function cors(options: CorsOptions = {}): Middleware {
  const methods = join(options.methods ?? ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
  const allowHeaders = join(options.headers ?? ['Content-Type']);
  const origin = options.origin ?? '*';

  const allowOrigin = (req: Request): string | null => {
    const requestOrigin = req.header('origin');
    if (origin === '*') return '*';
    if (requestOrigin === undefined) return null;
    if (typeof origin === 'string') return origin;
    const allowed = typeof origin === 'function' ? origin(requestOrigin) : origin.includes(requestOrigin);
    return allowed ? requestOrigin : null;
  };

  const decorate = (res: Response, value: string | null): Response => {
    const out = res.clone();
    if (value !== null) out.header('Access-Control-Allow-Origin', value);
    if (origin !== '*') out.appendHeader('Vary', 'Origin');
    out.header('Access-Control-Allow-Methods', methods).header('Access-Control-Allow-Headers', allowHeaders);
    if (options.credentials === true) out.header('Access-Control-Allow-Credentials', 'true');
    if (options.exposeHeaders !== undefined)
      out.header('Access-Control-Expose-Headers', join(options.exposeHeaders));
    return out;
  };

  return async function cors(req, handler) {
    const value = allowOrigin(req);
    if (req.getMethod() === 'OPTIONS' && req.hasHeader('access-control-request-method')) {
      const preflight = decorate(new Response().status(204), value);
      if (options.maxAge !== undefined) preflight.header('Access-Control-Max-Age', options.maxAge);
      return preflight;
    }
    return decorate(await handler.handle(req), value);
  };
}

/**
 * HTTP errors: what a handler or middleware throws to answer with a status other than 500, and the error
 * body every framework-written error response has. They live with the transports, which write such
 * answers themselves (protocol errors, a body too large); the application re-exports them.
 *
 * Every error response the framework writes itself has the body `{ "error": "<message>", "code": <status> }`
 * (docs/framework/errors.md).
 */
import { http } from '../builtins.js';

/** The body of every framework-generated error response. */
export interface ErrorBody {
  error: string;
  code: number;
}

export interface HttpErrorOptions {
  /** Extra response headers (`Allow` on 405, `Retry-After` on 429, …). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Throw it from a handler, a middleware or a binding resolver to answer with that status.
 *
 * @example
 * app.get('/admin', (req, res) => {
 *   if (!req.get('user')) throw new HttpError(403, 'Admins only');
 *   return res.json({ ok: true });
 * });
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string = statusText(status), options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
  }

  /** The JSON body sent to the client. */
  toJSON(): ErrorBody {
    return errorBody(this.status, this.message);
  }
}

/** The reason phrase of a status (`404` → `"Not Found"`), or `"Error"` for an unregistered code. */
export function statusText(status: number): string {
  return http.STATUS_CODES[status] ?? 'Error';
}

/** `{ error, code }` — the body of every error the framework answers (docs/framework/errors.md). */
export function errorBody(status: number, message: string = statusText(status)): ErrorBody {
  return { error: message, code: status };
}

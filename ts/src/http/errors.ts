/**
 * HTTP errors: what a handler or middleware throws to answer with a status other than 500, the error body
 * every framework-written error response has, and the two shapes an application answers errors in. They
 * live with the transports, which write such answers themselves (protocol errors, a body too large); the
 * application re-exports them.
 *
 * Every error response the framework writes itself has the body `{ "error": "<message>", "code": <status> }`
 * by default, or an RFC 9457 problem document when the application asks for one (`problemDetails`).
 */
import { STATUS_CODES } from './status-codes.js';

/** The body of every framework-generated error response. */
export interface ErrorBody {
  error: string;
  code: number;
}

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions<Body extends object = ErrorBody> {
  /** Extra response headers (`Allow` on 405, `Retry-After` on 429, …). */
  headers?: Record<string, string>;
  cause?: unknown;
  /** The JSON body to answer with instead of `{ error, code }` (typed: `HttpError<Body>`). */
  body?: Body;
  /** A problem document's `type` (a URI naming the kind of problem); `about:blank` without it. */
  type?: string;
}

/**
 * Throw it from a handler, a middleware or a binding resolver to answer with that status. `Body` types the
 * JSON it answers with: `{ error, code }` unless given a `body` (or a subclass overrides `toJSON()`).
 *
 * @example
 * app.get('/admin', (req, res) => {
 *   if (!req.get('user')) throw new HttpError(403, 'Admins only');
 *   return res.json({ ok: true });
 * });
 * throw new HttpError(422, 'Invalid article', { body: { errors: { body: ["title can't be blank"] } } });
 */
export class HttpError<Body extends object = ErrorBody> extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** The `body` option, if one was given. */
  readonly body: Body | undefined;
  /** A problem document's `type`, if one was given. */
  readonly type: string | undefined;

  constructor(status: number, message: string = statusText(status), options: HttpErrorOptions<Body> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
    this.body = options.body;
    this.type = options.type;
  }

  /** The JSON body sent to the client: the `body` option, else `{ error, code }`. */
  toJSON(): Body {
    return this.body ?? (errorBody(this.status, this.message) as Body);
  }

  /**
   * The members a problem document (`problemDetails`) adds to `type`, `title`, `status`, `detail` and
   * `instance`: what `toJSON()` has beyond `error` and `code`.
   */
  problemMembers(): Record<string, unknown> {
    const { error: _error, code: _code, ...rest } = this.toJSON() as Record<string, unknown>;
    return rest;
  }
}

/** The reason phrase of a status (`404` → `"Not Found"`), or `"Error"` for an unregistered code. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** `{ error, code }` — the body of every error the framework answers (docs/framework/errors.md). */
export function errorBody(status: number, message: string = statusText(status)): ErrorBody {
  return { error: message, code: status };
}

/**
 * The error a thrown value answers as: an {@link HttpError} as it is; an error from another library that
 * carries an HTTP status (`status` or `statusCode` in 400–599: http-errors, undici, ajv's, Koa's) as an
 * HttpError of that status, its message shown when it says `expose: true` (http-errors' convention, which
 * is `true` for 4xx and `false` for 5xx by default) and its `headers` kept; `null` for anything else (a bug:
 * a 500).
 */
export function httpErrorOf(thrown: unknown): HttpError<object> | null {
  if (thrown instanceof HttpError) return thrown;
  const status = statusOf(thrown);
  if (status === null) return null;
  const fields = thrown as { expose?: unknown; message?: unknown };
  const expose = typeof fields.expose === 'boolean' ? fields.expose : status < 500;
  const message = expose && typeof fields.message === 'string' ? fields.message : statusText(status);
  return new HttpError(status, message, { headers: stringHeaders(thrown as object), cause: thrown });
}

/** The HTTP status a thrown value answers with (see {@link httpErrorOf}), or `null`: it builds nothing. */
export function statusOf(thrown: unknown): number | null {
  if (thrown instanceof HttpError) return thrown.status;
  if (typeof thrown !== 'object' || thrown === null) return null;
  const fields = thrown as { status?: unknown; statusCode?: unknown };
  return statusField(fields.status) ?? statusField(fields.statusCode);
}

function statusField(value: unknown): number | null {
  return Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599
    ? (value as number)
    : null;
}

/** The string-valued entries of an error's `headers` (http-errors sets them for 405's `Allow`). */
function stringHeaders(thrown: object): Record<string, string> {
  const headers = (thrown as { headers?: unknown }).headers;
  if (typeof headers !== 'object' || headers === null) return {};
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') kept[name] = value;
  return kept;
}

/**
 * How an application's error answers look: the media type and the body for an error at a path. Two
 * shapes exist: `{ error, code }` (the default) and RFC 9457 problem details.
 */
export interface ErrorShape {
  /** The `Content-Type` of every error answer. */
  readonly contentType: string;
  /** The JSON body answering `error`; `instance` is the request's path when one is known. */
  body(error: HttpError<object>, instance: string | undefined): unknown;
}

/** `{ "error": message, "code": status }` (or the error's own `toJSON()`), as `application/json`. */
export const ARBOR_ERRORS: ErrorShape = {
  contentType: 'application/json; charset=utf-8',
  body: (error) => error.toJSON(),
};

/**
 * RFC 9457 problem details, as `application/problem+json`: `type` (`about:blank` unless the error names
 * one), `title` (the status's reason phrase), `status`, `detail` (the message), `instance` (the request's
 * path), then the error's own members (a validation error's `errors`).
 */
export const PROBLEM_ERRORS: ErrorShape = {
  contentType: 'application/problem+json; charset=utf-8',
  body: (error, instance) => ({
    ...error.problemMembers(),
    type: error.type ?? 'about:blank',
    title: statusText(error.status),
    status: error.status,
    detail: error.message,
    ...(instance === undefined ? {} : { instance }),
  }),
};

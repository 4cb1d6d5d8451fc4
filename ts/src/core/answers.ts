/**
 * The answers the kernel writes itself — errors as responses, and the final touches every response gets
 * (Content-Length from the real body, no body where HTTP allows none) — and the split of a request target.
 */
import type { IncomingInput } from '../http/dispatch.js';
import { ARBOR_ERRORS, type ErrorShape, HttpError, httpErrorOf, statusOf } from './errors.js';
import type { Logger } from './logger.js';
import { Response, StreamBody } from './response.js';

/** The response to a request that could not reach the kernel (the router failed to build): a 500. */
export function crashed(
  logger: Logger,
  error: unknown,
  input: IncomingInput,
  errors = ARBOR_ERRORS,
): Response {
  const failed = { method: input.method, path: input.target, id: '', route: null };
  return finalize(errorResponse({ logger, errors }, error, failed), input.method);
}

/** Which request failed, as the error record names it. */
export interface FailedRequest {
  method: string;
  /** The path as received; a whole target (when the request failed before it was split) loses its query. */
  path: string;
  /** The request id, `''` when ids are off. */
  id: string;
  /** The matched route's pattern, when known. */
  route: string | null;
}

/** Where error answers are logged, and the shape they are written in. */
export interface ErrorAnswers {
  readonly logger: Logger;
  readonly errors: ErrorShape;
}

/**
 * An error thrown by a handler or middleware, as the default answer: an HttpError keeps its status (an
 * answer, not logged), and so does another library's error that carries an HTTP status (http-errors,
 * undici), its message shown only if it is exposed; the rest is a 500 whose error goes to the logger as
 * pino expects it, under `err` (stack kept), with the request's method, path, route and id as fields, as
 * does another library's 5xx.
 */
export function errorResponse(state: ErrorAnswers, error: unknown, request: FailedRequest): Response {
  if (isFailure(error)) logFailure(state, error, request);
  return defaultErrorAnswer(state.errors, error, pathOf(request));
}

/** Whether `error` is a failure to log (not an answer): not an HTTP error, or another library's 5xx. */
export function isFailure(error: unknown): boolean {
  if (error instanceof HttpError) return false;
  const status = statusOf(error);
  return status === null || status >= 500;
}

/** The answer `error` gets when no handler of the application answers it (see {@link errorResponse}). */
export function defaultErrorAnswer(
  shape: ErrorShape,
  error: unknown,
  instance: string | undefined,
): Response {
  return errorAnswer(shape, httpErrorOf(error) ?? new HttpError(500), instance);
}

/** Logs a request's failure once, with the error under `err`. */
export function logFailure(state: { readonly logger: Logger }, error: unknown, request: FailedRequest): void {
  const { method, id, route } = request;
  const path = pathOf(request);
  state.logger.error(
    {
      err: error,
      method,
      path,
      ...(route === null ? {} : { route }),
      ...(id === '' ? {} : { reqId: id }),
    },
    `${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** A query string may carry secrets (tokens, e-mail addresses): records and problem documents name the path only. */
export function pathOf(request: FailedRequest): string {
  const query = request.path.indexOf('?');
  return query === -1 ? request.path : request.path.slice(0, query);
}

/** The answer to `error` in the application's error shape: its status, headers and body. */
export function errorAnswer(
  shape: ErrorShape,
  error: HttpError<object>,
  instance: string | undefined,
): Response {
  const res = new Response().status(error.status).json(shape.body(error, instance));
  if (shape !== ARBOR_ERRORS) res.header('Content-Type', shape.contentType);
  for (const [name, value] of Object.entries(error.headers)) res.header(name, value);
  return res;
}

/**
 * Content-Length from the real body; no body on HEAD, 204, 304 and 1xx. A streamed body's length is
 * unknown unless the handler set Content-Length (then it is kept: the transport frames the body by it).
 */
export function finalize(res: Response, method: string): Response {
  const status = res.getStatus();
  // The framing is the transport's to write (Content-Length below, or chunks for a stream): a
  // Transfer-Encoding the handler set beside a Content-Length would give the message two framings, which
  // a proxy in front may read differently from the client (a desync).
  res.dropKnownHeader('transfer-encoding');
  if (status === 204 || status === 304 || status < 200) {
    res.dropBody();
    if (status !== 304) res.removeHeader('Content-Length');
    return res;
  }
  const body = res.getBody();
  // A streamed body is chunked, unless the handler set a Content-Length: then the transport frames by it.
  if (body !== null && !(body instanceof StreamBody)) {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    res.setKnownHeader('content-length', 'Content-Length', String(length));
  } else if (body === null && (method !== 'HEAD' || !res.hasHeader('Content-Length'))) {
    res.setKnownHeader('content-length', 'Content-Length', '0');
  }
  if (method === 'HEAD') res.dropBody();
  return res;
}

/** Splits an origin-form (`/p?q`) or absolute-form (`http://h/p?q`) target; `null` for anything else. */
export function splitTarget(target: string): { path: string; query: string } | null {
  let rest = target;
  if (!rest.startsWith('/')) {
    const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
    if (absolute === null) return null;
    rest = rest.slice(absolute[0].length);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q === -1 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

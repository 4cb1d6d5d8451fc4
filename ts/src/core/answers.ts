/**
 * The answers the kernel writes itself — errors as responses, and the final touches every response gets
 * (Content-Length from the real body, no body where HTTP allows none) — and the split of a request target.
 */
import type { IncomingInput } from '../http/dispatch.js';
import { errorBody, HttpError } from './errors.js';
import type { Logger } from './logger.js';
import { Response, StreamBody } from './response.js';

/** The response to a request that could not reach the kernel (the router failed to build): a 500. */
export function crashed(logger: Logger, error: unknown, input: IncomingInput): Response {
  const failed = { method: input.method, path: input.target, id: '', route: null };
  return finalize(errorResponse({ logger }, error, failed), input.method);
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

/**
 * An error thrown by a handler or middleware, as a response: HttpError keeps its status (an answer, not
 * logged); the rest is a 500 whose error goes to the logger as pino expects it, under `err` (stack kept),
 * with the request's method, path, route and id as fields.
 */
export function errorResponse(
  state: { readonly logger: Logger },
  error: unknown,
  request: FailedRequest,
): Response {
  if (error instanceof HttpError) {
    const res = new Response().status(error.status).json(error.toJSON());
    for (const [name, value] of Object.entries(error.headers)) res.header(name, value);
    return res;
  }
  const { method, id, route } = request;
  // A query string may carry secrets (tokens, e-mail addresses): the record names the path only.
  const query = request.path.indexOf('?');
  const path = query === -1 ? request.path : request.path.slice(0, query);
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
  return plainError(500);
}

export function plainError(status: number, message?: string): Response {
  return new Response().status(status).json(errorBody(status, message));
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

/**
 * The request log: one structured record per request, written once its response is known (errors
 * included: the kernel has already turned them into responses). Without a logger of its own it writes
 * through `req.log`, the application's logger with the request's fields bound (Fastify's
 * `request.log`): the record then leaves out the fields `req.log` already carries, so that a pino child
 * never writes a key twice.
 */
import type { LogFields, Logger } from '../core/logger.js';
import type { Middleware } from '../core/middleware.js';
import { type Response, StreamBody } from '../core/response.js';

/**
 * The fields of a request-log record. `route` is the matched route's pattern (`null` for a 404, an
 * automatic OPTIONS or a fallback), so records group by endpoint, not by URL; `reqId` is present when the
 * application gives requests an id (`requestId`).
 */
// A type, not an interface: it is then a `LogFields` (a record of unknowns) as it stands.
export type RequestLogRecord = {
  method: string;
  /** The path as received (percent-escapes kept, no query string). */
  path: string;
  route: string | null;
  status: number;
  /** From the middleware's start to the response being known, in milliseconds. */
  durationMs: number;
  reqId?: string;
  /** The response body's length in bytes as sent (0 for HEAD, 204 and 304); absent for a stream of
   * unknown length. */
  bytes?: number;
};

/** Options of the {@link requestLogger} middleware: where the line goes, and the clock that times it. */
export interface RequestLoggerOptions {
  /**
   * Where the records go. Defaults to the application's `logger`, through `req.log` (so a pino logger's
   * serializers, level and transport apply). Give another logger to send the request log elsewhere.
   */
  logger?: Pick<Logger, 'info'>;
  /** Milliseconds clock; injectable for deterministic tests. Defaults to `performance.now`. */
  now?: () => number;
}

/**
 * Logs each request at `info`: `{ method, path, route, status, durationMs, reqId, bytes }` as fields (see
 * {@link RequestLogRecord}), and `GET /tasks/42 200 1.3ms` as the message. Register it as application
 * middleware (first), so that it sees every request, 404s and failures included.
 *
 * @example
 * const app = new Application({ logger: pino(), requestId: true });
 * app.middleware(requestLogger()); // through the application's logger
 * // {"level":30,"method":"GET","path":"/tasks/42","route":"/tasks/:id","status":200,"durationMs":1.3,
 * //  "reqId":"…","bytes":27,"msg":"GET /tasks/42 200 1.3ms"}
 */
export function requestLogger(options: RequestLoggerOptions = {}): Middleware {
  const logger = options.logger;
  const now = options.now ?? (() => performance.now());
  return async function requestLogger(req, handler) {
    const started = now();
    const res = await handler.handle(req);
    const durationMs = Math.round((now() - started) * 1000) / 1000;
    const { method, path } = req;
    const status = res.getStatus();
    const fields: RequestLogRecord = {
      method,
      path,
      route: req.route?.pattern ?? null,
      status,
      durationMs,
      ...(req.id === '' ? {} : { reqId: req.id }),
      ...bodyBytes(res, method, status),
    };
    const message = `${method} ${path} ${status} ${durationMs.toFixed(1)}ms`;
    if (logger !== undefined) logger.info(fields, message);
    else req.log.info(unbound(fields), message);
    return res;
  };
}

/**
 * `fields` without what `req.log` binds itself: `reqId` when the request has one, `route` once matched (a
 * `null` route is not bound, so it stays in the record).
 */
function unbound(fields: RequestLogRecord): LogFields {
  const { reqId: _reqId, route, ...rest } = fields;
  return route === null ? { ...rest, route } : rest;
}

/**
 * What the kernel will send of the body (it drops the body of HEAD, 204, 304 and 1xx answers). A stream
 * of unknown length is not counted: the record is written when its head is ready, before it flows.
 */
function bodyBytes(res: Response, method: string, status: number): { bytes?: number } {
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200) return { bytes: 0 };
  const body = res.getBody();
  if (body === null) return { bytes: 0 };
  if (body instanceof StreamBody) {
    const length = res.getHeader('Content-Length');
    return length === undefined ? {} : { bytes: Number(length) };
  }
  return { bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength };
}

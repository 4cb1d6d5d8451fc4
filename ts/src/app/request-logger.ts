/**
 * `req.log`: the application's logger with the request's fields on every record, built on the first read
 * of `req.log` (a request whose handler never logs builds nothing). A pino logger (any logger with pino's
 * `child(bindings)`) makes its own child, so its serializers, level and transport apply as to any child;
 * another logger is wrapped, its records given the same fields.
 */
import type { LogFields, Logger, LogMethod } from '../core/logger.js';
import type { Request } from '../core/request.js';

/** A logger that makes children the way pino does. */
interface ChildMaker extends Logger {
  child(bindings: LogFields): Logger;
}

function makesChildren(logger: Logger): logger is ChildMaker {
  return typeof (logger as Partial<ChildMaker>).child === 'function';
}

/** The fields `req.log` adds: `reqId` when the request has one, `route` (the pattern) once matched. */
export function requestFields(request: Request): LogFields {
  const fields: LogFields = {};
  if (request.id !== '') fields.reqId = request.id;
  const route = request.route;
  if (route !== null) fields.route = route.pattern;
  return fields;
}

/** The factory the kernel hands each request for `req.log`: children of `logger`. */
export function requestLogFactory(logger: Logger): (request: Request) => Logger {
  if (makesChildren(logger)) return (request) => logger.child(requestFields(request));
  return (request) => withFields(logger, requestFields(request));
}

/** `logger` with `bindings` merged under every record's own fields (the record's win, as in pino). */
export function withFields(logger: Logger, bindings: LogFields): Logger {
  const level =
    (write: LogMethod): LogMethod =>
    (first: string | LogFields, message?: string) => {
      if (typeof first === 'string') write(bindings, first);
      else write({ ...bindings, ...first }, message);
    };
  return {
    info: level(logger.info.bind(logger)),
    warn: level(logger.warn.bind(logger)),
    error: level(logger.error.bind(logger)),
  };
}

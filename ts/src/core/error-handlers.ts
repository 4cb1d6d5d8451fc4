/**
 * The application's answers to errors: `onError` and `notFound`, on the application and on groups (the
 * nearest wins). The kernel calls them (app/error-routing.ts); this module holds what a registrar keeps
 * and how one handler is called, so that a handler that fails still leaves an answer.
 */
import type { DefaultEnv, Env } from './context.js';
import type { AnyParams } from './params.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

/**
 * Answers an error: every error Arbor raises once a request is read (404 thrown by a binding, 405, 413,
 * 415, a malformed body, a timeout, a validation refusal that `onInvalid` does not answer) and every error a
 * handler or middleware throws, as the very object thrown (a thrown non-Error is wrapped, its value the
 * `cause`). What it returns is the answer.
 *
 * @example
 * app.onError((err, req, res) =>
 *   err instanceof HttpError ? res.status(err.status).json({ errors: { body: [err.message] } }) : res.status(500).json({ errors: { body: ['internal error'] } }));
 */
export type ErrorHandler<E extends Env = DefaultEnv> = (
  error: Error,
  req: Request<AnyParams, E>,
  res: Response,
) => Response | Promise<Response>;

/**
 * Answers a request no route matched (and no `fallback()` took): a path without routes, or a method the
 * path has none for when `methodNotAllowed` is off.
 *
 * @example
 * app.notFound((req, res) => res.status(404).json({ message: `nothing at ${req.path}` }));
 */
export type NotFoundHandler<E extends Env = DefaultEnv> = (
  req: Request<AnyParams, E>,
  res: Response,
) => Response | Promise<Response>;

/**
 * What `onError(handler, options)` documents: the JSON Schema of the body its answers have, which the
 * OpenAPI document gives the error answers Arbor itself makes (a validation refusal).
 */
export interface ErrorHandlerOptions {
  /** The error body's schema. */
  schema?: object;
  /** The error body's media type; `application/json` unless given. */
  contentType?: string;
}

/** How a route's error answers are documented: their media type and the schema of their body. */
export interface ErrorDocument {
  readonly contentType: string;
  readonly schema: object;
}

/** The handlers one registrar (the application or a group) was given. */
export class ErrorHandlers {
  onError: ErrorHandler | null = null;
  notFound: NotFoundHandler | null = null;
  options: ErrorHandlerOptions | null = null;
}

/** A thrown value as an Error: itself, or an Error naming it, the value kept as its `cause`. */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error
    ? thrown
    : new Error(`a non-Error was thrown: ${String(thrown)}`, { cause: thrown });
}

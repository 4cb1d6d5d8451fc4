/**
 * The options a route or a group can be given before its handler, so that the types flow: middleware
 * given first types what the handlers read (`req.get('user')`), and a route's code-first `schema` types
 * `req.valid(part)`.
 *
 * @example
 * app.post('/articles', { middleware: [auth], schema: { body: NewArticle } }, (req, res) =>
 *   res.status(201).json(create(req.get('user'), req.valid('body'))));
 */
import type { Env, Nothing, WithValid, WithVariables } from '../core/context.js';
import type { AddsOfAll, MiddlewareRef } from '../core/middleware.js';
import type { RouteSchemas, ValidOfSchemas } from '../validation/schema-types.js';

/** What a route takes before its handler. */
export interface RouteOptions {
  /** Route middleware, run after the group's (as `.middleware(…)` adds it). */
  middleware?: readonly MiddlewareRef[];
  /** The route's contract in code: validated (and coerced) before the handler, and documented. */
  schema?: RouteSchemas;
}

/** What a group takes before its callback. */
export interface GroupOptions {
  /** Middleware of every route of the group (as `.middleware(…)` adds it). */
  middleware?: readonly MiddlewareRef[];
}

/** The environment of the routes given `options` under `E`: what their middleware adds, what their schema validates. */
export type OptionsEnv<E extends Env, O> = WithSchema<
  WithVariables<E, O extends { middleware: infer M extends readonly unknown[] } ? AddsOfAll<M> : Nothing>,
  O
>;

type WithSchema<E extends Env, O> = O extends { schema: infer S extends RouteSchemas }
  ? WithValid<E, ValidOfSchemas<S>>
  : E;

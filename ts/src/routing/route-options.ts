/**
 * The options a route or a group can be given before its handler, so that the types flow: middleware
 * given first types what the handlers read (`req.get('user')`).
 *
 * @example
 * app.post('/articles', { middleware: [auth] }, (req, res) =>
 *   res.status(201).json(create(req.get('user'), req.json())));
 */
import type { Env, Nothing, WithVariables } from '../core/context.js';
import type { AddsOfAll, MiddlewareRef } from '../core/middleware.js';

/** What a route takes before its handler. */
export interface RouteOptions {
  /** Route middleware, run after the group's (as `.middleware(…)` adds it). */
  middleware?: readonly MiddlewareRef[];
}

/** What a group takes before its callback. */
export interface GroupOptions {
  /** Middleware of every route of the group (as `.middleware(…)` adds it). */
  middleware?: readonly MiddlewareRef[];
}

/** The environment of the routes given `options` under `E`: `E` with what their middleware adds. */
export type OptionsEnv<E extends Env, O> = WithVariables<
  E,
  O extends { middleware: infer M extends readonly unknown[] } ? AddsOfAll<M> : Nothing
>;

/**
 * What the router stores for each route: one object holding everything a request to that route needs —
 * the handler, the resolved middleware chain, the binding resolvers of its parameters and the compiled
 * contract checks. A request makes one `router.find()` and reads the rest from here (Fastify's route
 * context), instead of asking the application once per piece.
 *
 * The registration fills `route` and `handler`; the kernel fills the rest when it gets ready to serve, and
 * clears them when the application changes what they were resolved from (a middleware, alias, binding or
 * `validate` setting added later), so the next request resolves them again.
 */
import type { ResolvedHandler } from '../core/handler.js';
import type { Middleware } from '../core/middleware.js';
import type { Request, RequestRoute, RouteSource } from '../core/request.js';
import type { RouteValidation } from '../validation/validation.js';
import type { Route } from './route-registration.js';

/** `(raw, req) => value`; `null`/`undefined` answers 404. */
export type BindingResolver = (value: string, req: Request) => unknown;

/**
 * What the router stores for one route: the registered route, its handler and what the kernel resolved
 * for it (middleware chain, parameter bindings, contract checks). A middleware meets it as `req.route`'s
 * source; applications rarely use it directly.
 */
export class RouteContext implements RouteSource {
  /** The registered route (`req.route`'s id, name and pattern; the tooling's view). */
  readonly route: Route;
  readonly handler: ResolvedHandler;
  /** Group then route middleware, resolved; `null` until the kernel resolves it. */
  chain: readonly Middleware[] | null = null;
  /** The resolvers of the route's bound parameters, in pattern order; `null` until resolved. */
  binders: readonly (readonly [string, BindingResolver])[] | null = null;
  /** The compiled contract checks, `null` when the route is not validated, `undefined` until compiled. */
  validation: RouteValidation | null | undefined = undefined;

  /** @internal Created by the route table at registration. */
  constructor(route: Route) {
    this.route = route;
    this.handler = route.handler;
  }

  /** What `req.route` shows of this route: a new object for each request that reads it. */
  describe(): RequestRoute {
    const route = this.route;
    return { id: route.id, name: route.getName(), pattern: route.pattern };
  }

  /** Forgets what was resolved (the kernel resolves it again at the next request). */
  clear(): void {
    this.chain = null;
    this.binders = null;
    this.validation = undefined;
  }
}

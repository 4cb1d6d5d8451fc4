/**
 * Route handlers: a function `(req, res, ...bound) => Response`, or an array callable — `[Class, 'method']`
 * (a static method, else an instance method on one instance created with no arguments at the first request
 * and shared by every route of that class) or `[instance, 'method']`. The string form `'Class@method'`
 * is refused with a TypeError at registration: a string names no class.
 */
import type { DefaultEnv, Env } from './context.js';
import type { AnyParams, Bindings, BoundArgs, PathParams } from './params.js';
import type { Request } from './request.js';
import type { Response } from './response.js';

type HandlerResult = Response | undefined | Promise<Response | undefined>;

/**
 * A handler closure. The third and later arguments are the values of bound parameters (`app.bind`).
 * `P` types `req.param()`; `Bound` the bound values (both inferred from the route's pattern); `E` what
 * the request carries (`req.get()`, `req.valid()`: see `Env`).
 */
export type HandlerFn<
  P extends AnyParams = AnyParams,
  // biome-ignore lint/suspicious/noExplicitAny: bound values are whatever the resolvers return.
  Bound extends unknown[] = any[],
  E extends Env = DefaultEnv,
> = (req: Request<P, E>, res: Response, ...bound: Bound) => HandlerResult;

/**
 * A controller class: `[PostController, 'show']` routes to a method of an instance the application
 * makes, and `resource()` registers the actions such a class has.
 */
// biome-ignore lint/suspicious/noExplicitAny: a controller class may take any constructor arguments in type only.
export type ControllerClass = abstract new (...args: any[]) => object;

/** `[Class, 'method']` or `[instance, 'method']`. */
export type ArrayCallable = readonly [ControllerClass | object, string];

/**
 * What a route runs: a function `(req, res, ...bound) => result`, or a controller method as
 * `[Class, 'method']` or `[instance, 'method']`.
 *
 * @example
 * app.get('/tasks/:id', (req, res) => res.json({ id: req.param('id') }));
 * app.get('/posts/:id', [PostController, 'show']);
 */
export type RouteHandler<
  P extends AnyParams = AnyParams,
  // biome-ignore lint/suspicious/noExplicitAny: see HandlerFn.
  Bound extends unknown[] = any[],
  E extends Env = DefaultEnv,
> = HandlerFn<P, Bound, E> | ArrayCallable;

/** A handler whatever its route's types (what registration keeps). */
// biome-ignore lint/suspicious/noExplicitAny: the types only type handlers at registration.
export type AnyRouteHandler = RouteHandler<any, any[], any>;

/**
 * The handler of a route registered with `pattern`, bindings `B` and environment `E`: typed parameters,
 * bound values and request context.
 */
export type PatternHandler<
  Pattern extends string,
  B extends Bindings,
  E extends Env = DefaultEnv,
> = RouteHandler<PathParams<Pattern>, BoundArgs<Pattern, B>, E>;

export interface ResolvedHandler {
  call: HandlerFn;
  /** `'Class.method'` for array callables; `null` for closures (the route's call site says where). */
  location: string | null;
}

/** Instances of controller classes, one per class, shared by the routes of one application. */
export type ControllerInstances = WeakMap<object, object>;

/** Turns a handler as written by the user into a function; throws a TypeError for anything else. */
export function resolveHandler(handler: unknown, instances: ControllerInstances): ResolvedHandler {
  if (typeof handler === 'function') return { call: handler as HandlerFn, location: null };
  if (typeof handler === 'string') {
    throw new TypeError(
      `route handler ${JSON.stringify(handler)} is a string; the 'Class@method' form is not supported — ` +
        `pass [Class, 'method'] or a function`,
    );
  }
  if (!Array.isArray(handler) || handler.length !== 2 || typeof handler[1] !== 'string') {
    throw new TypeError("route handler must be a function, [Class, 'method'] or [instance, 'method']");
  }
  const [target, method] = handler as [unknown, string];
  if (typeof target === 'function') return resolveClassCallable(target as ControllerClass, method, instances);
  if (typeof target === 'object' && target !== null) {
    const fn = (target as Record<string, unknown>)[method];
    const label = `${target.constructor?.name ?? 'Object'}.${method}`;
    if (typeof fn !== 'function')
      throw new TypeError(`route handler [instance, '${method}']: ${label} is not a method`);
    return { call: (fn as HandlerFn).bind(target), location: label };
  }
  throw new TypeError(
    `route handler [${String(target)}, '${method}']: the first element must be a class or an object`,
  );
}

function resolveClassCallable(
  cls: ControllerClass,
  method: string,
  instances: ControllerInstances,
): ResolvedHandler {
  const label = `${cls.name || '<anonymous class>'}.${method}`;
  const staticFn = (cls as unknown as Record<string, unknown>)[method];
  if (typeof staticFn === 'function') return { call: (staticFn as HandlerFn).bind(cls), location: label };
  const protoFn = (cls.prototype as Record<string, unknown> | undefined)?.[method];
  if (typeof protoFn !== 'function') {
    throw new TypeError(
      `route handler [${cls.name}, '${method}']: ${label} is neither a static nor an instance method`,
    );
  }
  const call: HandlerFn = (req, res, ...bound) => {
    let instance = instances.get(cls);
    if (instance === undefined) {
      instance = new (cls as unknown as new () => object)();
      instances.set(cls, instance);
    }
    return (protoFn as HandlerFn).call(instance, req, res, ...bound);
  };
  return { call, location: label };
}

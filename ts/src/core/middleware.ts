/**
 * Middleware: `(req, handler) => response`. Code before `handler.handle(req)` runs on the way in, code
 * after it on the way out; returning without calling it short-circuits the rest of the chain.
 *
 * Named middleware is registered once (`app.alias('auth', fn)`) and referenced by name on groups and
 * routes. A reference with a parameter string (`'throttle:60,1'`) calls the registered function as a
 * factory with the parameters as strings (`('60', '1')`); a reference without one uses the function as the
 * middleware itself, unless the function was marked with {@link middlewareFactory} (then it is called with
 * no arguments).
 */
import type { Intersect, MiddlewareNames, Nothing } from './context.js';
import type { Request } from './request.js';
import { Response } from './response.js';

/** The type-only key under which a middleware declares what it adds to the request. */
export declare const MIDDLEWARE_ADDS: unique symbol;

/**
 * What a middleware calls to run the rest of the chain. `Adds` is what the middleware declares it sets
 * on the request ({@link Middleware}); it exists in types only.
 */
// biome-ignore lint/complexity/noBannedTypes: a middleware that adds nothing adds `{}`.
export interface NextHandler<Adds extends object = {}> {
  /** Runs the rest of the chain (the next middleware, at last the handler) and resolves to its response. */
  handle(req: Request): Promise<Response>;
  /** Never set: carries `Adds` for the type checker (a parameter, so that a middleware adding more is still a `Middleware`). */
  readonly [MIDDLEWARE_ADDS]?: (adds: Adds) => void;
}

/**
 * A function around the handler: it may answer itself, or call `handler.handle(req)` and change the
 * response it gets. Register it with `middleware()` on the application, a group or a route.
 *
 * `Adds` declares the request variables it sets (`req.set('user', …)`): a group given it first
 * (`app.group('/me', { middleware: [auth] }, …)`) or a route given it in its options reads them typed
 * (`req.get('user')`). It exists in types only.
 *
 * @example
 * const poweredBy: Middleware = async (req, handler) => (await handler.handle(req)).header('X-Powered-By', 'arbor');
 * app.middleware(poweredBy);
 * const auth: Middleware<{ user: User }> = async (req, next) => next.handle(req.set('user', await userOf(req)));
 */
// biome-ignore lint/complexity/noBannedTypes: a middleware that adds nothing adds `{}`.
export type Middleware<Adds extends object = {}> = (
  req: Request,
  handler: NextHandler<Adds>,
) => Response | Promise<Response>;

/** What middleware `M` adds to a request (`{}` for one that declares nothing, or a name without an entry). */
export type AddsOf<M> = M extends string
  ? NamedAdds<M extends `${infer Name}:${string}` ? Name : M>
  : M extends (req: never, handler: infer N) => unknown
    ? N extends {
        /** What the middleware's `NextHandler` carries for the type checker. */
        readonly [MIDDLEWARE_ADDS]?: (adds: infer A) => void;
      }
      ? unknown extends A
        ? Nothing
        : A extends object
          ? A
          : Nothing
      : Nothing
    : Nothing;

/** What a list of middleware adds, together (`[auth, tenant]` → `{ user: User } & { tenant: string }`). */
export type AddsOfAll<M extends readonly unknown[]> =
  Intersect<AddsOf<M[number]>> extends infer I extends object ? I : Nothing;

type NamedAdds<Name extends string> = Name extends keyof MiddlewareNames
  ? MiddlewareNames[Name] extends object
    ? MiddlewareNames[Name]
    : Nothing
  : Nothing;

/**
 * A middleware name the type checker accepts: any string until {@link MiddlewareNames} has an entry, then
 * its names (with or without `:parameters`) and the built-in `throttle`.
 */
export type MiddlewareName = [keyof MiddlewareNames] extends [never]
  ? string
  : KnownName | `${KnownName}:${string}`;

type KnownName = (keyof MiddlewareNames & string) | 'throttle';
/**
 * Makes a middleware from the arguments of a named reference: `'throttle:60,1'` calls the `throttle`
 * factory with `'60', '1'`. Register one under a name with the application's middleware aliases.
 */
export type MiddlewareFactory = (...args: string[]) => Middleware;

/** A name (`'auth'`, `'throttle:60,1'`) or a middleware function. */
// biome-ignore lint/suspicious/noExplicitAny: a reference may be a middleware that adds anything.
export type MiddlewareRef = MiddlewareName | Middleware<any>;

const FACTORY = Symbol.for('arbor.middlewareFactory');

/**
 * Marks a function as a factory, so that a reference without parameters (`'throttle'`) calls it with no
 * arguments instead of using it as the middleware.
 *
 * @example
 * app.alias('cache', middlewareFactory((seconds = '60') => async (req, next) =>
 *   (await next.handle(req)).withHeader('Cache-Control', `max-age=${seconds}`)));
 */
export function middlewareFactory<F extends MiddlewareFactory>(factory: F): F {
  Object.defineProperty(factory, FACTORY, { value: true });
  return factory;
}

export function isMiddlewareFactory(fn: unknown): boolean {
  return typeof fn === 'function' && (fn as unknown as Record<symbol, unknown>)[FACTORY] === true;
}

/** Splits `'throttle:60,1'` into `{ name: 'throttle', args: ['60', '1'] }`. */
export function parseReference(ref: string): { name: string; args: string[] | null } {
  const colon = ref.indexOf(':');
  if (colon === -1) return { name: ref, args: null };
  return {
    name: ref.slice(0, colon),
    args: ref
      .slice(colon + 1)
      .split(',')
      .map((arg) => arg.trim()),
  };
}

/** A readable label for a reference (`'throttle:60,1'`, or a function's name). */
export function referenceLabel(ref: MiddlewareRef): string {
  return typeof ref === 'string' ? ref : ref.name || '<closure>';
}

/** Flattens `'a'`, `['a', 'b']`, a function or a list of them into a list. */
export function toReferences(refs: MiddlewareRef | readonly MiddlewareRef[]): MiddlewareRef[] {
  const list = Array.isArray(refs) ? [...refs] : [refs as MiddlewareRef];
  for (const ref of list) {
    if (typeof ref !== 'string' && typeof ref !== 'function') {
      throw new TypeError(`middleware must be a name or a function, got ${typeof ref}`);
    }
    if (typeof ref === 'string' && parseReference(ref).name === '') {
      throw new TypeError(`middleware reference ${JSON.stringify(ref)} has no name`);
    }
  }
  return list;
}

/**
 * Runs `middleware` in order around `core`. Each layer gets a fresh {@link NextHandler}; calling it twice
 * (a retry) runs the rest of the chain twice.
 */
export function runChain(
  middleware: readonly Middleware[],
  core: (req: Request) => Response | Promise<Response>,
  req: Request,
): Response | Promise<Response> {
  if (middleware.length === 0) return core(req);
  // Synchronous while every layer is: an async layer makes the rest of the chain a promise.
  const step = (index: number, current: Request): Response | Promise<Response> => {
    const layer = middleware[index];
    if (layer === undefined) return core(current);
    // `handle` keeps its documented promise, so `handler.handle(req).then(…)` works in any layer.
    const result: unknown = layer(current, { handle: (next) => Promise.resolve(step(index + 1, next)) });
    if (typeof (result as PromiseLike<unknown> | null)?.then === 'function') {
      return Promise.resolve(result).then((value) => checked(layer, value));
    }
    return checked(layer, result);
  };
  return step(0, req);
}

function checked(layer: Middleware, result: unknown): Response {
  if (!(result instanceof Response)) {
    throw new TypeError(
      `middleware ${layer.name || '<closure>'} returned ${describe(result)} instead of a Response (did you forget \`return\`?)`,
    );
  }
  return result;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/**
 * The route type parameter: what a request carries beyond its path parameters, known to the type checker.
 *
 * One parameter, as Hono's `Env`: `Variables` are the values middleware put on the request
 * (`req.set(key, value)`, read typed with `req.get(key)`), `Valid` the route contract's validated,
 * coerced input (`req.valid('query')`). A middleware declares what it adds (`Middleware<{ user: User }>`),
 * and a group given its middleware first (`app.group('/api', { middleware: [auth] }, (api) => …)`) types
 * the handlers inside with it; so does a named middleware declared in {@link MiddlewareNames}.
 *
 * An environment that declares no `Variables` is open: `req.get<T>(key)` takes any key, as it always has.
 * One that declares them is closed: reading a key no middleware on the route provides is a compile error.
 *
 * @example
 * interface User { id: string }
 * const auth: Middleware<{ user: User }> = (req, next) => next.handle(req.set('user', { id: 'u1' }));
 * app.group('/me', { middleware: [auth] }, (me) => {
 *   me.get('/', (req, res) => res.json({ id: req.get('user').id })); // typed: User, no cast
 * });
 */

/** The parts of a request a contract validates, as `req.valid(part)` names them. */
export type ValidPart = 'params' | 'query' | 'headers' | 'cookies' | 'body';

/** What a route's requests carry, known to the type checker (see the module comment). */
export interface Env {
  /** Values middleware set on the request, by key. */
  Variables?: object | undefined;
  /** The validated, coerced input of the route's contract, by part. */
  Valid?: { [P in ValidPart]?: unknown } | undefined;
}

/**
 * Variables every request of the application carries, declared once for the whole program (as Hono's
 * `ContextVariableMap` and Fastify's `FastifyRequest` augmentation): augment it in your own module.
 *
 * @example
 * declare module 'arbor-router' {
 *   interface ContextVariableMap { tenant: string }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: users augment it.
export interface ContextVariableMap {}

/**
 * The named middleware of the application and what each adds to a request, declared by augmentation. Once
 * it has an entry, middleware references by name (`'auth'`, `'role:admin'`) are checked by the type
 * checker against it (the built-in `'throttle'` is always known); the start-up check (`ready()`) names a
 * reference no alias defines either way.
 *
 * @example
 * declare module 'arbor-router' {
 *   interface MiddlewareNames { auth: { user: User }; role: {} }
 * }
 * app.alias('auth', auth);
 * app.group('/admin', { middleware: ['auth', 'role:admin'] }, (admin) =>
 *   admin.get('/', (req, res) => res.json(req.get('user'))));
 */
// biome-ignore lint/suspicious/noEmptyInterface: users augment it.
export interface MiddlewareNames {}

/**
 * The contracts of the application's routes as generated declarations state them (`arbor types:export`
 * writes a `.d.ts` that augments this interface), keyed `'METHOD /pattern'` as registered (group prefixes
 * applied). A route registered with `app.get(pattern, handler)` whose key has an entry reads `valid` for
 * `req.valid(part)`: a doc-comment route is typed as a code-first one is, with no cast. A route's own
 * `schema` option wins over its entry.
 *
 * @example
 * declare module 'arbor-router' {
 *   interface RouteContracts {
 *     'GET /tasks': { valid: { query: { limit: number; offset: number } } };
 *   }
 * }
 * app.get('/tasks', (req, res) => res.json(list(req.valid('query').limit))); // limit: number
 */
// biome-ignore lint/suspicious/noEmptyInterface: generated declarations augment it.
export interface RouteContracts {}

/**
 * `E` with the validated input that {@link RouteContracts} declares for `'Method Pattern'`, if any (the
 * route's type parameter is extended, not joined by a second one).
 */
export type DeclaredEnv<
  E extends Env,
  Method extends string,
  Pattern extends string,
> = `${Method} ${Pattern}` extends keyof RouteContracts
  ? RouteContracts[`${Method} ${Pattern}`] extends { valid: infer V extends Env['Valid'] }
    ? WithValid<E, V>
    : E
  : E;

/** The environment of a route nobody typed: open variables, nothing validated. */
// biome-ignore lint/complexity/noBannedTypes: the empty environment.
export type DefaultEnv = {};

/** Nothing added: what a middleware that declares no variables adds, and an empty set of parts. */
// biome-ignore lint/complexity/noBannedTypes: the empty object type is the point.
export type Nothing = {};

/** The variables `E` declares (none: `{}`). */
export type VariablesOf<E extends Env> = E extends { Variables: infer V extends object } ? V : DefaultEnv;

/** Whether `E` declares no variables: then any key may be read, untyped. */
export type IsOpen<E extends Env> = E extends { Variables: object } ? false : true;

/** The keys `req.get()` reads typed: the route's variables and the application-wide map. */
export type VariableKey<E extends Env> = (keyof VariablesOf<E> | keyof ContextVariableMap) & string;

/** The type of variable `K`. */
export type VariableValue<E extends Env, K extends string> = K extends keyof VariablesOf<E>
  ? VariablesOf<E>[K]
  : K extends keyof ContextVariableMap
    ? ContextVariableMap[K]
    : unknown;

/**
 * `E` with variables `V` added (what a group's middleware list adds to the routes inside it); `E` itself
 * when `V` has none, so that middleware declaring nothing leaves an open environment open.
 */
export type WithVariables<E extends Env, V extends object> = [keyof V] extends [never]
  ? E
  : Omit<E, 'Variables'> & { Variables: VariablesOf<E> & V };

/** `E` with the contract's validated input `V` (what a route's `schema` gives `req.valid()`). */
export type WithValid<E extends Env, V extends Env['Valid']> = Omit<E, 'Valid'> & { Valid: V };

/** The validated input `E` declares for `part` (`unknown`: nothing declared). */
export type ValidOf<E extends Env, P extends ValidPart> = E extends { Valid: infer V }
  ? V extends { [K in P]: infer T }
    ? T
    : unknown
  : unknown;

/** A union of object types as their intersection (`A | B` → `A & B`). */
export type Intersect<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

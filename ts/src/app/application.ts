/**
 * The application: registration (verbs, groups, resources, names, bindings, fallback, middleware) and the
 * three ways to serve it — `run()` (node:http), `listener` (mount in an existing server) and `fetch()`.
 *
 * @example
 * import { Application, cors, requestLogger } from 'arbor-router';
 *
 * const app = new Application({ openapi: { info: { title: 'Tasks', version: '1.0.0' } } });
 * app.middleware(requestLogger());
 * app.middleware(cors());
 * app.get('/tasks/:id<int>', (req, res) => res.json({ id: Number(req.param('id')) })).name('tasks.show');
 * app.run(); // PORT or 3000
 */
import type { RequestListener } from 'node:http';
import { RouteCacheBoot } from '../cache/boot.js';
import { tableOptions } from '../cache/fingerprint.js';
import type { RouteInfo } from '../engine/engine.js';
import { RouteError } from '../errors.js';
import { type FetchInfo, handleFetch } from '../http/fetch-adapter.js';
import { createNodeListener } from '../http/node-listener.js';
import { type ArborServer, createArborServer, type ServerOptions } from '../http/server.js';
import { operationKey, readAnnotations } from '../openapi/annotations.js';
import { contractDefinitions } from '../openapi/contract.js';
import type { AnnotationSet } from '../openapi/types.js';
import { Router, type RouterOptions } from '../router.js';
import { MiddlewareAliases } from './aliases.js';
import { DEFAULT_BODY_LIMIT } from './body.js';
import { LazyCallSite } from './call-site.js';
import { type ApplicationConfig, portFromEnv } from './config.js';
import { type AnyGroup, Group, type RouteSink } from './group.js';
import {
  type ControllerInstances,
  type ResolvedHandler,
  type RouteHandler,
  resolveHandler,
} from './handler.js';
import { type BindingResolver, dispatch, type IncomingInput, type KernelState } from './kernel.js';
import { consoleLogger, type Logger } from './logger.js';
import { type Middleware, type MiddlewareFactory, type MiddlewareRef, toReferences } from './middleware.js';
import { checkMiddlewareNames } from './middleware-check.js';
import type { Bindings, NoBindings } from './params.js';
import { compileTrust } from './proxy.js';
import { joinPath, Registrar, VERBS } from './registrar.js';
import { registerApplication, registeredApplication } from './registry.js';
import type { Request } from './request.js';
import type { Response } from './response.js';
import { type RegisteredRoute, Route, type RouteOwner } from './route.js';
import { MemoryRateLimitStore, throttleFactory } from './throttle.js';
import { generateUrl, type UrlParams } from './url.js';
import { ContractCompiler, type RouteValidation, validateOptions } from './validation.js';

/**
 * `B` holds the value types of the bindings registered so far (`bind()` returns the application typed
 * with one more), so handlers' bound arguments are typed.
 */
export class Application<B extends Bindings = NoBindings> extends Registrar<'', B> {
  readonly config: Readonly<ApplicationConfig>;
  /** `null` while registration is deferred: the route cache is on, the router is built on first use. */
  #router: Router<Route> | null = null;
  readonly #routerOptions: RouterOptions;
  #cache: RouteCacheBoot | null;
  /** The methods of each route registered while deferred, by route id. */
  readonly #pending: (readonly string[])[] = [];
  #bootError: unknown = null;
  #cachedAnnotations: (() => AnnotationSet | null) | null = null;
  readonly #logger: Logger;
  readonly #routes: Route[] = [];
  readonly #names = new Map<string, Route>();
  readonly #aliases = new MiddlewareAliases();
  readonly #global: MiddlewareRef[] = [];
  readonly #bindings = new Map<string, BindingResolver>();
  readonly #instances: ControllerInstances = new WeakMap();
  readonly #methods = new Set<string>(VERBS);
  readonly #chains = new Map<Route, Middleware[]>();
  #globalChain: Middleware[] | null = null;
  /** `ready()` checked the table as it is (reset by a registration or a middleware change). */
  #ready = false;
  #fallback: ResolvedHandler | null = null;
  #infos: RouteInfo[] | null = null;
  #server: ArborServer | null = null;
  /** Compiled contract checks by route (`validate`), built at start-up or at the route's first request. */
  readonly #validations = new Map<Route, RouteValidation | null>();
  #compiler: ContractCompiler | null = null;
  #annotations: AnnotationSet | null = null;
  readonly #kernel: KernelState;
  readonly #owner: RouteOwner & RouteSink;

  constructor(config: ApplicationConfig = {}) {
    super();
    this.config = config;
    this.#logger = config.logger ?? consoleLogger;
    const { engine, order, trailingSlash = true } = config;
    this.#routerOptions = {
      ...(engine === undefined ? {} : { engine }),
      ...(order === undefined ? {} : { order }),
      trailingSlash: trailingSlash === true,
      // The application warns itself, through its logger and with the file:line of both routes.
      onShadowed: () => {},
    };
    // The route cache (docs/CLI.md), when switched on: registration is recorded and compiled on first use.
    // A custom engine cannot load snapshots, so it always compiles eagerly.
    this.#cache = engine === undefined ? RouteCacheBoot.configure(config.routeCache) : null;
    if (this.#cache === null) this.#router = new Router<Route>(this.#routerOptions);
    this.#aliases.set('throttle', throttleFactory(config.rateLimitStore ?? new MemoryRateLimitStore()));
    // A trustProxy entry that is not an address, a subnet or a name is a start-up error, not a request-time one.
    if (config.trustProxy !== undefined) compileTrust(config.trustProxy);
    const app = this;
    this.#owner = {
      nameRoute: (route, name) => this.#nameRoute(route, name),
      invalidate: () => this.#invalidate(),
      register: (methods, pattern, handler, group) => this.#register(methods, pattern, handler, group),
    };
    this.#kernel = {
      get router() {
        return app.router;
      },
      settings: {
        bodyLimit: config.bodyLimit ?? DEFAULT_BODY_LIMIT,
        maxUrlLength: config.maxUrlLength ?? 8192,
        methodNotAllowed: config.methodNotAllowed ?? true,
        trailingSlash,
        trustProxy: config.trustProxy ?? null,
      },
      logger: this.#logger,
      bindings: this.#bindings,
      get fallback() {
        return app.#fallback;
      },
      isKnownMethod: (method) => this.#methods.has(method),
      globalMiddleware: () => {
        this.#globalChain ??= this.#global.map((ref) => this.#aliases.resolve(ref));
        return this.#globalChain;
      },
      routeMiddleware: (route) => {
        let chain = this.#chains.get(route);
        if (chain === undefined) {
          chain = route.middlewareChain().map((ref) => this.#aliases.resolve(ref));
          this.#chains.set(route, chain);
        }
        return chain;
      },
      validation: (route) => {
        let validation = this.#validations.get(route);
        if (validation === undefined) {
          validation = this.#compileValidation(route);
          this.#validations.set(route, validation);
        }
        return validation;
      },
    };
    this.#listener = createNodeListener((input) => dispatch(this.#kernel, input), this.#logger);
    registerApplication(this, 'created');
  }

  /** The route table. With a route cache file, the first access builds it (from the cache when it matches). */
  get router(): Router<Route> {
    return this.#router ?? this.#boot();
  }

  /** The annotations stored in the route cache this application started from, or `null` (read the sources). */
  cachedAnnotations(): AnnotationSet | null {
    if (this.#router === null) this.#boot();
    return this.#cachedAnnotations?.() ?? null;
  }

  /** The application `route()` and tooling use: the last one that called `run()`, else the last created. */
  static current(): AnyApplication | null {
    return registeredApplication() as AnyApplication | null;
  }

  /**
   * Application-wide middleware, outermost first. It runs for every request that reaches routing —
   * 404, 405 and automatic OPTIONS included — before group and route middleware.
   */
  middleware(refs: MiddlewareRef | readonly MiddlewareRef[]): this {
    this.#global.push(...toReferences(refs));
    this.#invalidate();
    return this;
  }

  /**
   * Names a middleware (or a factory) for use by reference.
   *
   * @example
   * app.alias('auth', async (req, next) => (req.bearerToken() ? next.handle(req) : new Response().status(401).json({ error: 'Unauthorized' })));
   * // A factory, referenced as 'role:admin,editor' → ('admin', 'editor'). Wrapping it in middlewareFactory()
   * // types its middleware for TypeScript and lets a bare 'role' call it with no arguments.
   * app.alias('role', middlewareFactory((...roles) => async (req, next) => …));
   */
  alias(name: string, middleware: Middleware): this;
  alias(name: string, factory: MiddlewareFactory): this;
  alias(name: string, middleware: Middleware | MiddlewareFactory): this {
    this.#aliases.set(name, middleware);
    this.#invalidate();
    return this;
  }

  /**
   * Resolves a route parameter into a value passed to the handler after `res` (in parameter order).
   * `null`/`undefined` answers 404. Applies to every parameter with that name (`{post}` or `:post`).
   *
   * @example
   * const app = new Application().bind('post', async (id) => posts.find(id));
   * app.get('/posts/{post}', (req, res, post) => res.json(post)); // post: Post
   *
   * It returns the same application, typed with the new binding (as Hono's chained registrations are):
   * keep the returned value for typed bound arguments; `app.bind(…)` as a statement binds all the same,
   * and handlers then receive the value as `any`.
   */
  bind<N extends string, R>(
    name: N,
    resolver: (value: string, req: Request) => R,
  ): Application<B & { [K in N]: NonNullable<Awaited<R>> }> {
    this.#bindings.set(name, resolver as BindingResolver);
    return this as unknown as Application<B & { [K in N]: NonNullable<Awaited<R>> }>;
  }

  /** The handler for requests no route matches (instead of the default 404). */
  fallback(handler: RouteHandler): this {
    this.#fallback = resolveHandler(handler, this.#instances);
    return this;
  }

  /**
   * The path of a named route. Values are percent-encoded and checked against their constraints; extra
   * parameters become the query string. Throws `UNKNOWN_ROUTE`, `MISSING_PARAMETER` or `INVALID_PARAMETER`.
   *
   * @example app.route('tasks.show', { id: 42, tab: 'notes' }) // '/tasks/42?tab=notes'
   */
  route(name: string, params?: UrlParams): string {
    const route = this.#names.get(name);
    if (route === undefined) throw new RouteError('UNKNOWN_ROUTE', `no route is named "${name}"`);
    return generateUrl(route.pattern, this.#routeInfos()[route.id], params);
  }

  /** Every route with its metadata, middleware names, handler and call site (for the exporter and CLI). */
  routeTable(): RegisteredRoute[] {
    const infos = this.#routeInfos();
    return this.#routes.flatMap((route) => {
      const info = infos[route.id];
      return info === undefined ? [] : [route.describe(info, this.#validatesRequests(route))];
    });
  }

  /** Serves one request, transport-neutral (what both adapters call). Never rejects. */
  dispatch(input: IncomingInput): Promise<Response> {
    return Promise.resolve(dispatch(this.#kernel, input));
  }

  /**
   * Builds the route table and checks every middleware name now, instead of at a request: a registration
   * error, or a name no alias defines (`UNKNOWN_MIDDLEWARE`, naming the route), is thrown here. `run()`, the
   * first use of `listener` and the first `fetch()` call it; call it yourself to fail earlier (in a test).
   *
   * @example
   * app.get('/admin', handler).middleware('auht');
   * app.ready(); // RouteError: route GET /admin (app.ts:3) uses the middleware 'auht', which no alias defines (did you mean 'auth'?) …
   */
  ready(): this {
    if (this.#router === null) this.#boot();
    if (!this.#ready) {
      checkMiddlewareNames(this.#global, this.#routes, this.#aliases);
      this.#ready = true;
    }
    return this;
  }

  readonly #listener: RequestListener;

  /** The node:http request listener: `http.createServer(app.listener)`. Its first use calls `ready()`. */
  get listener(): RequestListener {
    this.ready();
    return this.#listener;
  }

  /** The same listener, as a method. */
  handler(): RequestListener {
    return this.listener;
  }

  /** Serves a web-standard `Request` (fetch-based runtimes, tests). */
  readonly fetch = (request: globalThis.Request, info?: FetchInfo): Promise<globalThis.Response> => {
    if (!this.#ready) {
      try {
        this.ready();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return handleFetch((input) => this.dispatch(input), request, info);
  };

  /** A node:http server for this application, not yet listening (timeouts from the configuration). */
  createServer(): ArborServer {
    const { requestTimeout, headersTimeout } = this.config;
    const options: ServerOptions = {
      ...(requestTimeout === undefined ? {} : { requestTimeout }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
    };
    return createArborServer(this.listener, options);
  }

  /**
   * Starts a node:http server on `config.port`, else `PORT`, else 3000, and returns it. With
   * `ARBOR_NO_LISTEN=1` (the CLI's mode) it registers nothing more and does not listen. Call it last.
   */
  run(): ArborServer {
    registerApplication(this, 'running');
    this.ready(); // registration errors and unknown middleware names surface here, before anything is served
    this.compileValidation(); // so do annotation mistakes, and no request pays for compiling
    const server = this.createServer();
    this.#server = server;
    if (process.env.ARBOR_NO_LISTEN === '1') return server;
    const port = this.config.port ?? portFromEnv() ?? 3000;
    server.listen(port, this.config.host, () => {
      const address = server.address();
      const shown = typeof address === 'object' && address !== null ? address.port : port;
      this.#logger.info(`Arbor listening on http://${this.config.host ?? 'localhost'}:${shown}`);
    });
    const stop = () => {
      void this.close().then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    server.once('close', () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    });
    return server;
  }

  /** Closes the server `run()` started: in-flight requests finish, new connections are refused. */
  async close(graceMs?: number): Promise<void> {
    await this.#server?.closeGracefully(graceMs);
  }

  protected addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route {
    return this.#register(methods, joinPath('', uri), handler, null);
  }

  protected childGroup(prefix: string): Group<string, B> {
    return new Group<string, B>(this.#owner, joinPath('', prefix), null);
  }

  #register(
    methods: readonly string[],
    pattern: string,
    handler: RouteHandler,
    group: AnyGroup | null,
  ): Route {
    const callSite = new LazyCallSite();
    let route: Route;
    try {
      route = new Route(this.#owner, {
        id: this.#routes.length,
        pattern,
        group,
        handler: resolveHandler(handler, this.#instances),
        callSite,
      });
      if (this.#router === null)
        this.#pending.push(methods); // compiled, or taken from the cache, on first use
      else this.#compile(this.#router, route, methods);
      this.#routes.push(route);
      this.#ready = false;
      this.#annotations = null; // a route registered late is read with the others
      this.#compiler = null;
    } catch (error) {
      throw withCallSite(error, callSite.value);
    }
    return route;
  }

  #compile(router: Router<Route>, route: Route, methods: readonly string[]): void {
    const info = router.add(methods, route.pattern, route);
    if (info.id !== route.id)
      throw new Error(`internal: the engine gave id ${info.id}, expected ${route.id}`);
    this.#accept(route, info);
  }

  #accept(route: Route, info: RouteInfo): void {
    route.attach(info);
    this.#infos = null;
    for (const method of info.methods) this.#methods.add(method);
    if (info.shadowedBy !== null) this.#warnShadowed(route, info.shadowedBy);
  }

  /**
   * Builds the deferred router: from the route cache when its fingerprint matches the routes registered
   * (nothing compiled), else by compiling them (the cache has warned once). A failure is kept and rethrown
   * on every later use, so a half-built table is never served.
   */
  #boot(): Router<Route> {
    if (this.#bootError !== null) throw this.#bootError;
    const cache = this.#cache;
    this.#cache = null;
    const keys = this.#routes.map((route) => ({
      methods: this.#pending[route.id] ?? [],
      pattern: route.pattern,
      name: route.getName(),
    }));
    this.#pending.length = 0;
    const hit = cache?.load<Route>(keys, tableOptions(this.config)) ?? null;
    if (hit !== null) {
      for (const route of this.#routes) this.#accept(route, hit.router.attach(route.id, route));
      this.#cachedAnnotations = hit.annotations;
      this.#router = hit.router;
      return hit.router;
    }
    const router = new Router<Route>(this.#routerOptions);
    for (const route of this.#routes) {
      try {
        this.#compile(router, route, keys[route.id]?.methods ?? []);
        const name = route.getName();
        if (name !== null) router.setName(route.id, name);
      } catch (error) {
        this.#bootError = withCallSite(error, route.callSite);
        throw this.#bootError;
      }
    }
    this.#router = router;
    return router;
  }

  #nameRoute(route: Route, name: string): void {
    const existing = this.#names.get(name);
    if (existing !== undefined && existing !== route) {
      throw new RouteError('DUPLICATE_NAME', `route name "${name}" is already used by ${existing.pattern}`, {
        pattern: route.pattern,
        conflictsWith: existing.pattern,
      });
    }
    this.#router?.setName(route.id, name); // while deferred, names go in at boot
    const previous = route.getName();
    if (previous !== null) this.#names.delete(previous);
    this.#names.set(name, route);
    this.#infos = null;
  }

  #invalidate(): void {
    this.#ready = false;
    this.#chains.clear();
    this.#globalChain = null;
    this.#validations.clear();
  }

  /**
   * Compiles every route's contract checks now (`run()` does; otherwise each route's are compiled at its
   * first request). The annotations come from the route cache when the application started from one,
   * else from the sources, read once.
   */
  compileValidation(): void {
    for (const route of this.#routes) {
      if (!this.#validations.has(route)) this.#validations.set(route, this.#compileValidation(route));
    }
  }

  #validationConfig(route: Route) {
    return validateOptions(route.validation ?? route.group?.validation ?? this.config.validate);
  }

  #validatesRequests(route: Route): boolean {
    const options = this.#validationConfig(route);
    return options !== null && options.requests !== false;
  }

  #compileValidation(route: Route): RouteValidation | null {
    const options = this.#validationConfig(route);
    if (options === null) return null;
    const info = this.#routeInfos()[route.id];
    if (info === undefined) return null;
    this.#annotations ??= this.cachedAnnotations() ?? readAnnotations(this.routeTable(), { warn: false });
    this.#compiler ??= new ContractCompiler(contractDefinitions(this.#annotations), this.#logger);
    const label = `${route.methods.join('|')} ${route.pattern}`;
    const annotations = this.#annotations;
    const doc = route.methods
      .map((method) => annotations.operations[operationKey(method, route.pattern)])
      .find((found) => found !== undefined);
    return this.#compiler.compile(label, doc, info.params, options);
  }

  #routeInfos(): RouteInfo[] {
    this.#infos ??= this.router.routes();
    return this.#infos;
  }

  #warnShadowed(route: Route, by: number): void {
    const earlier = this.#routes[by];
    const where = (r: Route | undefined) => (r?.callSite ? ` (${r.callSite.file}:${r.callSite.line})` : '');
    this.#logger.warn(
      `route ${route.methods.join('|')} ${route.pattern}${where(route)} can never match: ` +
        `${earlier?.pattern ?? `route #${by}`}${where(earlier)} is defined first and matches every path it matches`,
    );
  }
}

/** An application whatever its bindings. */
// biome-ignore lint/suspicious/noExplicitAny: bindings only type handlers at registration.
export type AnyApplication = Application<any>;

function withCallSite(error: unknown, callSite: { file: string; line: number } | null): unknown {
  if (error instanceof Error && callSite !== null)
    error.message += ` (registered at ${callSite.file}:${callSite.line})`;
  return error;
}

/**
 * The path of a named route of the current application ({@link Application.current}: the last one that
 * called `run()`, else the last created). Same rules as {@link Application.route}.
 *
 * @example route('posts.show', { id: 7 }) // '/posts/7'
 */
export function route(name: string, params?: UrlParams): string {
  const app = Application.current();
  if (app === null)
    throw new RouteError('UNKNOWN_ROUTE', `no application exists yet to look up route "${name}"`);
  return app.route(name, params);
}

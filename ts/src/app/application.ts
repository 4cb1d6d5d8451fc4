/**
 * The application: registration (verbs, groups, resources, names, bindings, fallback, middleware) and the
 * three ways to serve it — `run()` (node:http by default, or Arbor's own HTTP/1.1 server with
 * `server: 'arbor'`), `listener` (mount in an existing server) and `fetch()`.
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

import { DEFAULT_BODY_LIMIT } from '../body/body.js';
import { RouteCacheBoot } from '../cache/boot.js';
import { tableOptions } from '../cache/fingerprint.js';
import { crashed } from '../core/answers.js';
import type { ErrorDocument } from '../core/error-handlers.js';
import { ARBOR_ERRORS, type ErrorShape, PROBLEM_ERRORS } from '../core/errors.js';
import { type RouteHandler, resolveHandler } from '../core/handler.js';
import { consoleLogger, type Logger, transportLogger } from '../core/logger.js';
import {
  type Middleware,
  type MiddlewareFactory,
  type MiddlewareRef,
  toReferences,
} from '../core/middleware.js';
import type { Bindings, NoBindings } from '../core/params.js';
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';
import { RouteError } from '../errors.js';
import { CookieSigner } from '../helpers/cookies.js';
import { type AppServer, serverLimits } from '../http/app-server.js';
import { type ExecutionContext, type FetchInfo, fetchInfo, handleFetch } from '../http/fetch-adapter.js';
import { createDetachedListener, type DetachedListener } from '../http/node-detached.js';
import { createNodeListener, type NodeRequestListener } from '../http/node-listener.js';
import { MemoryRateLimitStore, throttleFactory } from '../middleware/throttle.js';
import { PROBLEM_DOCUMENT_SCHEMA } from '../openapi/contract.js';
import type { AnnotationSet, CodeContractDocument, JsonSchemaTarget } from '../openapi/types.js';
import { registerApplication, registeredApplication } from '../registry/applications.js';
import type { Router } from '../router/index.js';
import { checkMiddlewareNames } from '../routing/middleware-check.js';
import { Group, joinPath, Registrar } from '../routing/registrar.js';
import type { RegisteredRoute } from '../routing/route.js';
import type { BindingResolver, RouteContext } from '../routing/route-context.js';
import type { Route } from '../routing/route-registration.js';
import { RouteTable, type TableChange } from '../routing/route-table.js';
import { generateUrl, type UrlParams } from '../routing/url.js';
import { contractDocument } from '../validation/code-contract.js';
import { PrecompiledValidators } from '../validation/precompiled.js';
import { validateOptions } from '../validation/validation.js';
import type { ValidatorSource } from '../validation/validators.js';
import type { ApplicationConfig } from './config.js';
import { RouteContracts } from './contracts.js';
import { type IncomingInput, Kernel } from './kernel.js';
import { type CloseHook, ServerLifecycle, type Serving } from './lifecycle.js';
import { compileTrust } from './proxy.js';
import { type RunOptions, superviseWorkers } from './workers.js';

/**
 * `B` holds the value types of the bindings registered so far (`bind()` returns the application typed
 * with one more), so handlers' bound arguments are typed.
 *
 * The application is a front over its parts: the route table (registration, names, aliases), the kernel
 * (built once when serving starts; serves each request from one lookup), the contract checks, the server
 * lifecycle and the transports, wired here.
 */
export class Application<B extends Bindings = NoBindings> extends Registrar<'', B> {
  readonly config: Readonly<ApplicationConfig>;
  readonly #logger: Logger;
  readonly #table: RouteTable;
  readonly #contracts: RouteContracts;
  readonly #lifecycle: ServerLifecycle;
  /** Built by the first `ready()` or request; kept for the application's life. */
  #kernel: Kernel | null = null;
  #listener: NodeRequestListener | null = null;
  #detached: DetachedListener | null = null;
  /** `ready()` checked the table as it is (reset by a registration or a middleware change). */
  #ready = false;

  /** Signs and verifies cookies with `config.cookies.secrets`; `null` without secrets. */
  readonly #cookies: CookieSigner | null;
  /** @internal The shape of every error answer (`problemDetails`), the transports' refusals included. */
  readonly errorShape: ErrorShape;

  constructor(config: ApplicationConfig = {}) {
    super();
    this.config = config;
    this.#logger = config.logger ?? consoleLogger;
    const { engine, order, trailingSlash = true } = config;
    this.#table = new RouteTable({
      routerOptions: {
        ...(engine === undefined ? {} : { engine }),
        ...(order === undefined ? {} : { order }),
        trailingSlash: trailingSlash === true,
        // The application warns itself, through its logger and with the file:line of both routes.
        onShadowed: () => {},
      },
      // The route cache (docs/CLI.md), when switched on: registration is recorded and compiled on first
      // use. A custom engine cannot load snapshots, so it always compiles eagerly.
      cache: engine === undefined ? RouteCacheBoot.configure(config.routeCache) : null,
      tableOptions: tableOptions(config),
      logger: this.#logger,
      onChange: (change) => this.#changed(change),
    });
    this.#contracts = new RouteContracts(
      this.#table,
      config.validate,
      this.#logger,
      config.contracts === undefined
        ? null
        : {
            annotations: config.contracts.annotations,
            validators: new PrecompiledValidators(config.contracts),
          },
    );
    this.#lifecycle = new ServerLifecycle(config, this.#logger);
    this.#table.aliases.set('throttle', throttleFactory(config.rateLimitStore ?? new MemoryRateLimitStore()));
    // A trustProxy entry that is not an address, a subnet or a name is a start-up error, not a request-time one.
    if (config.trustProxy !== undefined) compileTrust(config.trustProxy);
    // So are cookie secrets too short to trust.
    this.#cookies = config.cookies === undefined ? null : new CookieSigner(config.cookies);
    this.errorShape = config.problemDetails === true ? PROBLEM_ERRORS : ARBOR_ERRORS;
    registerApplication(this, 'created');
  }

  /**
   * The router; each route's value is its {@link RouteContext}. With the route cache on, the first access
   * builds it (from the cache when it matches).
   */
  get router(): Router<RouteContext> {
    return this.#table.router;
  }

  /**
   * The annotations of the compiled contracts the application was given, else those stored in the route
   * cache it started from, else `null` (read the sources).
   */
  cachedAnnotations(): AnnotationSet | null {
    return this.#contracts.givenAnnotations ?? this.#table.cachedAnnotations();
  }

  /**
   * @internal Every route's checks compiled against `annotations` with `validators` (which record the
   * functions), as serving would compile them: `arbor contracts:export`.
   */
  compileContractsWith(annotations: AnnotationSet, validators: ValidatorSource): void {
    const contracts = new RouteContracts(this.#table, this.config.validate, this.#logger, {
      annotations,
      validators,
    });
    contracts.compileAll(this.#table.routes, () => {});
  }

  /**
   * How the errors of the route answer, for the OpenAPI document: the `schema` given with the `onError`
   * that answers them (the route's nearest group's, else the application's), else the problem document
   * with `problemDetails`; `null` for `{ error, code }`.
   */
  errorDocument(route: RegisteredRoute): ErrorDocument | null {
    const group = this.#table.routes[route.id]?.group ?? null;
    const options = group?.answersErrors === true ? group.onErrorOptionsSetting : this.errorHandlers.options;
    if (options?.schema !== undefined)
      return { contentType: options.contentType ?? 'application/json', schema: options.schema };
    if (this.errorShape === PROBLEM_ERRORS)
      return { contentType: 'application/problem+json', schema: PROBLEM_DOCUMENT_SCHEMA };
    return null;
  }

  /**
   * The status and body of the route's validation refusal, when its `onInvalid` declares them
   * (`{ status, schema, handler }`), for the OpenAPI document; `null`: the 400 of the error shape.
   */
  invalidDocument(route: RegisteredRoute): { status: number; contentType: string; schema?: object } | null {
    const registered = this.#table.routes[route.id];
    return registered === undefined ? null : this.#contracts.invalidAnswer(registered);
  }

  /** The route's contract in code (its `schema` option) as JSON Schema, for the OpenAPI document; `null` without one. */
  codeSchemas(route: RegisteredRoute, target: JsonSchemaTarget): CodeContractDocument | null {
    const schemas = this.#table.routes[route.id]?.schemas ?? null;
    return schemas === null ? null : contractDocument(schemas, target);
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
    this.#table.global.push(...toReferences(refs));
    this.#changed('middleware');
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
    this.#table.aliases.set(name, middleware);
    this.#changed('middleware');
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
    this.#table.bindings.set(name, resolver as BindingResolver);
    this.#changed('binding');
    return this as unknown as Application<B & { [K in N]: NonNullable<Awaited<R>> }>;
  }

  /** The handler for requests no route matches (instead of the default 404). */
  fallback(handler: RouteHandler): this {
    this.#table.fallback = resolveHandler(handler, this.#table.instances);
    this.#changed('binding');
    return this;
  }

  /**
   * The path of a named route. Values are percent-encoded and checked against their constraints; extra
   * parameters become the query string. Throws `UNKNOWN_ROUTE`, `MISSING_PARAMETER` or `INVALID_PARAMETER`.
   *
   * @example app.route('tasks.show', { id: 42, tab: 'notes' }) // '/tasks/42?tab=notes'
   */
  route(name: string, params?: UrlParams): string {
    const route = this.#table.named(name);
    if (route === undefined) throw new RouteError('UNKNOWN_ROUTE', `no route is named "${name}"`);
    return generateUrl(route.pattern, this.#table.info(route.id), params);
  }

  /** Every route with its metadata, middleware names, handler and call site (for the exporter and CLI). */
  routeTable(): RegisteredRoute[] {
    return this.#table.describe((route) => this.#contracts.validatesRequests(route));
  }

  /** Serves one request, transport-neutral (what both adapters call). Never rejects. */
  dispatch(input: IncomingInput): Promise<Response> {
    let kernel: Kernel;
    try {
      kernel = this.#kernelNow();
    } catch (error) {
      return Promise.resolve(crashed(this.#logger, error, input, this.errorShape));
    }
    return Promise.resolve(kernel.dispatch(input));
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
    this.#kernelNow();
    if (!this.#ready) {
      checkMiddlewareNames(this.#table.global, this.#table.routes, this.#table.aliases);
      // Each route's middleware chain and binders are resolved by its first request, not here: a start
      // should not pay for the routes that are never asked for (and the names were just checked).
      this.#ready = true;
    }
    return this;
  }

  /** The node:http request listener: `http.createServer(app.listener)`. Its first use calls `ready()`. */
  get listener(): NodeRequestListener {
    this.ready();
    if (this.#listener === null) {
      const kernel = this.#kernelNow();
      this.#listener = createNodeListener(
        (input) => kernel.dispatch(input),
        transportLogger(this.#logger),
        this.errorShape,
        // A refused body's connection lingers as long as an idle one stays open.
        serverLimits(this.config).keepAliveTimeout,
      );
    }
    return this.#listener;
  }

  /** The same listener, as a method. */
  handler(): NodeRequestListener {
    return this.listener;
  }

  /**
   * node:http's `'upgrade'` (and `'connect'`) listener: requests that ask to switch protocols are routed
   * like any other (middleware first), and a WebSocket route takes the connection over; anything else is
   * answered and the connection closed. Mount it beside {@link listener} in your own server.
   *
   * @example
   * const server = http.createServer(app.listener);
   * server.on('upgrade', app.upgradeListener);
   */
  get upgradeListener(): DetachedListener {
    this.ready();
    if (this.#detached === null) {
      const kernel = this.#kernelNow();
      this.#detached = createDetachedListener(
        (input) => kernel.dispatch(input),
        transportLogger(this.#logger),
        {
          // As long as an idle connection stays open: the server's keep-alive timeout.
          lingerMs: serverLimits(this.config).keepAliveTimeout,
          errors: this.errorShape,
        },
      );
    }
    return this.#detached;
  }

  /**
   * Serves a web-standard `Request` (fetch-based runtimes, tests). Called as a Worker's handler,
   * `fetch(request, env, ctx)`, it takes `env` and `ctx` as the request's bindings and execution context
   * (docs/RUNTIMES.md).
   */
  readonly fetch = (
    request: globalThis.Request,
    info?: FetchInfo | object,
    ctx?: ExecutionContext,
  ): Promise<globalThis.Response> => {
    if (!this.#ready) {
      try {
        this.ready();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return handleFetch((input) => this.dispatch(input), request, fetchInfo(request, info, ctx));
  };

  /**
   * Serves one request in memory, for tests (as Hono's `app.request`): a path (`'/tasks?page=2'`, resolved
   * against `http://localhost`), a URL, or a `Request`, with `init` as `fetch` takes it. No server, no
   * socket: the answer is what `app.fetch` gives.
   *
   * @example
   * const res = await app.request('/tasks', { method: 'POST', body: JSON.stringify({ title: 'x' }), headers: { 'content-type': 'application/json' } });
   * expect(res.status).toBe(201);
   */
  request(input: string | URL | globalThis.Request, init?: RequestInit): Promise<globalThis.Response> {
    const request =
      input instanceof globalThis.Request
        ? init === undefined
          ? input
          : new globalThis.Request(input, init)
        : new globalThis.Request(new URL(input, 'http://localhost'), init);
    return this.fetch(request);
  }

  /**
   * The application's server, not yet listening: node:http by default (node:https with `tls`, node:http2
   * with `http2`), or Arbor's own HTTP/1.1 server with `server: 'arbor'` (timeouts from the configuration).
   */
  createServer(): AppServer {
    return this.#lifecycle.create(this.#serving());
  }

  /**
   * Starts the application's server (see `createServer()`) on `config.port`, else `PORT`, else 3000, and returns it. With
   * `ARBOR_NO_LISTEN=1` (the CLI's mode) it registers nothing more and does not listen. Call it last.
   */
  run(): AppServer;
  /**
   * With `workers`: in the primary process, forks that many workers with node:cluster (each runs this
   * program and so this `run()`, serving on the shared port), restarts one that dies, and on SIGTERM or
   * SIGINT closes them all gracefully; it returns `null` there. In a worker it serves as `run()` does.
   */
  run(options: RunOptions): AppServer | null;
  run(options: RunOptions = {}): AppServer | null {
    registerApplication(this, 'running');
    this.ready(); // registration errors and unknown middleware names surface here, before anything is served
    this.compileValidation(); // so do annotation mistakes, and no request pays for compiling
    if (options.workers !== undefined && superviseWorkers(options.workers, this.#logger)) return null;
    return this.#lifecycle.start(this.#serving(), () => this.close());
  }

  #serving(): Serving {
    this.ready();
    const kernel = this.#kernelNow();
    return {
      dispatch: (input) => kernel.dispatch(input),
      listener: () => this.listener,
      detached: () => this.upgradeListener,
      errors: this.errorShape,
    };
  }

  /**
   * Runs `hook` when the application closes (`close()`, or the signal `run()` listens for): after the
   * server has closed and before the process exits, awaited; hooks run in the order they were added.
   *
   * @example
   * app.onClose(() => pool.end());
   */
  onClose(hook: CloseHook): this {
    this.#lifecycle.onClose(hook);
    return this;
  }

  /** The graceful shutdown as it begins (`began`, `delay(ms)`): what readiness routes read (`health()`). */
  get shutdown(): ServerLifecycle['shutdown'] {
    return this.#lifecycle.shutdown;
  }

  /**
   * Closes the server `run()` started (in-flight requests finish, new connections are refused) and every
   * open WebSocket (1001 Going Away), then runs the `onClose` hooks.
   */
  close(graceMs?: number): Promise<void> {
    return this.#lifecycle.close(graceMs, () => this.webSockets.closeAll(graceMs));
  }

  /**
   * Compiles every route's contract checks now (`run()` does; otherwise each route's are compiled at its
   * first request). The annotations come from the route cache when the application started from one,
   * else from the sources, read once.
   */
  compileValidation(): void {
    const kernel = this.#kernelNow();
    // Nothing is validated unless the application or some group or route says so: then every route's
    // checks compile to none, which its first request finds out as cheaply.
    if (validateOptions(this.config.validate) === null && !this.#table.validationSet) return;
    kernel.compileValidations();
  }

  protected addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route {
    return this.#table.register(methods, joinPath('', uri), handler, null);
  }

  protected errorHandlersChanged(): void {
    this.#changed('answers');
  }

  protected childGroup(prefix: string): Group<string, B> {
    return new Group<string, B>(this.#table.owner, joinPath('', prefix), null);
  }

  /** The kernel, built on first need (the router is built then too, from the cache when it is on). */
  #kernelNow(): Kernel {
    this.#kernel ??= new Kernel({
      router: this.#table.router,
      table: this.#table,
      contracts: this.#contracts,
      settings: {
        bodyLimit: this.config.bodyLimit ?? DEFAULT_BODY_LIMIT,
        maxUrlLength: this.config.maxUrlLength ?? 8192,
        methodNotAllowed: this.config.methodNotAllowed ?? true,
        trailingSlash: this.config.trailingSlash ?? true,
        trustProxy: this.config.trustProxy ?? null,
        requestId: this.config.requestId,
        etag: this.config.etag === true,
        cookies: this.#cookies,
        uploads: this.config.uploads,
        decompress: this.config.decompress === true,
      },
      logger: this.#logger,
      errors: this.errorShape,
      errorHandlers: this.errorHandlers,
    });
    return this.#kernel;
  }

  #changed(change: TableChange): void {
    if (change === 'route') {
      this.#ready = false;
      this.#contracts.forget(); // a route registered late is read with the others
      return;
    }
    if (change === 'middleware') this.#ready = false;
    this.#kernel?.reset();
  }
}

/** An application whatever its bindings. */
// biome-ignore lint/suspicious/noExplicitAny: bindings only type handlers at registration.
export type AnyApplication = Application<any>;

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

/**
 * The route table: what registration builds. Routes in definition order, their names, the middleware
 * aliases and application-wide middleware, the bindings and the fallback, and the router whose value for
 * each route is its {@link RouteContext}.
 *
 * With the route cache on, registrations are recorded and the router is built on first use — from the
 * cache when its fingerprint matches the routes registered (nothing compiled), else by compiling them (the
 * cache has warned once). A failure is kept and rethrown on every later use, so a half-built table is
 * never served.
 */
import type { RouteCacheBoot } from '../cache/boot.js';
import type { ExpectedRoutes } from '../cache/expected.js';
import type { TableOptions } from '../cache/fingerprint.js';
import {
  type ControllerInstances,
  type ResolvedHandler,
  type RouteHandler,
  resolveHandler,
} from '../core/handler.js';
import type { Logger } from '../core/logger.js';
import type { MiddlewareRef } from '../core/middleware.js';
import type { RouteInfo, RouteShape } from '../engine/engine.js';
import { RouteError } from '../errors.js';
import type { AnnotationSet } from '../openapi/types.js';
import { type CallSiteSource, KnownCallSite, LazyCallSite } from '../registry/call-site.js';
import { Router, type RouterOptions } from '../router/index.js';
import { MiddlewareAliases } from './aliases.js';
import { type AnyGroup, type RouteSink, VERBS } from './registrar.js';
import type { RegisteredRoute } from './route.js';
import { type BindingResolver, RouteContext } from './route-context.js';
import { Route, type RouteOwner } from './route-registration.js';

/** What changed, for whoever caches something built from the table. */
export type TableChange =
  /** A route was registered. */
  | 'route'
  /** Middleware, an alias or a `validate` setting: resolved chains and compiled checks are out of date. */
  | 'middleware'
  /** A binding or the fallback. */
  | 'binding'
  | 'answers';

export interface RouteTableOptions {
  routerOptions: RouterOptions;
  /** The route cache to build from, or `null` to compile each route as it is registered. */
  cache: RouteCacheBoot | null;
  /** The options the cache's fingerprint covers. */
  tableOptions: TableOptions;
  logger: Logger;
  onChange(change: TableChange): void;
}

export class RouteTable {
  readonly routes: Route[] = [];
  /** By route id: the router's values. */
  readonly contexts: RouteContext[] = [];
  readonly aliases = new MiddlewareAliases();
  /** Application-wide middleware, outermost first. */
  readonly global: MiddlewareRef[] = [];
  readonly bindings = new Map<string, BindingResolver>();
  /** Every method some route uses, and the standard ones (the rest answer 501). */
  readonly methods = new Set<string>(VERBS);
  fallback: ResolvedHandler | null = null;
  /** The groups given `onError` or `notFound`, which requests no route matched reach by their path. */
  readonly answeringGroups: AnyGroup[] = [];
  readonly instances: ControllerInstances = new WeakMap();
  /** What routes and groups call back into. */
  readonly owner: RouteOwner & RouteSink;
  readonly #names = new Map<string, Route>();
  readonly #options: RouteTableOptions;
  /** `null` while registration is deferred: the route cache is on, the router is built on first use. */
  #router: Router<RouteContext> | null = null;
  #cache: RouteCacheBoot | null;
  /** The methods of each route registered while deferred, by route id. */
  readonly #pending: (readonly string[])[] = [];
  #bootError: unknown = null;
  #cachedAnnotations: (() => AnnotationSet | null) | null = null;
  /** What the route cache expects to be registered; `undefined` until the first deferred registration. */
  #expectedRoutes: ExpectedRoutes | null | undefined;
  #infos: RouteInfo[] | null = null;
  /** Routes' metadata read one at a time ({@link info}), by id. */
  readonly #infoById: RouteInfo[] = [];
  #validationSet = false;

  constructor(options: RouteTableOptions) {
    this.#options = options;
    this.#cache = options.cache;
    if (this.#cache === null) this.#router = new Router<RouteContext>(options.routerOptions);
    this.owner = {
      nameRoute: (route, name) => this.#nameRoute(route, name),
      invalidate: () => options.onChange('middleware'),
      validationChanged: () => {
        this.#validationSet = true;
        options.onChange('middleware');
      },
      register: (methods, pattern, handler, group) => this.register(methods, pattern, handler, group),
      errorHandlersSet: (group) => {
        if (!this.answeringGroups.includes(group)) this.answeringGroups.push(group);
        options.onChange('answers');
      },
    };
  }

  /** The router. While deferred, the first access builds it (from the cache when it matches). */
  get router(): Router<RouteContext> {
    return this.#router ?? this.#boot();
  }

  /** The annotations stored in the route cache the table was built from, or `null`. */
  cachedAnnotations(): AnnotationSet | null {
    if (this.#router === null) this.#boot();
    return this.#cachedAnnotations?.() ?? null;
  }

  /** Whether some route or group called `validate()` (with the application's `validate`, whether any
   * route can have contract checks). */
  get validationSet(): boolean {
    return this.#validationSet;
  }

  /** The route named `name`, if any. */
  named(name: string): Route | undefined {
    return this.#names.get(name);
  }

  /** The engine's metadata of every route, by id. */
  infos(): RouteInfo[] {
    this.#infos ??= this.router.routes();
    return this.#infos;
  }

  /**
   * One route's metadata, read from the engine the first time it is asked for. URL generation and a
   * route's contract checks need one route's; reading every route's for it wrote and parsed the whole
   * table's metadata on the first `app.route()` (docs/PERFORMANCE.md).
   */
  info(id: number): RouteInfo | undefined {
    if (this.#infos !== null) return this.#infos[id];
    let info = this.#infoById[id];
    if (info === undefined) {
      info = this.router.route(id);
      if (info !== undefined) this.#infoById[id] = info;
    }
    return info;
  }

  /** Every route as tooling sees it; `validated` says whether a route's requests are checked. */
  describe(validated: (route: Route) => boolean): RegisteredRoute[] {
    const infos = this.infos();
    return this.routes.flatMap((route) => {
      const info = infos[route.id];
      if (info === undefined) return [];
      const bound = route.paramNames.filter((name) => this.bindings.has(name));
      return [route.describe(info, validated(route), bound)];
    });
  }

  register(
    methods: readonly string[],
    pattern: string,
    handler: RouteHandler,
    group: AnyGroup | null,
  ): Route {
    const callSite = this.#callSite(this.routes.length, methods, pattern);
    let route: Route;
    try {
      route = new Route(this.owner, {
        id: this.routes.length,
        pattern,
        group,
        handler: resolveHandler(handler, this.instances),
        callSite,
      });
      const context = new RouteContext(route);
      if (this.#router === null)
        this.#pending.push(methods); // compiled, or taken from the cache, on first use
      else this.#compile(this.#router, context, methods);
      this.routes.push(route);
      this.contexts.push(context);
    } catch (error) {
      // A mistake names the line it was made on: captured now (the stack is still the registration's),
      // never taken from the cache.
      throw withCallSite(error, (callSite instanceof KnownCallSite ? new LazyCallSite() : callSite).value);
    }
    this.#options.onChange('route');
    return route;
  }

  /**
   * Where this registration happens. While the route cache defers compiling, a route the cache lists at
   * this position, from a file unchanged since, takes the call site the cache stored (see
   * `cache/expected.ts`); the first such route of each file is captured all the same, to confirm the cache
   * names call sites as this process does.
   */
  #callSite(id: number, methods: readonly string[], pattern: string): CallSiteSource {
    const expected = this.#router === null ? this.#expected() : null;
    const stored = expected?.callSite(id, methods, pattern);
    if (stored === undefined) return new LazyCallSite();
    if (stored.confirmed) return new KnownCallSite(stored.site);
    const captured = new LazyCallSite();
    const site = captured.value;
    expected?.confirm(stored.site, site?.file === stored.site.file && site.line === stored.site.line);
    return captured;
  }

  /** The cache's routes, read at the first registration while deferred (`null`: no usable cache). */
  #expected(): ExpectedRoutes | null {
    if (this.#expectedRoutes === undefined) this.#expectedRoutes = this.#cache?.expected() ?? null;
    return this.#expectedRoutes;
  }

  #compile(router: Router<RouteContext>, context: RouteContext, methods: readonly string[]): void {
    const { route } = context;
    const shape = router.add(methods, route.pattern, context);
    if (shape.id !== route.id)
      throw new Error(`internal: the engine gave id ${shape.id}, expected ${route.id}`);
    this.#accept(route, shape);
  }

  #accept(route: Route, { methods, names, shadowedBy }: RouteShape): void {
    route.attach(methods, names);
    this.#infos = null;
    this.#infoById.length = 0;
    for (const method of methods) this.methods.add(method);
    if (shadowedBy !== null) this.#warnShadowed(route, shadowedBy);
  }

  #boot(): Router<RouteContext> {
    if (this.#bootError !== null) throw this.#bootError;
    const cache = this.#cache;
    this.#cache = null;
    const keys = this.routes.map((route) => ({
      methods: this.#pending[route.id] ?? [],
      pattern: route.pattern,
      name: route.getName(),
    }));
    this.#pending.length = 0;
    this.#expectedRoutes = null;
    const hit = cache?.load<RouteContext>(keys, this.#options.tableOptions, this.contexts) ?? null;
    if (hit !== null) {
      for (const context of this.contexts) {
        const shape = hit.shapes[context.route.id];
        if (shape === undefined) throw new Error(`internal: no metadata for route ${context.route.id}`);
        this.#accept(context.route, shape);
      }
      this.#cachedAnnotations = hit.annotations;
      this.#router = hit.router;
      return hit.router;
    }
    const router = new Router<RouteContext>(this.#options.routerOptions);
    for (const context of this.contexts) {
      const { route } = context;
      try {
        this.#compile(router, context, keys[route.id]?.methods ?? []);
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
    this.#infoById.length = 0;
  }

  #warnShadowed(route: Route, by: number): void {
    const earlier = this.routes[by];
    const at = (r: Route | undefined) => (r?.callSite ? `${r.callSite.file}:${r.callSite.line}` : null);
    const where = (r: Route | undefined) => (r?.callSite ? ` (${at(r)})` : '');
    this.#options.logger.warn(
      {
        route: route.pattern,
        methods: route.methods,
        at: at(route),
        shadowedBy: earlier?.pattern ?? null,
        shadowedByAt: at(earlier),
      },
      `route ${route.methods.join('|')} ${route.pattern}${where(route)} can never match: ` +
        `${earlier?.pattern ?? `route #${by}`}${where(earlier)} is defined first and matches every path it matches`,
    );
  }
}

function withCallSite(error: unknown, callSite: { file: string; line: number } | null): unknown {
  if (error instanceof Error && callSite !== null)
    error.message += ` (registered at ${callSite.file}:${callSite.line})`;
  return error;
}

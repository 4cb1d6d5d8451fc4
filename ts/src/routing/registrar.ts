import type { UploadLimits } from '../body/multipart.js';
import type { DeclaredEnv, DefaultEnv, Env, WithVariables } from '../core/context.js';
import {
  type ErrorHandler,
  type ErrorHandlerOptions,
  ErrorHandlers,
  type NotFoundHandler,
} from '../core/error-handlers.js';
import type { AnyRouteHandler, ControllerClass, PatternHandler, RouteHandler } from '../core/handler.js';
import { type AddsOfAll, type MiddlewareRef, toReferences } from '../core/middleware.js';
import type { Bindings, JoinPath, NoBindings } from '../core/params.js';
import { WebSocketHub } from '../helpers/websocket-hub.js';
import type { ValidateConfig } from '../validation/validation.js';
import { type ResourceOptions, resourceRoutes } from './resource.js';
import type { GroupOptions, OptionsEnv, RouteOptions } from './route-options.js';
import { checkedLimit, type Route } from './route-registration.js';
import {
  type PatternWebSocketHandler,
  type WebSocketHandler,
  type WebSocketOptions,
  webSocketRoute,
} from './websocket.js';

/** The verbs `any()` registers, in the order `Allow` headers list them. */
export const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * `Prefix` is the group prefix the routes are registered under (`''` for the application) and `B` the
 * bindings' value types: together with each uri they type the handler's `req.param()` and bound values.
 * `E` is what the requests carry (`req.get()`, `req.valid()`): see `Env`.
 */
export abstract class Registrar<
  Prefix extends string = '',
  B extends Bindings = NoBindings,
  E extends Env = DefaultEnv,
> {
  /** The application's open WebSockets: created with the application, handed to each group it makes. */
  #webSockets = new WebSocketHub();
  /** @internal The `onError` and `notFound` handlers given to this application or group. */
  readonly errorHandlers = new ErrorHandlers();

  /** @internal */
  protected abstract addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route;
  /** @internal */
  protected abstract childGroup(prefix: string): Group<string, B>;
  /** @internal Called when `onError` or `notFound` is given. */
  protected abstract errorHandlersChanged(): void;

  /** A verb's route, from `(uri, handler)` or `(uri, options, handler)`. */
  #register(
    methods: readonly string[],
    uri: string,
    first: AnyRouteHandler | RouteOptions,
    second: AnyRouteHandler | undefined,
  ): Route {
    if (second === undefined) return this.addRoute(methods, uri, first as RouteHandler);
    const options = first as RouteOptions;
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw new TypeError(`${methods.join('|')} ${uri}: the second argument must be the route's options`);
    const route = this.addRoute(methods, uri, second as RouteHandler);
    if (options.middleware !== undefined) route.middleware(options.middleware);
    if (options.schema !== undefined) route.schema(options.schema);
    return route;
  }

  /**
   * Answers the errors of this application's (or group's) requests: every error Arbor raises once a
   * request is read and every error a handler or middleware throws, as the very object thrown. The nearest
   * wins: a group's over the application's, an inner group's over an outer one's. What it returns is the
   * answer; if it throws, the default answer goes out and its failure is logged. `options.schema`
   * documents the body its answers have, in the OpenAPI document. Chainable.
   *
   * @example
   * app.onError((err, req, res) => {
   *   const status = err instanceof HttpError ? err.status : 500;
   *   return res.status(status).json({ errors: { body: [status === 500 ? 'internal error' : err.message] } });
   * }, { schema: { type: 'object', properties: { errors: { type: 'object' } } } });
   */
  onError(handler: ErrorHandler<E>, options?: ErrorHandlerOptions): this {
    if (typeof handler !== 'function') throw new TypeError('onError(): the handler must be a function');
    this.errorHandlers.onError = handler as unknown as ErrorHandler;
    this.errorHandlers.options = options ?? null;
    this.errorHandlersChanged();
    return this;
  }

  /**
   * Answers a request no route matched (nor `fallback()` took) under this application (or group): without
   * it, such a request goes to `onError` as a 404. A 404 thrown by a handler or a binding goes to
   * `onError`. Chainable.
   *
   * @example
   * app.notFound((req, res) => res.status(404).json({ errors: { body: [`no page at ${req.path}`] } }));
   */
  notFound(handler: NotFoundHandler<E>): this {
    if (typeof handler !== 'function') throw new TypeError('notFound(): the handler must be a function');
    this.errorHandlers.notFound = handler as unknown as NotFoundHandler;
    this.errorHandlersChanged();
    return this;
  }

  /** @example app.get('/tasks/:id<int>', (req, res) => res.json({ id: req.param('id') })); */
  get<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'GET', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  get<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'GET', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  get<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  get<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  get(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['GET'], uri, first, second);
  }

  /** Registers a POST route. @example app.post('/tasks', async (req, res) => res.status(201).json(await createTask(req))); */
  post<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'POST', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  post<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'POST', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  post<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  post<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  post(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['POST'], uri, first, second);
  }

  /** Registers a PUT route. @example app.put('/tasks/:id<int>', (req, res) => res.json(replaceTask(req.param('id')))); */
  put<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'PUT', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  put<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'PUT', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  put<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  put<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  put(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['PUT'], uri, first, second);
  }

  /** Registers a PATCH route. @example app.patch('/tasks/:id<int>', (req, res) => res.json(updateTask(req.param('id')))); */
  patch<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'PATCH', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  patch<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'PATCH', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  patch<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  patch<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  patch(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['PATCH'], uri, first, second);
  }

  /** Registers a DELETE route. @example app.delete('/tasks/:id<int>', (req, res) => res.status(204).send(null)); */
  delete<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'DELETE', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  delete<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'DELETE', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  delete<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  delete<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  delete(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['DELETE'], uri, first, second);
  }

  /** Registers a OPTIONS route (without one, OPTIONS is answered with the `Allow` header of the path's methods). @example app.options('/upload', (req, res) => res.header('Allow', 'POST').status(204).send(null)); */
  options<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'OPTIONS', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  options<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'OPTIONS', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  options<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  options<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  options(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['OPTIONS'], uri, first, second);
  }

  /** Registers a HEAD route (a GET route answers HEAD already; register HEAD only to answer it differently). @example app.head('/files/:name', (req, res) => res.header('X-Size', 1024).status(200).send(null)); */
  head<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<
      JoinPath<Prefix, U>,
      B,
      OptionsEnv<DeclaredEnv<E, 'HEAD', JoinPath<Prefix, U>>, O>
    >,
  ): Route;
  head<U extends string>(
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, DeclaredEnv<E, 'HEAD', JoinPath<Prefix, U>>>,
  ): Route;
  // The same without the declared contract: identical for every verb, so that a verb chosen at run time
  // (\`app[verb](uri, handler)\`) still has a signature every member of the union shares.
  head<U extends string, const O extends RouteOptions>(
    uri: U,
    options: O,
    handler: PatternHandler<JoinPath<Prefix, U>, B, OptionsEnv<E, O>>,
  ): Route;
  head<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route;
  head(uri: string, first: AnyRouteHandler | RouteOptions, second?: AnyRouteHandler): Route {
    return this.#register(['HEAD'], uri, first, second);
  }

  /** One route for several verbs. @example app.match(['GET', 'POST'], '/form', handler); */
  match<U extends string>(
    methods: readonly string[],
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B, E>,
  ): Route {
    if (methods.length === 0) throw new TypeError(`match(): no methods given for ${uri}`);
    for (const method of methods) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method))
        throw new TypeError(`match(): invalid method ${JSON.stringify(method)}`);
    }
    return this.addRoute(
      methods.map((m) => m.toUpperCase()),
      uri,
      handler as RouteHandler,
    );
  }

  /** Every verb of {@link VERBS}. The uri may end in `*`. @example app.any('/proxy/*', handler); */
  any<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B, E>): Route {
    return this.addRoute(VERBS, uri, handler as RouteHandler);
  }

  /**
   * A WebSocket route: a GET route whose middleware (application, group, route) runs before the handshake,
   * so it can refuse with 401, 403 or 429 before any WebSocket exists. A request without a WebSocket
   * upgrade gets 426. The handler gets the open WebSocket (`ws`'s) and the request; see docs/WEBSOCKETS.md.
   *
   * @example
   * app.ws('/chat/:room', (socket, req) => {
   *   socket.on('message', (data) => socket.send(`${req.param('room')}: ${data}`));
   * }).middleware('auth');
   */
  ws<U extends string>(
    uri: U,
    handler: PatternWebSocketHandler<JoinPath<Prefix, U>, B>,
    options?: WebSocketOptions,
  ): Route {
    if (typeof handler !== 'function') throw new TypeError(`ws(): the handler of ${uri} must be a function`);
    return this.addRoute(
      ['GET'],
      uri,
      webSocketRoute(handler as WebSocketHandler, this.#webSockets, options),
    );
  }

  /**
   * @internal The open WebSockets of the application (its groups share it): `close()` closes them with
   * 1001 (`webSockets.closeAll(graceMs)`).
   */
  get webSockets(): WebSocketHub {
    return this.#webSockets;
  }

  /**
   * Registers the routes of `callback` under `prefix`. Groups nest (prefixes concatenate) and take
   * middleware: `app.group('/admin', g => { … }).middleware(['auth', 'admin'])`. The prefix's parameters
   * are typed in the group's handlers (`app.group('/orgs/:org', g => g.get('/', (req) => … req.param('org')))`).
   */
  group<P extends string>(
    prefix: P,
    callback: (group: Group<JoinPath<Prefix, P>, B, E>) => void,
  ): Group<JoinPath<Prefix, P>, B, E>;
  /**
   * A group given its options first, so that its handlers are typed by them: middleware that declares
   * what it adds (`Middleware<{ user: User }>`, or a name in `MiddlewareNames`) makes `req.get('user')`
   * typed inside.
   *
   * @example
   * app.group('/me', { middleware: [auth] }, (me) => me.get('/', (req, res) => res.json(req.get('user'))));
   */
  group<P extends string, const M extends readonly MiddlewareRef[]>(
    prefix: P,
    options: GroupOptions & { middleware?: M },
    callback: (group: Group<JoinPath<Prefix, P>, B, WithVariables<E, AddsOfAll<M>>>) => void,
  ): Group<JoinPath<Prefix, P>, B, WithVariables<E, AddsOfAll<M>>>;
  group(
    prefix: string,
    first: GroupOptions | ((group: AnyGroup) => void),
    second?: (group: AnyGroup) => void,
  ): AnyGroup {
    const group = this.childGroup(prefix) as AnyGroup;
    // A group's WebSocket routes are its application's: one hub closes them all.
    group.#webSockets = this.#webSockets;
    if (typeof first === 'function') {
      first(group);
      return group;
    }
    if (typeof first !== 'object' || first === null || typeof second !== 'function')
      throw new TypeError(`group(${JSON.stringify(prefix)}): give a callback, or options and a callback`);
    if (first.middleware !== undefined) group.middleware(first.middleware);
    second(group);
    return group;
  }

  /**
   * The seven resource routes (`posts.index`, `posts.create`, `posts.store`, `posts.show`, `posts.edit`,
   * `posts.update` for PUT and PATCH, `posts.destroy`), for the methods the controller has
   * (docs/framework/routes.md, "Resources").
   */
  resource(uri: string, controller: ControllerClass, options?: ResourceOptions): Route[] {
    return resourceRoutes(uri, controller, options).map(({ methods, path, action, name }) =>
      this.addRoute(methods, path, [controller, action]).name(name),
    );
  }
}

/** What a group needs from its application. */
export interface RouteSink {
  register(methods: readonly string[], pattern: string, handler: RouteHandler, group: AnyGroup | null): Route;
  /** A group was given `onError` or `notFound`: requests no route matched may reach it by their path. */
  errorHandlersSet(group: AnyGroup): void;
  invalidate(): void;
  validationChanged(): void;
}

/**
 * A route group: a prefix and middleware shared by the routes registered in its callback. Middleware added
 * after the callback ran (`app.group(…).middleware('auth')`) still applies to those routes: chains are
 * built at the first request, not at registration.
 *
 * @example
 * app.group('/api', (api) => {
 *   api.group('/v1', (v1) => v1.get('/status', (req, res) => res.json({ ok: true }))); // GET /api/v1/status
 *   api.middleware('throttle:60,1');
 * }).middleware(['auth']);
 */
export class Group<
  Prefix extends string = string,
  B extends Bindings = NoBindings,
  E extends Env = DefaultEnv,
> extends Registrar<Prefix, B, E> {
  /** The full prefix (parents' prefixes included). */
  readonly prefix: string;
  readonly parent: AnyGroup | null;
  /** How deep the group is nested (0: a group of the application). */
  readonly depth: number;
  readonly #sink: RouteSink;
  readonly #middleware: MiddlewareRef[] = [];
  #validate: ValidateConfig | undefined;
  #bodyLimit: number | undefined;
  #uploads: UploadLimits | undefined;
  #decompress: boolean | undefined;

  /** @internal Created by `group()`. */
  constructor(sink: RouteSink, prefix: string, parent: AnyGroup | null) {
    super();
    this.#sink = sink;
    this.prefix = prefix;
    this.parent = parent;
    this.depth = parent === null ? 0 : parent.depth + 1;
  }

  /** The `onError` handler of this group or, failing that, of the nearest outer group that has one. */
  get onErrorSetting(): ErrorHandler | undefined {
    return this.errorHandlers.onError ?? this.parent?.onErrorSetting;
  }

  /** The options given with the `onError` that answers this group's errors (`null`: none, or the application's). */
  get onErrorOptionsSetting(): ErrorHandlerOptions | null {
    if (this.errorHandlers.onError !== null) return this.errorHandlers.options;
    return this.parent === null ? null : this.parent.onErrorOptionsSetting;
  }

  /** Whether this group or an outer one has an `onError`. */
  get answersErrors(): boolean {
    return this.errorHandlers.onError !== null || (this.parent?.answersErrors ?? false);
  }

  /** The `notFound` handler of this group or, failing that, of the nearest outer group that has one. */
  get notFoundSetting(): NotFoundHandler | undefined {
    return this.errorHandlers.notFound ?? this.parent?.notFoundSetting;
  }

  protected errorHandlersChanged(): void {
    this.#sink.errorHandlersSet(this as unknown as AnyGroup);
  }

  /** Adds middleware to every route of the group (and of its nested groups). Chainable. */
  middleware(refs: MiddlewareRef | readonly MiddlewareRef[]): this {
    this.#middleware.push(...toReferences(refs));
    this.#sink.invalidate();
    return this;
  }

  /**
   * Validation for every route of the group (and of its nested groups), over the application's `validate`;
   * a route's own `.validate(…)` and an inner group's win. Chainable.
   *
   * @example app.group('/api', (api) => { … }).validate({ responses: true });
   */
  validate(config: ValidateConfig = true): this {
    this.#validate = config;
    this.#sink.validationChanged();
    return this;
  }

  /**
   * The largest request body, in bytes, for every route of the group (and of its nested groups), over the
   * application's `bodyLimit`; a route's own and an inner group's win. Chainable.
   *
   * @example app.group('/uploads', (g) => { … }).bodyLimit(50 * 1024 * 1024);
   */
  bodyLimit(bytes: number): this {
    this.#bodyLimit = checkedLimit(bytes);
    return this;
  }

  /** The body limit of this group or, failing that, of the nearest outer group that has one. */
  get bodyLimitSetting(): number | undefined {
    return this.#bodyLimit ?? this.parent?.bodyLimitSetting;
  }

  /** Upload limits for every route of the group, over the application's `uploads` (see multipart.ts). */
  uploads(limits: UploadLimits): this {
    this.#uploads = limits;
    return this;
  }

  /** Outer groups' upload limits, then this group's over them. */
  get uploadsSetting(): UploadLimits | undefined {
    const outer = this.parent?.uploadsSetting;
    return outer === undefined ? this.#uploads : { ...outer, ...this.#uploads };
  }

  /**
   * Decode compressed request bodies (`false`: refuse them with 415) on every route of the group (and of
   * its nested groups), over the application's `decompress`; a route's own and an inner group's win.
   * Chainable.
   *
   * @example app.group('/ingest', (g) => { … }).decompress();
   */
  decompress(on = true): this {
    this.#decompress = on;
    return this;
  }

  /** The decompression setting of this group or, failing that, of the nearest outer group that has one. */
  get decompressSetting(): boolean | undefined {
    return this.#decompress ?? this.parent?.decompressSetting;
  }

  /** The validation setting of this group or, failing that, of the nearest outer group that has one. */
  get validation(): ValidateConfig | undefined {
    return this.#validate ?? this.parent?.validation;
  }

  /** Outer groups' middleware first, then this group's. */
  middlewareChain(): MiddlewareRef[] {
    const outer = this.parent?.middlewareChain();
    return outer === undefined || outer.length === 0
      ? this.#middleware.slice()
      : [...outer, ...this.#middleware];
  }

  protected addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route {
    return this.#sink.register(methods, joinPath(this.prefix, uri), handler, this);
  }

  protected childGroup(prefix: string): Group<string, B> {
    return new Group<string, B>(this.#sink, joinPath(this.prefix, prefix), this as unknown as AnyGroup);
  }
}

/** A group whatever its prefix and bindings (what the application keeps). */
// biome-ignore lint/suspicious/noExplicitAny: the type parameters only type handlers at registration.
export type AnyGroup = Group<string, any, any>;

/** `'/api'` + `'/users'` → `'/api/users'`; `'/api/'` + `'/'` → `'/api'`; `''` + `'x'` → `'/x'`. */
export function joinPath(prefix: string, uri: string): string {
  const head = prefix.replace(/\/+$/, '');
  if (uri === '' || uri === '/') return head === '' ? '/' : head;
  // A whole-path regex block matches from the first character: the prefix goes in front, no slash added.
  if (uri.startsWith('{^')) return `${head}${uri}`;
  return `${head}${uri.startsWith('/') ? '' : '/'}${uri}`;
}

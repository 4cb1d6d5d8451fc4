import type { UploadLimits } from '../body/multipart.js';
import type { ControllerClass, PatternHandler, RouteHandler } from '../core/handler.js';
import { type MiddlewareRef, toReferences } from '../core/middleware.js';
import type { Bindings, JoinPath, NoBindings } from '../core/params.js';
import { WebSocketHub } from '../helpers/websocket-hub.js';
import type { ValidateConfig } from '../validation/validation.js';
import { type ResourceOptions, resourceRoutes } from './resource.js';
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
 */
export abstract class Registrar<Prefix extends string = '', B extends Bindings = NoBindings> {
  /** The application's open WebSockets: created with the application, handed to each group it makes. */
  #webSockets = new WebSocketHub();

  /** @internal */
  protected abstract addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route;
  /** @internal */
  protected abstract childGroup(prefix: string): Group<string, B>;

  /** @example app.get('/tasks/:id<int>', (req, res) => res.json({ id: req.param('id') })); */
  get<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['GET'], uri, handler as RouteHandler);
  }

  /** Registers a POST route. @example app.post('/tasks', async (req, res) => res.status(201).json(await createTask(req))); */
  post<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['POST'], uri, handler as RouteHandler);
  }

  /** Registers a PUT route. @example app.put('/tasks/:id<int>', (req, res) => res.json(replaceTask(req.param('id')))); */
  put<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['PUT'], uri, handler as RouteHandler);
  }

  /** Registers a PATCH route. @example app.patch('/tasks/:id<int>', (req, res) => res.json(updateTask(req.param('id')))); */
  patch<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['PATCH'], uri, handler as RouteHandler);
  }

  /** Registers a DELETE route. @example app.delete('/tasks/:id<int>', (req, res) => res.status(204).send(null)); */
  delete<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['DELETE'], uri, handler as RouteHandler);
  }

  /** Registers a OPTIONS route (without one, OPTIONS is answered with the `Allow` header of the path's methods). @example app.options('/upload', (req, res) => res.header('Allow', 'POST').status(204).send(null)); */
  options<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['OPTIONS'], uri, handler as RouteHandler);
  }

  /** Registers a HEAD route (a GET route answers HEAD already; register HEAD only to answer it differently). @example app.head('/files/:name', (req, res) => res.header('X-Size', 1024).status(200).send(null)); */
  head<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['HEAD'], uri, handler as RouteHandler);
  }

  /** One route for several verbs. @example app.match(['GET', 'POST'], '/form', handler); */
  match<U extends string>(
    methods: readonly string[],
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B>,
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
  any<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
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
    callback: (group: Group<JoinPath<Prefix, P>, B>) => void,
  ): Group<JoinPath<Prefix, P>, B> {
    const group = this.childGroup(prefix) as Group<JoinPath<Prefix, P>, B>;
    // A group's WebSocket routes are its application's: one hub closes them all.
    group.#webSockets = this.#webSockets;
    callback(group);
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
export class Group<Prefix extends string = string, B extends Bindings = NoBindings> extends Registrar<
  Prefix,
  B
> {
  /** The full prefix (parents' prefixes included). */
  readonly prefix: string;
  readonly parent: AnyGroup | null;
  readonly #sink: RouteSink;
  readonly #middleware: MiddlewareRef[] = [];
  #validate: ValidateConfig | undefined;
  #bodyLimit: number | undefined;
  #uploads: UploadLimits | undefined;

  /** @internal Created by `group()`. */
  constructor(sink: RouteSink, prefix: string, parent: AnyGroup | null) {
    super();
    this.#sink = sink;
    this.prefix = prefix;
    this.parent = parent;
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
export type AnyGroup = Group<string, any>;

/** `'/api'` + `'/users'` → `'/api/users'`; `'/api/'` + `'/'` → `'/api'`; `''` + `'x'` → `'/x'`. */
export function joinPath(prefix: string, uri: string): string {
  const head = prefix.replace(/\/+$/, '');
  if (uri === '' || uri === '/') return head === '' ? '/' : head;
  // A whole-path regex block matches from the first character: the prefix goes in front, no slash added.
  if (uri.startsWith('{^')) return `${head}${uri}`;
  return `${head}${uri.startsWith('/') ? '' : '/'}${uri}`;
}

/**
 * A route group: a prefix and middleware shared by the routes registered in its callback. Middleware added
 * after the callback ran (`app.group(…).middleware('auth')`) still applies to those routes: chains are
 * built at the first request, not at registration.
 */
import type { RouteHandler } from './handler.js';
import { type MiddlewareRef, toReferences } from './middleware.js';
import type { Bindings, NoBindings } from './params.js';
import { joinPath, Registrar } from './registrar.js';
import type { Route } from './route.js';
import type { ValidateConfig } from './validation.js';

/** What a group needs from its application. */
export interface RouteSink {
  register(methods: readonly string[], pattern: string, handler: RouteHandler, group: AnyGroup | null): Route;
  invalidate(): void;
  validationChanged(): void;
}

/**
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

/**
 * A registered route, as `app.get(…)` returns it: `.name('tasks.show')` and `.middleware('auth')` chain
 * on it. {@link RegisteredRoute} is the read-only view the OpenAPI exporter and the CLI consume.
 */
import type { RouteInfo } from '../engine/engine.js';
import type { CallSite, CallSiteSource } from './call-site.js';
import type { AnyGroup } from './group.js';
import type { ResolvedHandler } from './handler.js';
import { type MiddlewareRef, referenceLabel, toReferences } from './middleware.js';
import type { ValidateConfig } from './validation.js';

/** One row of `app.routeTable()`: everything tooling needs to know about a route. */
export interface RegisteredRoute {
  id: number;
  methods: string[];
  /** The full pattern, group prefixes applied. */
  pattern: string;
  /** The engine's metadata (template, parameters and constraints, shadowing). */
  info: RouteInfo;
  name: string | null;
  /** Group and route middleware, outermost first, as referenced (`'throttle:60,1'`); functions by name. */
  middleware: string[];
  /** `'Class.method'` for array callables, `'file:line'` of the registration for closures. */
  handlerLocation: string | null;
  /** Where the user called `app.get(…)` (or `resource`, `match`, …). */
  callSite: CallSite | null;
  /** Requests are checked against the annotations (`validate`): the document lists the 400. */
  validated?: boolean;
}

/** What a route needs from its application: naming goes through the engine and the name index. */
export interface RouteOwner {
  nameRoute(route: Route, name: string): void;
  /** Called when middleware changes, so cached chains are rebuilt. */
  invalidate(): void;
  /** Called when a route or group sets `validate`: there are contract checks to compile. */
  validationChanged(): void;
}

export class Route {
  readonly id: number;
  readonly pattern: string;
  readonly group: AnyGroup | null;
  readonly handler: ResolvedHandler;
  readonly #callSite: CallSiteSource | null;
  readonly #owner: RouteOwner;
  readonly #middleware: MiddlewareRef[] = [];
  #name: string | null = null;
  #methods: readonly string[] = [];
  #paramNames: readonly string[] = [];
  #validate: ValidateConfig | undefined;

  /** @internal Routes are created by `Application`/`Group` registration methods. */
  constructor(
    owner: RouteOwner,
    fields: Pick<Route, 'id' | 'pattern' | 'group' | 'handler'> & { callSite: CallSiteSource | null },
  ) {
    this.#owner = owner;
    this.id = fields.id;
    this.pattern = fields.pattern;
    this.group = fields.group;
    this.handler = fields.handler;
    this.#callSite = fields.callSite;
  }

  /** Where the user called `app.get(…)` (or `resource`, `match`, …), resolved on first read. */
  get callSite(): CallSite | null {
    return this.#callSite?.value ?? null;
  }

  /** @internal The engine's answer to the registration: methods and parameter names. */
  attach(methods: readonly string[], paramNames: readonly string[]): void {
    this.#methods = methods;
    this.#paramNames = paramNames;
  }

  get methods(): readonly string[] {
    return this.#methods;
  }

  /** Parameter names in pattern order (bindings are resolved in this order). */
  get paramNames(): readonly string[] {
    return this.#paramNames;
  }

  /**
   * Names the route for URL generation (`app.route('tasks.show', { id })`). Names are unique per
   * application: a second route with the same name throws `DUPLICATE_NAME`.
   */
  name(name: string): this {
    this.#owner.nameRoute(this, name);
    this.#name = name;
    return this;
  }

  getName(): string | null {
    return this.#name;
  }

  /**
   * Checks this route's requests (and with `{ responses: true }` its responses) against its annotations,
   * whatever the application's `validate` says; `.validate(false)` turns it off for this route. Chainable.
   *
   * @example app.post('/tasks', store).validate();
   */
  validate(config: ValidateConfig = true): this {
    this.#validate = config;
    this.#owner.validationChanged();
    return this;
  }

  /** The route's own `validate` setting, if it has one. */
  get validation(): ValidateConfig | undefined {
    return this.#validate;
  }

  /** Adds route middleware (names, `'throttle:60,1'`, or functions); it runs after group middleware. */
  middleware(refs: MiddlewareRef | readonly MiddlewareRef[]): this {
    this.#middleware.push(...toReferences(refs));
    this.#owner.invalidate();
    return this;
  }

  /** Group middleware (outermost first), then the route's own. */
  middlewareChain(): MiddlewareRef[] {
    // Most routes have no group middleware: a copy of their own is the chain (checked for every route
    // before serving, so no spreading of empty arrays).
    const outer = this.group?.middlewareChain();
    return outer === undefined || outer.length === 0
      ? this.#middleware.slice()
      : [...outer, ...this.#middleware];
  }

  /** `'Class.method'`, or the registration's `file:line`. */
  handlerLocation(): string | null {
    if (this.handler.location !== null) return this.handler.location;
    return this.callSite === null ? null : `${this.callSite.file}:${this.callSite.line}`;
  }

  describe(info: RouteInfo, validated = false): RegisteredRoute {
    return {
      id: this.id,
      methods: [...info.methods],
      pattern: this.pattern,
      info,
      name: this.#name,
      middleware: this.middlewareChain().map(referenceLabel),
      handlerLocation: this.handlerLocation(),
      callSite: this.callSite,
      ...(validated ? { validated: true } : {}),
    };
  }
}

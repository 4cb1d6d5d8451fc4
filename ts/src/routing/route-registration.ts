/**
 * A registered route, as `app.get(…)` returns it: its settings chain on it (`.name()`, `.middleware()`,
 * `.validate()`, `.bodyLimit()`, `.uploads()`), and {@link Route.describe} gives the read-only row the
 * OpenAPI exporter and the CLI consume.
 */

import type { UploadLimits } from '../body/multipart.js';
import type { ErrorHandler, ErrorHandlerOptions, NotFoundHandler } from '../core/error-handlers.js';
import type { ResolvedHandler } from '../core/handler.js';
import { type MiddlewareRef, referenceLabel, toReferences } from '../core/middleware.js';
import type { RouteInfo } from '../engine/engine.js';
import type { CallSite, CallSiteSource } from '../registry/call-site.js';
import type { RouteSchemas } from '../validation/schema-types.js';
import type { ValidateConfig } from '../validation/validation.js';
import type { RegisteredRoute } from './route.js';
import { isWebSocketRoute } from './websocket.js';

/** What a route reads of the group it was registered in (a `Group` is one). */
export interface RouteGroup {
  /** The full prefix (outer groups' prefixes included). */
  readonly prefix: string;
  /** The validation setting of the group or of its nearest outer group that has one. */
  readonly validation: ValidateConfig | undefined;
  /** The body limit of the group or of its nearest outer group that has one. */
  readonly bodyLimitSetting: number | undefined;
  /** Outer groups' upload limits, then the group's over them. */
  readonly uploadsSetting: UploadLimits | undefined;
  /** The decompression setting of the group or of its nearest outer group that has one. */
  readonly decompressSetting: boolean | undefined;
  /** Outer groups' middleware first, then the group's. */
  middlewareChain(): MiddlewareRef[];
  /** The `onError` handler of the group or of its nearest outer group that has one. */
  readonly onErrorSetting: ErrorHandler | undefined;
  /** Whether the group or an outer one has an `onError`. */
  readonly answersErrors: boolean;
  /** The options given with the `onError` that answers the group's errors. */
  readonly onErrorOptionsSetting: ErrorHandlerOptions | null;
  /** The `notFound` handler of the group or of its nearest outer group that has one. */
  readonly notFoundSetting: NotFoundHandler | undefined;
}

/** What a route needs from its application: naming goes through the engine and the name index. */
export interface RouteOwner {
  nameRoute(route: Route, name: string): void;
  /** Called when middleware changes, so cached chains are rebuilt. */
  invalidate(): void;
  /** Called when a route or group sets `validate`: there are contract checks to compile. */
  validationChanged(): void;
}

/**
 * A registered route, as `app.get(…)` returns it: `.name('tasks.show')` and `.middleware('auth')` chain
 * on it; {@link Route.describe} gives the read-only row the OpenAPI exporter and the CLI consume.
 */
export class Route {
  readonly id: number;
  readonly pattern: string;
  readonly group: RouteGroup | null;
  readonly handler: ResolvedHandler;
  readonly #callSite: CallSiteSource | null;
  readonly #owner: RouteOwner;
  readonly #middleware: MiddlewareRef[] = [];
  #name: string | null = null;
  #methods: readonly string[] = [];
  #paramNames: readonly string[] = [];
  #validate: ValidateConfig | undefined;
  #bodyLimit: number | undefined;
  #uploads: UploadLimits | undefined;
  #decompress: boolean | undefined;
  #schemas: RouteSchemas | null = null;

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

  /** The route's name (`name('tasks.show')`), or `null` when it has none. */
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

  /**
   * The largest request body for this route, in bytes (beyond: 413 naming the limit), over its group's and
   * the application's `bodyLimit`. Chainable.
   *
   * @example app.post('/avatar', upload).bodyLimit(10 * 1024 * 1024);
   */
  bodyLimit(bytes: number): this {
    this.#bodyLimit = checkedLimit(bytes);
    return this;
  }

  /** The route's body limit: its own, else its nearest group's; `undefined`: the application's. */
  get bodyLimitSetting(): number | undefined {
    return this.#bodyLimit ?? this.group?.bodyLimitSetting;
  }

  /**
   * Upload limits for this route's multipart bodies, over its groups' and the application's `uploads`.
   *
   * @example app.post('/avatar', store).bodyLimit(10 * 2 ** 20).uploads({ files: 1, fileSize: 5 * 2 ** 20 });
   */
  uploads(limits: UploadLimits): this {
    this.#uploads = limits;
    return this;
  }

  /** Its groups' upload limits, then its own over them. */
  get uploadsSetting(): UploadLimits | undefined {
    const outer = this.group?.uploadsSetting;
    return outer === undefined ? this.#uploads : { ...outer, ...this.#uploads };
  }

  /**
   * Decode this route's request bodies sent with `Content-Encoding: gzip`, `deflate`, `br` or `zstd`
   * (`false`: refuse them with 415), over its group's and the application's `decompress`. The body limit
   * then counts the decoded bytes. Chainable.
   *
   * @example app.post('/telemetry', ingest).decompress().bodyLimit(8 * 1024 * 1024);
   */
  decompress(on = true): this {
    this.#decompress = on;
    return this;
  }

  /** The route's decompression: its own, else its nearest group's; `undefined`: the application's. */
  get decompressSetting(): boolean | undefined {
    return this.#decompress ?? this.group?.decompressSetting;
  }

  /**
   * The route's contract in code (`app.post(uri, { schema }, handler)` gives it): a Standard Schema (zod,
   * valibot, arktype, …) or a JSON Schema object per part, always checked before the handler (coerced
   * values in `req.valid(part)`) and written to the OpenAPI document. Chainable.
   */
  schema(schemas: RouteSchemas): this {
    if (typeof schemas !== 'object' || schemas === null)
      throw new TypeError(`${this.pattern}: schema() takes an object of schemas by part`);
    this.#schemas = schemas;
    this.#owner.validationChanged();
    return this;
  }

  /** The route's code-first contract, or `null`. */
  get schemas(): RouteSchemas | null {
    return this.#schemas;
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

  /** The route as the tooling lists it (the route list, the OpenAPI exporter): `info` is the engine's metadata of it. */
  describe(info: RouteInfo, validated = false, bound: readonly string[] = []): RegisteredRoute {
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
      ...(isWebSocketRoute(this.handler.call) ? { webSocket: true } : {}),
      ...(bound.length > 0 ? { bound: [...bound] } : {}),
    };
  }
}

/** A body limit as given to `bodyLimit()`: a whole number of bytes, 0 or more. */
export function checkedLimit(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw new RangeError(`bodyLimit(${String(bytes)}): expected a whole number of bytes, 0 or more`);
  return bytes;
}

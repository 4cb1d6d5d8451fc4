import { CompiledEngine } from './engine/compiled-engine.js';
import { type Engine, type EngineOptions, NOT_FOUND, type RouteInfo } from './engine/engine.js';
import { createWasmEngine, createWasmEngineFromSnapshot } from './engine/wasm-engine.js';
import { compileParamsBuilder, decode, type ParamsBuilder, readParams, readSpan } from './params-builder.js';

export interface RouterOptions extends EngineOptions {
  /** Start from a compiled table (`Router#snapshot()` bytes) instead of an empty one: registration then
   * re-attaches values with {@link Router.attach} instead of compiling patterns. Pass the `order` and
   * `trailingSlash` the snapshot was taken with (the snapshot keeps its own; the router reads these). */
  snapshot?: Uint8Array;
  /** The engine to use; defaults to the WebAssembly engine. Tests pass the reference engine. */
  engine?: (options: EngineOptions) => Engine;
  /**
   * Answer exact static paths from a `Map` in front of the WebAssembly engine (default `false`). The map
   * is filled from the engine's own answers, so it can never disagree with it; dynamic lookups are never
   * cached. Off by default because it did not pay on real tables: a static hit saves the crossing into
   * wasm (~50 ns), but every dynamic request pays a probe, and with fresh path strings (a server's) a
   * hash of the path as well; measured on the GitHub and 10,000-route sets the router was ~5–10 % slower
   * with it. Small tables have their static paths in the generated front's `switch` either way.
   */
  staticMap?: boolean;
  /**
   * Answer small tables (up to 16 dynamic routes per method, simple patterns) with JavaScript generated
   * from the engine's route list (default `true`; see `engine/compiled-engine.ts`): on a dozen routes the
   * cost of entering WebAssembly alone exceeds a generated matcher's whole lookup. The engine still
   * validates and owns every route. Applies to the default engine only; `false` sends every lookup that
   * the static map does not answer to the WebAssembly engine.
   */
  compiled?: boolean;
  /**
   * Called when a new route can never be chosen for some method because an earlier one matches every
   * path it matches (SPEC §3.2). Default: a process warning (`ARBOR_ROUTE_SHADOWED`) naming both.
   */
  onShadowed?: (route: RouteInfo, by: RouteInfo) => void;
}

function warnShadowed(route: RouteInfo, by: RouteInfo): void {
  process.emitWarning(
    `${route.methods.join(',')} ${route.pattern} can never match: the earlier route ${by.pattern} ` +
      'matches every path it matches (definition order)',
    { code: 'ARBOR_ROUTE_SHADOWED' },
  );
}

/** A successful lookup. `params` holds percent-decoded values; `captures` the regex block's groups. */
export interface RouteMatch<T> {
  readonly value: T;
  /** The id of the matched route (index into {@link Router.routes}). */
  readonly id: number;
  readonly params: Readonly<Record<string, string>>;
  readonly captures: readonly (string | undefined)[];
  /** True when a parameter value carries a malformed percent-escape (`%zz`): the framework answers 400.
   * Such values are left undecoded. `find()` itself never throws on any path. */
  readonly malformed: boolean;
}

interface RouteShape {
  names: string[];
  captures: number;
  /** Fast path allowed: every parameter is always present (no optional parameter). */
  fixed: boolean;
  build: ParamsBuilder;
}

/**
 * One static path's matches, one per method, as a short list: keyed by path alone, the map costs one
 * probe per lookup (a miss is what every dynamic request pays) instead of one per method and one per path.
 */
interface StaticEntry<T> {
  method: string;
  match: RouteMatch<T>;
  next: StaticEntry<T> | null;
}

function staticHit<T>(
  statics: Map<string, StaticEntry<T>>,
  method: string,
  path: string,
): RouteMatch<T> | undefined {
  for (let entry: StaticEntry<T> | null | undefined = statics.get(path); entry; entry = entry.next) {
    if (entry.method === method) return entry.match;
  }
  return undefined;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
const NO_CAPTURES: readonly (string | undefined)[] = Object.freeze([]);

/**
 * The standalone router: register patterns with any value, find them again. Embeddable in any Node
 * server, like find-my-way.
 *
 * @example
 * const router = new Router<string>();
 * router.add('GET', '/tasks/:id<int>', 'show task');
 * router.find('GET', '/tasks/42'); // { value: 'show task', params: { id: '42' }, captures: [], … }
 */
export class Router<T> {
  readonly #engine: Engine;
  /** The engine behind the generated front (the same as {@link #engine} when there is no front). */
  readonly #inner: Engine;
  /** The engine lookups call: the generated front while it answers the table, else the engine itself
   * (one call layer fewer on big tables). Chosen again after every registration. */
  #lookupEngine: Engine;
  readonly #values: T[] = [];
  readonly #shapes: RouteShape[] = [];
  /** The generated front of the engine, when it is used (see {@link RouterOptions.compiled}). */
  readonly #front: CompiledEngine | null;
  /** Exact static path → its (frozen, shared) matches by method; `null` when disabled. */
  readonly #staticMap: Map<string, StaticEntry<T>> | null;
  /** The map the lookups consult: {@link #staticMap}, or `null` while the generated front answers the
   * table (it has the static paths in a `switch`: asking a `Map` first would only cost). */
  #statics: Map<string, StaticEntry<T>> | null = null;
  /** Route id → the frozen, shared match of a static route (it has no parameters). */
  readonly #staticMatches: RouteMatch<T>[] = [];
  /** Static routes registered since the last lookup. They enter the map on the next lookup, in one
   * batch: asking the engine right after each insert would make it recompile its lookup tables n times. */
  #pendingStatics: RouteInfo[] = [];
  /** False after a registration: the next lookup prepares the static map and the front first. */
  #ready = false;
  /** Params builders by parameter-name list: generating code per route would dominate registration. */
  readonly #builders = new Map<string, ParamsBuilder>();
  readonly #onShadowed: (route: RouteInfo, by: RouteInfo) => void;

  constructor(options: RouterOptions = {}) {
    const {
      engine = createWasmEngine,
      staticMap = false,
      compiled = true,
      snapshot,
      onShadowed = warnShadowed,
      ...engineOptions
    } = options;
    this.#onShadowed = onShadowed;
    const inner = snapshot === undefined ? engine(engineOptions) : createWasmEngineFromSnapshot(snapshot);
    const front = compiled && options.engine === undefined && engineOptions.order !== 'specificity';
    this.#front = front ? new CompiledEngine(inner, engineOptions) : null;
    this.#inner = inner;
    this.#engine = this.#front ?? inner;
    this.#lookupEngine = inner;
    this.#staticMap = staticMap ? new Map() : null;
  }

  /** The compiled table as bytes (versioned, checksummed), for the route cache. */
  snapshot(): Uint8Array {
    const engine = this.#engine as Engine & { serialize?(): Uint8Array };
    if (engine.serialize === undefined) throw new Error('this engine cannot take snapshots');
    return engine.serialize();
  }

  /**
   * Attaches a value to route `id` of a router built from a snapshot, in place of {@link add}: nothing is
   * parsed or compiled. The caller guarantees (by fingerprint) that the snapshot holds the same routes.
   */
  attach(id: number, value: T): RouteInfo {
    const info = this.#engine.route(id);
    if (info === undefined) throw new RangeError(`the snapshot has no route ${id}`);
    this.#remember(info, value);
    return info;
  }

  /** Registers `pattern` for one method or several. Throws a `RouteError` on a malformed pattern or a
   * conflict. Returns the engine's metadata for the new route. */
  add(method: string | readonly string[], pattern: string, value: T): RouteInfo {
    const methods = (typeof method === 'string' ? [method] : method).map((m) => m.toUpperCase());
    const { id } = this.#engine.insert(methods, pattern);
    const info = this.#engine.route(id);
    if (info === undefined) throw new Error(`the engine did not report route ${id}`);
    this.#remember(info, value);
    const by = info.shadowedBy === null ? undefined : this.#engine.route(info.shadowedBy);
    if (by !== undefined) this.#onShadowed(info, by);
    return info;
  }

  #remember(info: RouteInfo, value: T): void {
    const id = info.id;
    this.#values[id] = value;
    const names = info.params.map((p) => p.name);
    const key = names.join('\u0000');
    let build = this.#builders.get(key);
    if (build === undefined) {
      build = compileParamsBuilder(names);
      this.#builders.set(key, build);
    }
    this.#shapes[id] = {
      names,
      captures: info.captures,
      fixed: info.params.every((p) => !p.optional) && info.captures === 0,
      build,
    };
    if (info.isStatic) {
      this.#staticMatches[id] = Object.freeze({
        value,
        id,
        params: NO_PARAMS,
        captures: NO_CAPTURES,
        malformed: false,
      });
      if (this.#staticMap !== null) this.#pendingStatics.push(info);
    }
    this.#ready = false;
  }

  /** Brings the static map up to date and decides whether the lookups consult it. */
  #prepare(): void {
    if (this.#staticMap !== null && this.#pendingStatics.length > 0) this.#fillStaticMap(this.#staticMap);
    const compiled = this.#front?.compiled === true;
    this.#statics = compiled ? null : this.#staticMap;
    this.#lookupEngine = compiled ? (this.#front as CompiledEngine) : this.#inner;
    this.#ready = true;
  }

  /**
   * Moves pending static routes into the map, each under the answer the engine itself gives for its
   * path — so the map can never disagree with the engine. A later registration cannot change these
   * answers: an exact static route beats everything, and registering it twice is a conflict.
   */
  #fillStaticMap(statics: Map<string, StaticEntry<T>>): void {
    const pending = this.#pendingStatics;
    this.#pendingStatics = [];
    for (const { id, methods, pattern } of pending) {
      for (const method of methods) {
        if (this.#engine.lookup(method, pattern) !== id) continue;
        const match = this.#staticMatches[id];
        if (match === undefined) continue;
        const path = this.#engine.matchedPath;
        statics.set(path, { method, match, next: statics.get(path) ?? null });
      }
    }
  }

  setName(id: number, name: string): void {
    this.#engine.setName(id, name);
  }

  /** Selection only: the route id for a request, or -1. */
  lookup(method: string, path: string): number {
    if (!this.#ready) this.#prepare();
    const statics = this.#statics;
    if (statics !== null) {
      const hit = staticHit(statics, method, path);
      if (hit !== undefined) return hit.id;
    }
    return this.#lookupEngine.lookup(method, path);
  }

  /** Finds the route for a request. `path` may carry a query string (ignored). Never throws. */
  find(method: string, path: string): RouteMatch<T> | null {
    if (!this.#ready) this.#prepare();
    const statics = this.#statics;
    if (statics !== null) {
      const hit = staticHit(statics, method, path);
      if (hit !== undefined) return hit;
    }
    const engine = this.#lookupEngine;
    const id = engine.lookup(method, path);
    if (id === NOT_FOUND) return null;
    const fixed = this.#staticMatches[id];
    if (fixed !== undefined) return fixed;
    const shape = this.#shapes[id];
    if (shape === undefined) return null;
    const source = engine.matchedPath;
    const spans = engine.spans;
    if (shape.fixed && (engine.plainValues === true || !source.includes('%'))) {
      const params = shape.build(spans, source);
      return { value: this.#values[id] as T, id, params, captures: NO_CAPTURES, malformed: false };
    }
    const { params, malformed } = readParams(shape.names, spans, source);
    let capturesMalformed = false;
    const captures: (string | undefined)[] = [];
    for (let i = 0; i < shape.captures; i++) {
      const raw = readSpan(spans, shape.names.length + i, source);
      const decoded = raw === undefined ? undefined : decode(raw);
      if (decoded === null) capturesMalformed = true;
      captures.push(decoded ?? raw);
    }
    return { value: this.#values[id] as T, id, params, captures, malformed: malformed || capturesMalformed };
  }

  /** Every method that has a route matching `path` (for 405 `Allow` and automatic OPTIONS). */
  allowedMethods(path: string): string[] {
    return this.#engine.allowedMethods(path);
  }

  /** Route metadata, in definition order. */
  routes(): RouteInfo[] {
    return this.#engine.routes();
  }
}

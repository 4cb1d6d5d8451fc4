import {
  type Engine,
  type EngineOptions,
  ESCAPED,
  ROUTE_ID,
  type RouteInfo,
  type RouteShape,
} from '../engine/engine.js';
import { createWasmEngine, createWasmEngineFromSnapshot } from '../engine/wasm-engine.js';
import { type GeneratedFind, GeneratedFront } from './generated-front.js';
import {
  answerCode,
  type EngineMatcher,
  entryMatcher,
  FIXED_SHAPE,
  fixedMatch,
  MAX_SWITCH_SHAPES,
  type MatchColumns,
  type MatchMaker,
  matchMaker,
  OWN_SHAPE,
  type RouteMatch,
  type RouteSelection,
  readMatch,
  selectionCode,
  shapeSwitch,
} from './match-builder.js';

export type { RouteMatch, RouteSelection } from './match-builder.js';

export interface RouterOptions extends EngineOptions {
  /** Start from a compiled table (`Router#snapshot()` bytes) instead of an empty one: registration then
   * attaches values with {@link Router.attach} instead of compiling patterns. Pass the `order` and
   * `trailingSlash` the snapshot was taken with (the snapshot keeps its own; the router reads these). */
  snapshot?: Uint8Array;
  /** The engine to use; defaults to the WebAssembly engine. Tests pass the reference engine. */
  engine?: (options: EngineOptions) => Engine;
  /**
   * Answer small tables (up to 16 dynamic routes per method, simple patterns) with JavaScript generated
   * from the engine's route list (default `true`; see `engine/generated-front.ts`): on a dozen routes the
   * cost of entering WebAssembly alone exceeds a generated matcher's whole lookup. The engine still
   * validates and owns every route. Applies to the default engine only.
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
  /** Registration, metadata and snapshots. */
  readonly #engine: Engine;
  /** The generated front of a small table, when lookups may go to one ({@link RouterOptions.compiled}). */
  readonly #front: GeneratedFront<RouteMatch<T>> | null;
  /** Lookups in the engine; also what the generated find leaves to it. */
  readonly #fallback = (method: string, path: string) => this.#findInEngine(method, path);
  /** The first lookup after a change: chooses how lookups are answered (`#commit`), then answers. */
  readonly #commitAndFind = (method: string, path: string) => this.#commit()(method, path);
  /** {@link select}'s engine lookup, and what its generated find leaves to the engine. */
  readonly #selectFallback = (method: string, path: string) => this.#selectInEngine(method, path);
  /** The first {@link select} after a change, as {@link #commitAndFind} is for {@link find}. */
  readonly #commitAndSelect = (method: string, path: string) => this.#commitSelect()(method, path);
  /** Route id → its {@link RouteSelection}, made at the first {@link select} for the routes added
   * before it: a router that never selects holds none. */
  readonly #selections: RouteSelection<T>[] = [];
  /** Route id → everything a lookup needs to answer with that route: each route's entry, and the fields
   * every engine answer reads as dense columns. */
  readonly #table: MatchColumns<T> = { entries: [], values: [], cases: [], fixed: [] };
  /** Match builders by parameter-name list: generating code per route would dominate registration. */
  readonly #makers = new Map<string, MatchMaker<unknown>>();
  /** Shape index ({@link MatchColumns.cases}) by parameter-name list, and the lists by index. */
  readonly #shapeIndex = new Map<string, number>();
  readonly #shapes: (readonly string[])[] = [];
  /** Builds the match of every engine answer: the {@link shapeSwitch} of the shapes so far, rebuilt at
   * the commit that follows a new shape, and so before the first lookup. */
  #build: EngineMatcher<T> = entryMatcher(this.#table);
  #buildShapes = -1;
  readonly #onShadowed: (route: RouteInfo, by: RouteInfo) => void;

  /**
   * Finds the route for a request. `path` may carry a query string (ignored). Never throws.
   *
   * A property, not a method: after the first lookup that follows a change it is the function that
   * answers (the generated find of a small table, or the engine lookup), with no call layer in front of
   * it (0.2–4 ns per lookup; docs/PERFORMANCE.md).
   */
  find: (method: string, path: string) => RouteMatch<T> | null = this.#commitAndFind;

  /**
   * Finds the route for a request without reading its parameter values: the route's value and id, the
   * same frozen object on every call, or `null`. The route is always {@link find}'s; what it skips is
   * slicing and decoding the values (so it cannot report a malformed one: use {@link find} when the
   * values matter). For code that only needs to know which route a request takes (dispatch tables,
   * access rules, metrics by route), like rou3's `findRoute(…, { params: false })`. Never throws.
   *
   * @example
   * router.select('GET', '/tasks/42'); // { value: 'show task', id: 0 }
   */
  select: (method: string, path: string) => RouteSelection<T> | null = this.#commitAndSelect;

  constructor(options: RouterOptions = {}) {
    const {
      engine = createWasmEngine,
      compiled = true,
      snapshot,
      onShadowed = warnShadowed,
      ...engineOptions
    } = options;
    this.#onShadowed = onShadowed;
    this.#engine = snapshot === undefined ? engine(engineOptions) : createWasmEngineFromSnapshot(snapshot);
    this.#front =
      compiled && options.engine === undefined
        ? new GeneratedFront(
            this.#engine,
            engineOptions,
            () => answerCode(this.#table.entries),
            this.#fallback,
          )
        : null;
  }

  /** The compiled table as bytes (versioned, checksummed), for the route cache. Throws for an engine
   * without snapshots (a custom {@link RouterOptions.engine}). */
  snapshot(): Uint8Array {
    const snapshots = this.#engine.snapshots;
    if (snapshots === null) throw new Error('this engine cannot take snapshots');
    return snapshots.serialize();
  }

  /**
   * Attaches `values[id]` to each route of a router built from a snapshot, in place of {@link add}:
   * nothing is parsed or compiled, and the engine is asked once for all routes. The caller guarantees (by
   * fingerprint) that the snapshot holds the same routes. Throws a `RangeError` when it holds another
   * number of routes than there are values.
   */
  attach(values: readonly T[]): RouteShape[] {
    const snapshots = this.#engine.snapshots;
    if (snapshots === null) throw new Error('this engine cannot load snapshots');
    const shapes = snapshots.shapes();
    if (shapes.length !== values.length)
      throw new RangeError(`the snapshot holds ${shapes.length} routes, ${values.length} values were given`);
    // The shapes share their parameter-name lists (one array per distinct list): each list's shape index
    // is worked out once, not once per route.
    const byList = new Map<readonly string[], number>();
    for (const shape of shapes) this.#remember(shape, values[shape.id] as T, byList);
    return shapes;
  }

  /**
   * Registers `pattern` for one method or several. Throws a `RouteError` on a malformed pattern or a
   * conflict. Returns the new route's shape: its id, methods and parameter names, and the route that
   * shadows it, if any. Its whole metadata (template, constraints, pieces) is {@link route}'s, read when
   * something asks for it rather than on every registration.
   */
  add(method: string | readonly string[], pattern: string, value: T): RouteShape {
    const methods = (typeof method === 'string' ? [method] : method).map((m) => m.toUpperCase());
    const shape = this.#engine.insert(methods, pattern);
    this.#remember(shape, value);
    if (shape.shadowedBy !== null) {
      const route = this.#engine.route(shape.id);
      const by = this.#engine.route(shape.shadowedBy);
      if (route !== undefined && by !== undefined) this.#onShadowed(route, by);
    }
    return shape;
  }

  #remember(shape: RouteShape, value: T, byList?: Map<readonly string[], number>): void {
    const { id, names, captures, hasOptional } = shape;
    const fixed = names.length === 0 && captures === 0 ? fixedMatch(value, id) : null;
    const index =
      fixed !== null
        ? FIXED_SHAPE
        : hasOptional || captures > 0
          ? OWN_SHAPE
          : (byList?.get(names) ?? this.#shapeOf(names, byList));
    const table = this.#table;
    table.entries[id] = {
      value,
      id,
      names,
      captures,
      fixed,
      // A shape with a case in the switch never calls its own builder: generate one only for the others.
      make: index >= 0 ? readMatch : matchMaker<T>(names, captures, hasOptional, this.#makers),
    };
    table.values[id] = value;
    table.cases[id] = index;
    table.fixed[id] = fixed;
    this.#front?.add(shape);
    this.find = this.#commitAndFind;
    this.select = this.#commitAndSelect;
  }

  /** The shape index of a parameter-name list, or {@link OWN_SHAPE} past {@link MAX_SWITCH_SHAPES};
   * `byList`, when given, keeps the answer for the list itself. */
  #shapeOf(names: readonly string[], byList?: Map<readonly string[], number>): number {
    const key = names.join('\u0000');
    let index = this.#shapeIndex.get(key);
    if (index === undefined) {
      if (this.#shapes.length >= MAX_SWITCH_SHAPES) index = OWN_SHAPE;
      else {
        index = this.#shapes.length;
        this.#shapes.push(names);
        this.#shapeIndex.set(key, index);
      }
    }
    byList?.set(names, index);
    return index;
  }

  setName(id: number, name: string): void {
    this.#engine.setName(id, name);
  }

  #findInEngine(method: string, path: string): RouteMatch<T> | null {
    const engine = this.#engine;
    const answer = engine.lookup(method, path);
    if (answer < 0) return null;
    // The engine says whether the path holds a `%`: only then may a value need decoding.
    if (answer < ESCAPED) return this.#build(answer, engine.spans, engine.matchedPath);
    const entry = this.#table.entries[answer & ROUTE_ID];
    return entry === undefined ? null : readMatch(entry, engine.spans, engine.matchedPath);
  }

  #selectInEngine(method: string, path: string): RouteSelection<T> | null {
    const answer = this.#engine.lookup(method, path);
    return answer < 0 ? null : (this.#selections[answer & ROUTE_ID] ?? null);
  }

  /** {@link #commit} for {@link select}: the selections of the routes added since the last one, then the
   * generated find of a small table answering with them, or the engine. */
  #commitSelect(): GeneratedFind<RouteSelection<T>> {
    const selections = this.#selections;
    const values = this.#table.values;
    for (let id = selections.length; id < values.length; id++) {
      selections.push(Object.freeze({ value: values[id] as T, id }));
    }
    this.select =
      this.#front?.commitWith(() => selectionCode(selections), this.#selectFallback) ?? this.#selectFallback;
    return this.select;
  }

  /** Chooses how lookups are answered until the next change: by the generated find of a small table
   * ({@link GeneratedFront}) or by the engine. It becomes {@link find} itself, so that a lookup makes no
   * call on the way to it. */
  #commit(): GeneratedFind<RouteMatch<T>> {
    if (this.#buildShapes !== this.#shapes.length) {
      this.#build = shapeSwitch(this.#shapes, this.#table);
      this.#buildShapes = this.#shapes.length;
    }
    this.find = this.#front?.commit() ?? this.#fallback;
    return this.find;
  }

  /** Every method that has a route matching `path` (for 405 `Allow` and automatic OPTIONS). */
  allowedMethods(path: string): string[] {
    return this.#engine.allowedMethods(path);
  }

  /** Route metadata, in definition order. */
  routes(): RouteInfo[] {
    return this.#engine.routes();
  }

  /** One route's metadata by id (the id {@link add} answered), or `undefined` for an unknown id. */
  route(id: number): RouteInfo | undefined {
    return this.#engine.route(id);
  }
}

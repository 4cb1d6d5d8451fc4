import {
  createWasmEngine,
  createWasmEngineFromSnapshot,
  type Engine,
  type EngineOptions,
  ESCAPED,
  ROUTE_ID,
  type RouteInfo,
  type RouteShape,
} from '../engine/index.js';
import type { GeneratedFind } from './compiled-table.js';
import { GeneratedFront } from './generated-front.js';
import {
  answerCode,
  type EngineMatcher,
  entryMatcher,
  type MatchColumns,
  type RouteMatch,
  type RouteSelection,
  readMatch,
  selectionCode,
} from './match-builder.js';
import { MatchTable } from './match-table.js';

export type { RouteMatch, RouteSelection } from './match-builder.js';

/**
 * Options of a standalone {@link Router}: the engine's matching options, and where its table comes from.
 *
 * @example
 * const router = new Router<string>({ order: 'specificity' });
 */
export interface RouterOptions extends EngineOptions {
  /** Start from a compiled table (`Router#snapshot()` bytes) instead of an empty one: registration then
   * attaches values with {@link Router.attach} instead of compiling patterns. Pass the `order` and
   * `trailingSlash` the snapshot was taken with (the snapshot keeps its own; the router reads these). */
  snapshot?: Uint8Array;
  /** The engine to use; defaults to the WebAssembly engine. Tests pass the reference engine. */
  engine?: (options: EngineOptions) => Engine;
  /**
   * Answer small tables (up to 16 dynamic routes per method, simple patterns) with JavaScript generated
   * from the engine's route list (default `true`; see `generated-front.ts`): on a dozen routes the
   * cost of entering WebAssembly alone exceeds a generated matcher's whole lookup. The engine still
   * validates and owns every route. Applies to the default engine only.
   */
  compiled?: boolean;
  /**
   * Called when a new route can never be chosen for some method because an earlier one matches every
   * path it matches (ROUTING.md §3.2). Default: a process warning (`ARBOR_ROUTE_SHADOWED`) naming both.
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
  /** What lookups answer with, route by route. */
  readonly #table = new MatchTable<T>();
  /** Where the table is built for serving, and which {@link find} and {@link select} answer. */
  readonly #commit: CommitPoint<T>;
  readonly #onShadowed: (route: RouteInfo, by: RouteInfo) => void;

  /**
   * Finds the route for a request. `path` may carry a query string (ignored). Never throws.
   *
   * A property, not a method: after the first lookup that follows a change it is the function that
   * answers (the generated find of a small table, or the engine lookup), with no call layer in front of
   * it.
   */
  find: (method: string, path: string) => RouteMatch<T> | null;

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
  select: (method: string, path: string) => RouteSelection<T> | null;

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
    const front = GeneratedFront.for(this.#engine, {
      ...engineOptions,
      compiled,
      customEngine: options.engine !== undefined,
    });
    const commit = new CommitPoint(this.#engine, this.#table, front, this);
    this.#commit = commit;
    this.find = commit.commitAndFind;
    this.select = commit.commitAndSelect;
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
    for (const shape of shapes) {
      this.#table.add(shape, values[shape.id] as T, byList);
      this.#commit.added(shape);
    }
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
    this.#table.add(shape, value);
    this.#commit.added(shape);
    if (shape.shadowedBy !== null) {
      const route = this.#engine.route(shape.id);
      const by = this.#engine.route(shape.shadowedBy);
      if (route !== undefined && by !== undefined) this.#onShadowed(route, by);
    }
    return shape;
  }

  /** Names the route `id` (as `add()` returned it), so {@link routes} and `route(id)` report the name. */
  setName(id: number, name: string): void {
    this.#engine.setName(id, name);
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

/** What a {@link CommitPoint} fills: the router's own {@link Router.find} and {@link Router.select}. */
interface LookupSlots<T> {
  find: (method: string, path: string) => RouteMatch<T> | null;
  select: (method: string, path: string) => RouteSelection<T> | null;
}

/**
 * The commit point between registration and serving, and the one owner of how a router's lookups are
 * answered. After any registration the router's `find` and `select` are {@link commitAndFind} and
 * {@link commitAndSelect}: the first lookup commits — builds what the table needs for serving (the shape
 * switch of engine answers, the selections, the generated find when the {@link GeneratedFront} takes the
 * table), installs the chosen lookup in the router's slot — and answers. Later lookups call that function
 * directly, with no layer in front of it.
 *
 * It lives in the router's module, not one of its own, so that the engine lookups below are this module's
 * functions: the router benchmark loads one copy of this module per router variant, to keep each
 * variant's type feedback apart.
 */
class CommitPoint<T> {
  readonly #engine: Engine;
  readonly #table: MatchTable<T>;
  readonly #columns: MatchColumns<T>;
  /** The generated front, when a table of this router may be answered by one. */
  readonly #front: GeneratedFront | null;
  readonly #slots: LookupSlots<T>;
  /** Route id → its {@link RouteSelection}, made at the first select for the routes added before it: a
   * router that never selects holds none. */
  readonly #selections: RouteSelection<T>[] = [];
  /** Builds the match of every engine answer: the table's {@link MatchTable.matcher} as of the last commit. */
  #build: EngineMatcher<T>;

  /** Lookups in the engine; also what the generated find leaves to it. */
  readonly #findInEngine = (method: string, path: string) => this.#engineMatch(method, path);
  /** The select of the engine, and what its generated find leaves to the engine. */
  readonly #selectInEngine = (method: string, path: string) => this.#engineSelection(method, path);
  /** How the generated find answers with the router's matches. */
  readonly #answers = () => answerCode(this.#columns.entries);
  /** The first find after a change: commits, then answers. */
  readonly commitAndFind = (method: string, path: string) => this.#commitFind()(method, path);
  /** The first select after a change, as {@link commitAndFind} is for find. */
  readonly commitAndSelect = (method: string, path: string) => this.#commitSelect()(method, path);

  constructor(engine: Engine, table: MatchTable<T>, front: GeneratedFront | null, slots: LookupSlots<T>) {
    this.#engine = engine;
    this.#table = table;
    this.#columns = table.columns;
    this.#front = front;
    this.#slots = slots;
    this.#build = entryMatcher(table.columns);
  }

  /** A route was added: the front counts it, and the next find and select commit again. */
  added(shape: RouteShape): void {
    this.#front?.add(shape);
    this.#slots.find = this.commitAndFind;
    this.#slots.select = this.commitAndSelect;
  }

  /** Chooses how finds are answered until the next change: by the generated find of a small table or by
   * the engine. It becomes the router's find itself, so that a lookup makes no call on the way to it. */
  #commitFind(): GeneratedFind<RouteMatch<T>> {
    this.#build = this.#table.matcher();
    const find = this.#front?.compile(this.#answers, this.#findInEngine) ?? this.#findInEngine;
    this.#slots.find = find;
    return find;
  }

  /** {@link #commitFind} for select: the selections of the routes added since the last one, then the
   * generated find of a small table answering with them, or the engine. */
  #commitSelect(): GeneratedFind<RouteSelection<T>> {
    const selections = this.#selections;
    const values = this.#columns.values;
    for (let id = selections.length; id < values.length; id++) {
      selections.push(Object.freeze({ value: values[id] as T, id }));
    }
    const select =
      this.#front?.compile(() => selectionCode(selections), this.#selectInEngine) ?? this.#selectInEngine;
    this.#slots.select = select;
    return select;
  }

  #engineMatch(method: string, path: string): RouteMatch<T> | null {
    const engine = this.#engine;
    const answer = engine.lookup(method, path);
    if (answer < 0) return null;
    // The engine says whether the path holds a `%`: only then may a value need decoding.
    if (answer < ESCAPED) return this.#build(answer, engine.spans, engine.matchedPath);
    const entry = this.#columns.entries[answer & ROUTE_ID];
    return entry === undefined ? null : readMatch(entry, engine.spans, engine.matchedPath);
  }

  #engineSelection(method: string, path: string): RouteSelection<T> | null {
    const answer = this.#engine.lookup(method, path);
    return answer < 0 ? null : (this.#selections[answer & ROUTE_ID] ?? null);
  }
}

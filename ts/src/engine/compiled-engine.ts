/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine.
 *
 * Why: a lookup in WebAssembly pays a fixed toll — copying the path into wasm memory and crossing the
 * boundary, ~60–80 ns on Node 24 (docs/ARCHITECTURE.md) — before the walk starts. On a table of a dozen
 * routes the best JavaScript routers (rou3's and find-my-way's compiled modes) answer a dynamic path in
 * about that time, so the toll alone loses. For such tables this module generates one JavaScript function
 * from the engine's own route list, the way those routers do; on real tables (hundreds of routes) the
 * wasm walk wins and the generated function is not used.
 *
 * Who decides: the wasm engine stays the single source of truth. It parses and validates every pattern,
 * detects conflicts, owns the metadata and answers every table or path this module does not take:
 * - only definition order, and only tables of at most 16 dynamic routes and 64 static paths per method
 *   (`MAX_DYNAMIC_ROUTES`, `MAX_STATIC_PATHS`);
 * - only patterns made of static text, whole-segment parameters without constraint or `?`, and a
 *   trailing `*` (anything else — constraints, several parameters in one segment, regex blocks — keeps
 *   the whole table on the wasm engine);
 * - static text without `%` (a pattern with non-ASCII text is stored percent-encoded and must meet the
 *   request's encoded form, which only the wasm engine's encoding step produces);
 * - a match whose path has a non-ASCII character goes to the wasm engine, which percent-encodes it first
 *   (a malformed value is reported undecoded, so the encoded text is part of the answer). Static text
 *   cannot meet such a character, so only dynamic matches need the check.
 *
 * - a path with a query string or fragment goes to the wasm engine, which cuts them off (the framework
 *   passes paths without them).
 *
 * The rules are the engine's (SPEC §3, §3.1): exact static routes first, then dynamic routes in
 * definition order; a parameter is one non-empty segment; when nothing matches, one trailing slash is
 * removed or added and the lookup repeated, never for `/`. The differential test
 * (`tests/router/compiled-engine.test.ts`) holds the two to the same answers. The generator is
 * `compiled-table.ts`.
 */
import { compileTable, type Lookup } from './compiled-table.js';
import { type Engine, type Inserted, NOT_FOUND, type Order, type RouteInfo } from './engine.js';

export { MAX_DYNAMIC_ROUTES, MAX_STATIC_PATHS } from './compiled-table.js';

const SPANS_CAPACITY = 64;
/** Tables with more routes than this stay on the wasm engine whatever their shape (the front takes at most
 * 16 dynamic routes and 64 static paths per method, so this only gives up tables of many methods). */
const MAX_TABLE_ROUTES = 512;

/**
 * The WebAssembly engine with small tables answered by generated JavaScript (see the module comment).
 * Registration, metadata and everything the generated code does not take go to `inner`.
 */
export class CompiledEngine implements Engine {
  readonly #inner: Engine;
  readonly #trailingSlash: boolean;
  readonly #order: Order;
  readonly #spans = new Uint32Array(SPANS_CAPACITY);
  /** `undefined`: the table changed since the last compilation; `null`: not a table we take. */
  #lookup: Lookup | null | undefined;
  spans: ArrayLike<number> = this.#spans;
  matchedPath = '';

  constructor(inner: Engine, options: { trailingSlash?: boolean; order?: Order } = {}) {
    this.#inner = inner;
    this.#trailingSlash = options.trailingSlash ?? true;
    this.#order = options.order ?? 'definition';
    this.#lookup = undefined;
  }

  /** Whether the current table is answered by generated code (for tests and the benchmarks). */
  get compiled(): boolean {
    return this.#compile() !== null;
  }

  insert(methods: readonly string[], pattern: string): Inserted {
    const inserted = this.#inner.insert(methods, pattern);
    this.#lookup = undefined;
    return inserted;
  }

  setName(id: number, name: string): void {
    this.#inner.setName(id, name);
  }

  lookup(method: string, path: string): number {
    const lookup = this.#lookup === undefined ? this.#compile() : this.#lookup;
    if (lookup !== null) {
      let matched = path;
      let id = lookup(method, path, this.#spans);
      if (id === -3) {
        // The trailing-slash retry that adds a slash: the spans index into the longer path.
        matched = `${path}/`;
        id = lookup(method, matched, this.#spans);
        if (id === -3) id = NOT_FOUND;
      }
      if (id >= NOT_FOUND) {
        this.spans = this.#spans;
        this.matchedPath = matched;
        return id;
      }
    }
    const id = this.#inner.lookup(method, path);
    this.spans = this.#inner.spans;
    this.matchedPath = this.#inner.matchedPath;
    return id;
  }

  #compile(): Lookup | null {
    if (this.#lookup !== undefined) return this.#lookup;
    // A big table is declined without reading its route list: the list, once read, stays cached in the
    // engine (measured: ~13 MiB of JavaScript objects for 10,000 routes, for a table the front never takes).
    const small = this.#order === 'definition' && this.#inner.route(MAX_TABLE_ROUTES) === undefined;
    this.#lookup = small ? compileTable(this.#inner.routes(), this.#trailingSlash) : null;
    return this.#lookup;
  }

  allowedMethods(path: string): string[] {
    return this.#inner.allowedMethods(path);
  }

  routes(): RouteInfo[] {
    return this.#inner.routes();
  }

  route(id: number): RouteInfo | undefined {
    return this.#inner.route(id);
  }

  serialize(): Uint8Array {
    const inner = this.#inner as Engine & { serialize?(): Uint8Array };
    if (inner.serialize === undefined) throw new Error('this engine cannot take snapshots');
    return inner.serialize();
  }
}

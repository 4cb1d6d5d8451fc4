/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine, and the one place
 * that decides whether lookups go to it or to the engine ({@link commitLookups}).
 *
 * Why: a lookup in WebAssembly pays a fixed toll (copying the path into wasm memory and crossing the
 * boundary; docs/PERFORMANCE.md) before the walk starts. On a table of a dozen routes the best JavaScript
 * routers answer a dynamic path in about that time, so for such tables one JavaScript function is
 * generated from the engine's own route list (`compiled-table.ts`), the way rou3's and find-my-way's
 * compiled modes do. On real tables (hundreds of routes) the wasm walk is the engine.
 *
 * The wasm engine stays the single source of truth: it parses and validates every pattern, detects
 * conflicts, owns the metadata, and answers every table and path the front does not take:
 * - only definition order, and only tables of at most 16 dynamic routes and 64 static paths per method
 *   (`MAX_DYNAMIC_ROUTES`, `MAX_STATIC_PATHS`);
 * - only patterns made of static text, whole-segment parameters without constraint or `?`, and a
 *   trailing `*` (anything else keeps the whole table on the engine);
 * - static text without `%` (a pattern with non-ASCII text is stored percent-encoded and must meet the
 *   request's encoded form, which only the engine's encoding step produces);
 * - a match whose path has a non-ASCII character, a query string or a fragment goes to the engine, which
 *   percent-encodes the path or cuts them off first.
 *
 * The rules are the engine's: exact static routes first, then dynamic routes in definition order; a
 * parameter is one non-empty segment; when nothing matches, one trailing slash is removed or added and
 * the lookup repeated, never for `/`. `tests/router/generated-front.test.ts` holds the two to the same
 * answers.
 */
import { compileTable, type Lookup } from './compiled-table.js';
import { type Engine, type Lookups, NOT_FOUND, type Order } from './engine.js';

export { MAX_DYNAMIC_ROUTES, MAX_STATIC_PATHS } from './compiled-table.js';

const SPANS_CAPACITY = 64;
/** Tables with more routes than this stay on the engine whatever their shape (the front takes at most 16
 * dynamic routes and 64 static paths per method, so this only gives up tables of many methods) and are
 * declined without reading their route list, which would stay cached in the engine for nothing. */
const MAX_TABLE_ROUTES = 512;

export interface FrontOptions {
  order?: Order;
  trailingSlash?: boolean;
}

/**
 * The commit point between registration and serving. A router calls it on its first lookup after the
 * table changed and calls what it returns until the next change: a generated front when one takes the
 * table, else the engine itself (so big tables pay no extra call layer).
 */
export function commitLookups(engine: Engine, options: FrontOptions = {}): Lookups {
  if ((options.order ?? 'definition') !== 'definition') return engine;
  if (engine.route(MAX_TABLE_ROUTES) !== undefined) return engine;
  const lookup = compileTable(engine.routes(), options.trailingSlash ?? true);
  return lookup === null ? engine : new GeneratedFront(engine, lookup);
}

/** The generated lookup, falling back to the engine for what it leaves (see the module comment). */
class GeneratedFront implements Lookups {
  readonly #engine: Engine;
  readonly #lookup: Lookup;
  readonly #spans = new Uint32Array(SPANS_CAPACITY);
  spans: ArrayLike<number> = this.#spans;
  matchedPath = '';

  constructor(engine: Engine, lookup: Lookup) {
    this.#engine = engine;
    this.#lookup = lookup;
  }

  lookup(method: string, path: string): number {
    let matched = path;
    let id = this.#lookup(method, path, this.#spans);
    if (id === -3) {
      // The trailing-slash retry that adds a slash: the spans index into the longer path.
      matched = `${path}/`;
      id = this.#lookup(method, matched, this.#spans);
      if (id === -3) id = NOT_FOUND;
    }
    if (id >= NOT_FOUND) {
      this.spans = this.#spans;
      this.matchedPath = matched;
      return id;
    }
    const engine = this.#engine;
    const answer = engine.lookup(method, path);
    this.spans = engine.spans;
    this.matchedPath = engine.matchedPath;
    return answer;
  }
}

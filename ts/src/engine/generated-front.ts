/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine, and the one place
 * that decides whether lookups go to it or to the engine ({@link commitFront}).
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
import {
  type AnswerCode,
  compileTable,
  type GeneratedFind,
  MAX_DYNAMIC_ROUTES,
  MAX_STATIC_PATHS,
} from './compiled-table.js';
import type { Engine, Order, RouteShape } from './engine.js';

export type { AnswerCode, GeneratedFind } from './compiled-table.js';
export { MAX_DYNAMIC_ROUTES, MAX_STATIC_PATHS } from './compiled-table.js';

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
 * table changed and uses its answer until the next change: a generated find when the front takes the
 * table, else `null` (lookups go to the engine, with no extra call layer). `answers` builds the router's
 * answers in the generated code, asked only for a table the front takes; `fallback` answers what the
 * generated code leaves to the engine.
 */
export function commitFront<A>(
  engine: Engine,
  options: FrontOptions,
  answers: () => AnswerCode,
  fallback: GeneratedFind<A>,
): GeneratedFind<A> | null {
  if ((options.order ?? 'definition') !== 'definition') return null;
  if (engine.route(MAX_TABLE_ROUTES) !== undefined) return null;
  const shapes = engine.snapshots?.shapes();
  if (shapes !== undefined && !withinLimits(shapes)) return null;
  return compileTable(engine.routes(), options.trailingSlash ?? true, answers, fallback);
}

/**
 * Whether no method has more dynamic routes or static paths than the front takes, read from the routes'
 * shapes. Declining a table that way leaves the engine's route list unread: read once, it stays cached in
 * the engine (on a 279-route table, 0.8 MiB of heap for nothing).
 */
function withinLimits(shapes: readonly RouteShape[]): boolean {
  const dynamic = new Map<string, number>();
  const statics = new Map<string, number>();
  for (const shape of shapes) {
    if (shape.hasOptional || shape.captures > 0) return false;
    const counts = shape.names.length > 0 ? dynamic : statics;
    const limit = shape.names.length > 0 ? MAX_DYNAMIC_ROUTES : MAX_STATIC_PATHS;
    for (const method of shape.methods) {
      const count = (counts.get(method) ?? 0) + 1;
      if (count > limit) return false;
      counts.set(method, count);
    }
  }
  return true;
}

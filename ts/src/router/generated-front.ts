/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine, and the one place
 * that decides whether lookups go to it or to the engine ({@link GeneratedFront}).
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

import type { Engine, Order, RouteShape } from '../engine/engine.js';
import {
  type AnswerCode,
  compileTable,
  type GeneratedFind,
  MAX_DYNAMIC_ROUTES,
  MAX_STATIC_PATHS,
} from './compiled-table.js';

export type { AnswerCode, GeneratedFind } from './compiled-table.js';
export { MAX_DYNAMIC_ROUTES, MAX_STATIC_PATHS } from './compiled-table.js';

export interface FrontOptions {
  order?: Order;
  trailingSlash?: boolean;
}

/**
 * The commit point between registration and serving. A router tells it of every route it registers
 * ({@link add}) and asks it, on its first lookup after the table changed, how lookups are answered until
 * the next change ({@link commit}): by a generated find when the front takes the table, else `null`
 * (lookups go to the engine, with no extra call layer).
 *
 * Whether a table is within the front's limits is counted here as routes are added, from the shapes the
 * router already holds: deciding asks the engine nothing, so a table over the limits costs no crossing
 * and leaves the engine's route list unread (read once, it stays cached in the engine: on a 279-route
 * table, 0.8 MiB of heap for nothing), and a router that alternates registrations and lookups does not
 * re-read every route at each commit.
 */
export class GeneratedFront<A> {
  readonly #engine: Engine;
  readonly #options: FrontOptions;
  readonly #answers: () => AnswerCode;
  readonly #fallback: GeneratedFind<A>;
  /** Per method: dynamic routes and static paths so far. */
  readonly #dynamic = new Map<string, number>();
  readonly #statics = new Map<string, number>();
  #fits: boolean;

  /**
   * `answers` builds the router's answers in the generated code, asked only for a table the front takes;
   * `fallback` answers what the generated code leaves to the engine.
   */
  constructor(engine: Engine, options: FrontOptions, answers: () => AnswerCode, fallback: GeneratedFind<A>) {
    this.#engine = engine;
    this.#options = options;
    this.#answers = answers;
    this.#fallback = fallback;
    this.#fits = (options.order ?? 'definition') === 'definition';
  }

  /** Counts a registered route against the per-method limits. */
  add(shape: RouteShape): void {
    if (!this.#fits) return;
    if (shape.hasOptional || shape.captures > 0) {
      this.#fits = false;
      return;
    }
    const dynamic = shape.names.length > 0;
    const counts = dynamic ? this.#dynamic : this.#statics;
    const limit = dynamic ? MAX_DYNAMIC_ROUTES : MAX_STATIC_PATHS;
    for (const method of shape.methods) {
      const count = (counts.get(method) ?? 0) + 1;
      if (count > limit) this.#fits = false;
      counts.set(method, count);
    }
  }

  /** The generated find for the table as it stands, or `null` when the engine answers it. */
  commit(): GeneratedFind<A> | null {
    return this.commitWith(this.#answers, this.#fallback);
  }

  /** {@link commit} for another kind of answer than the router's matches (the router's selections):
   * the same generated walk, each found route answered by `answers`, what it leaves to the engine by
   * `fallback`. */
  commitWith<B>(answers: () => AnswerCode, fallback: GeneratedFind<B>): GeneratedFind<B> | null {
    if (!this.#fits) return null;
    // Within the counts, a pattern may still be of a kind the generator does not take (a constraint):
    // it decides that from the route list.
    return compileTable(this.#engine.routes(), this.#options.trailingSlash ?? true, answers, fallback);
  }
}

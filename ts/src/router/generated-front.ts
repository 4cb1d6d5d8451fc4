/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine, and the one place
 * that decides whether the front takes a router's table ({@link GeneratedFront}).
 *
 * Why: a lookup in WebAssembly pays a fixed toll (copying the path into wasm memory and crossing the
 * boundary; docs/PERFORMANCE.md) before the walk starts. On a table of a dozen routes the best JavaScript
 * routers answer a dynamic path in about that time, so for such tables one JavaScript function is
 * generated from the engine's own route list (`compiled-table.ts`), the way rou3's and find-my-way's
 * compiled modes do. On real tables (hundreds of routes) the wasm walk is the engine.
 *
 * The wasm engine stays the single source of truth: it parses and validates every pattern, detects
 * conflicts, owns the metadata, and answers every table and path the front does not take:
 * - only the default engine, with `compiled` not switched off, and only definition order;
 * - only tables of at most 16 dynamic routes and 64 static paths per method (`MAX_DYNAMIC_ROUTES`,
 *   `MAX_STATIC_PATHS`);
 * - only patterns made of static text, whole-segment parameters without constraint or `?`, and a
 *   trailing `*` (anything else keeps the whole table on the engine);
 * - static text without `%` (a pattern with non-ASCII text is stored percent-encoded and must meet the
 *   request's encoded form, which only the engine's encoding step produces);
 * - a match whose path has a non-ASCII character, a query string or a fragment goes to the engine, which
 *   percent-encodes the path or cuts them off first (the generated code defers those itself).
 *
 * The rules are the engine's: exact static routes first, then dynamic routes in definition order; a
 * parameter is one non-empty segment; when nothing matches, one trailing slash is removed or added and
 * the lookup repeated, never for `/`. `tests/router/generated-front.test.ts` holds the two to the same
 * answers.
 */

import { codeGenerationAllowed } from '../code-generation.js';
import type { Engine, EngineOptions, PatternPiece, RouteInfo, RouteShape } from '../engine/engine.js';
import {
  type AnswerCode,
  compileTable,
  type FrontTable,
  type GeneratedFind,
  type MethodRoutes,
  type SimplePiece,
} from './compiled-table.js';

/** Routes are tried in turn (within a first-character group), so the cost grows with their number,
 * while the wasm walk's does not. 16 keeps the worst case near one wasm lookup; not tuned further. */
export const MAX_DYNAMIC_ROUTES = 16;

/** V8 compiles a `switch` over strings to comparisons in turn: beyond this many static paths the
 * engine's hash table is the better index. */
export const MAX_STATIC_PATHS = 64;

/** What of a router's options decides whether a front may take its tables. */
export interface FrontOptions extends EngineOptions {
  /** `RouterOptions.compiled`: `false` keeps every lookup on the engine. */
  compiled?: boolean;
  /** The router runs on an engine of its own (`RouterOptions.engine`, the reference engine in tests),
   * which must answer every lookup itself: the front answers as the WebAssembly engine does. */
  customEngine?: boolean;
}

/**
 * Whether a router's table is answered by generated JavaScript, decided here and nowhere else. A router
 * tells it of every route it registers ({@link add}); its commit point asks it, on the first lookup after
 * the table changed, for the generated find ({@link compile}), and gets `null` when lookups stay on the
 * engine.
 *
 * The limits are counted here as routes are added, from the shapes the router already holds: a table over
 * them is declined without asking the engine anything, so it costs no crossing and leaves the engine's
 * route list unread (once read, it stays cached in the engine), and a router that alternates
 * registrations and lookups does not re-read every route at each commit. Within the limits, the route
 * list says whether every pattern is of a kind the generated code matches ({@link table}).
 */
export class GeneratedFront {
  readonly #engine: Engine;
  readonly #trailingSlash: boolean;
  /** Per method: dynamic routes and static paths so far. */
  readonly #dynamic = new Map<string, number>();
  readonly #statics = new Map<string, number>();
  #withinLimits = true;

  /** The front of a router with these options, or `null` when none of its tables can be taken. */
  static for(engine: Engine, options: FrontOptions): GeneratedFront | null {
    const { compiled = true, customEngine = false, order = 'definition', trailingSlash = true } = options;
    return compiled && !customEngine && order === 'definition'
      ? new GeneratedFront(engine, trailingSlash)
      : null;
  }

  private constructor(engine: Engine, trailingSlash: boolean) {
    this.#engine = engine;
    this.#trailingSlash = trailingSlash;
  }

  /** Counts a registered route against the per-method limits. */
  add(shape: RouteShape): void {
    if (!this.#withinLimits) return;
    if (shape.hasOptional || shape.captures > 0) {
      this.#withinLimits = false;
      return;
    }
    const dynamic = shape.names.length > 0;
    const counts = dynamic ? this.#dynamic : this.#statics;
    const limit = dynamic ? MAX_DYNAMIC_ROUTES : MAX_STATIC_PATHS;
    for (const method of shape.methods) {
      const count = (counts.get(method) ?? 0) + 1;
      if (count > limit) this.#withinLimits = false;
      counts.set(method, count);
    }
  }

  /** The table as it stands, as the generated code takes it, or `null` when the engine answers it. */
  table(): FrontTable | null {
    return this.#withinLimits ? frontTable(this.#engine.routes()) : null;
  }

  /**
   * The generated find for the table as it stands, or `null` when the engine answers it. `answers` says
   * how a found route is answered (the router's matches, or its selections), asked only for a table the
   * front takes; `fallback` answers what the generated code leaves to the engine.
   */
  compile<A>(answers: () => AnswerCode, fallback: GeneratedFind<A>): GeneratedFind<A> | null {
    const table = this.table();
    if (table === null || !codeGenerationAllowed()) return null;
    return compileTable(table, this.#trailingSlash, answers(), fallback);
  }
}

/** The routes by method, each pattern as the generated code matches it, or `null` when some pattern is
 * of a kind it does not match (the whole table then stays on the engine). */
function frontTable(routes: readonly RouteInfo[]): FrontTable | null {
  const byMethod = new Map<string, MethodRoutes>();
  for (const route of routes) {
    const pieces = simplePieces(route.pieces);
    if (pieces === null) return null;
    for (const method of route.methods) {
      let entry = byMethod.get(method);
      if (entry === undefined) {
        entry = { statics: new Map(), dynamic: [] };
        byMethod.set(method, entry);
      }
      const only = pieces[0];
      if (pieces.length === 1 && only?.kind === 'static') {
        // The first registration of a path wins (a second one is a conflict the engine refused).
        if (!entry.statics.has(only.text)) entry.statics.set(only.text, route.id);
      } else {
        entry.dynamic.push({ id: route.id, pieces });
      }
    }
  }
  return byMethod;
}

const PERCENT = 37;

/** The route's pieces (as the core parsed them) when the generated code can match them, else `null`. */
function simplePieces(pieces: readonly PatternPiece[]): SimplePiece[] | null {
  const out: SimplePiece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as PatternPiece;
    const before = pieces[i - 1];
    const after = pieces[i + 1];
    if (piece.kind === 'text') {
      // Text with `%` or non-ASCII characters is matched in its percent-encoded form: the engine's.
      for (let k = 0; k < piece.text.length; k++) {
        const c = piece.text.charCodeAt(k);
        if (c > 0x7f || c === PERCENT) return null;
      }
      out.push({ kind: 'static', text: piece.text });
    } else if (piece.kind === 'param') {
      if (piece.constraint !== 'none' || piece.optional) return null;
      // A whole segment: after a `/`, and followed by nothing or by a `/`.
      if (before?.kind !== 'text' || !before.text.endsWith('/')) return null;
      if (after !== undefined && (after.kind !== 'text' || !after.text.startsWith('/'))) return null;
      out.push({ kind: 'param' });
    } else if (piece.kind === 'wildcard') {
      // The wildcard is always last; taken only as a whole segment (`/files/*`, not `/files*`).
      if (before?.kind !== 'text' || !before.text.endsWith('/')) return null;
      out.push({ kind: 'wildcard' });
    } else {
      return null;
    }
  }
  return out;
}

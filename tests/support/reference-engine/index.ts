/**
 * The reference engine: a deliberately simple route matcher written in TypeScript, and a test oracle: it
 * lives with the tests and no shipped module imports it (a shared helper would hide a shared bug). It has
 * its own pattern parser on purpose, the only one besides the core's. It is not fast (it
 * tries every dynamic route in turn); it is meant to be obviously correct, so the conformance suite can
 * run it side by side with the WebAssembly engine and explain any difference (differential testing).
 *
 * @example
 * const router = new Router<string>({ engine: createReferenceEngine });
 * router.add('GET', '/files/:name<[\\w-]+>.:ext<jpg|png>', 'file');
 * router.find('GET', '/files/my-image.jpg')?.params; // { name: 'my-image', ext: 'jpg' }
 */

import {
  type Engine,
  type EngineOptions,
  ESCAPED,
  NOT_FOUND,
  type Order,
  type RouteInfo,
  type RouteShape,
  shapeOf,
} from '../../../ts/src/engine/engine.js';
import { RouteError } from '../../../ts/src/errors.js';
import { encodeNonAscii, stripQuery } from './encoding.js';
import { expandOptional, type MatchResult, matchVariant, type Variant } from './match.js';
import { capturesOf, isStaticPattern, paramsOf, piecesOf, shapeKey, templateOf } from './metadata.js';
import { type Piece, parsePattern } from './pattern.js';
import { takesVariant } from './shadow.js';
import { type Candidate, mostSpecific, type Step, stepsOf } from './specificity.js';

interface Route {
  info: RouteInfo;
  pieces: Piece[];
  variants: Variant[];
  /** Per variant, its steps for `order: 'specificity'`. */
  steps: Step[][];
  methods: ReadonlySet<string>;
}

interface Found {
  id: number;
  spans: number[];
}

class ReferenceEngine implements Engine {
  readonly #order: Order;
  readonly #trailingSlash: boolean;
  readonly #routes: Route[] = [];
  /** Encoded static path → method → route id: exact static routes beat dynamic ones (ROUTING.md §3 rule 2). */
  readonly #statics = new Map<string, Map<string, number>>();
  /** Shape key → method → route id, for conflicts. */
  readonly #shapes = new Map<string, Map<string, number>>();
  /** Every method seen, in order of first registration (the order of `allowedMethods`). */
  readonly #methods: string[] = [];
  spans: number[] = [];
  matchedPath = '';
  readonly snapshots = null;

  constructor(options: EngineOptions) {
    this.#order = options.order ?? 'definition';
    this.#trailingSlash = options.trailingSlash ?? true;
  }

  insert(methods: readonly string[], pattern: string): RouteShape {
    const pieces = parsePattern(pattern);
    const unique = [...new Set(methods)];
    const key = shapeKey(pieces);
    const sameShape = this.#shapes.get(key);
    for (const method of unique) {
      const other = sameShape?.get(method);
      if (other === undefined) continue;
      const otherPattern = this.#routes[other]?.info.pattern ?? '';
      throw new RouteError(
        'ROUTE_CONFLICT',
        `route conflict: ${method} ${JSON.stringify(pattern)} is already registered as route ${other} (${method} ${JSON.stringify(otherPattern)})`,
        { pattern, conflictsWith: otherPattern },
      );
    }

    const id = this.#routes.length;
    const isStatic = isStaticPattern(pieces);
    const shadowedBy = isStatic || this.#order === 'specificity' ? null : this.#shadowerOf(pieces, unique);
    const info: RouteInfo = {
      id,
      methods: unique,
      pattern,
      template: templateOf(pieces),
      params: paramsOf(pieces),
      captures: capturesOf(pieces),
      name: null,
      shadowedBy,
      isStatic,
      pieces: piecesOf(pieces),
    };
    const variants = expandOptional(pieces);
    const steps = variants.map((variant) => stepsOf(variant.pieces));
    this.#routes.push({ info, pieces, variants, steps, methods: new Set(unique) });
    const byMethod = sameShape ?? new Map<string, number>();
    this.#shapes.set(key, byMethod);
    for (const method of unique) {
      byMethod.set(method, id);
      if (!this.#methods.includes(method)) this.#methods.push(method);
    }
    if (isStatic) {
      const path = pieces.map((piece) => (piece.kind === 'static' ? piece.text : '')).join('');
      const statics = this.#statics.get(path) ?? new Map<string, number>();
      this.#statics.set(path, statics);
      for (const method of unique) statics.set(method, id);
    }
    return shapeOf(info);
  }

  /**
   * Whether earlier dynamic routes sharing a method take every path of the new one: each of its
   * variants is taken (contained, or identical to a variant) by some earlier route. Returns the earliest
   * route that takes a variant, as the core does; `null` when a variant is left (`/g/:a` then `/g/:b?`:
   * `/g` still reaches the new route).
   */
  #shadowerOf(pieces: Piece[], methods: readonly string[]): number | null {
    const earlier = this.#routes.filter(
      (route) => !route.info.isStatic && methods.some((method) => route.methods.has(method)),
    );
    let by: number | null = null;
    for (const variant of expandOptional(pieces)) {
      const taker = earlier.find((route) => takesVariant(route.pieces, variant));
      if (taker === undefined) return null;
      by = by === null ? taker.info.id : Math.min(by, taker.info.id);
    }
    return by;
  }

  setName(id: number, name: string): void {
    const route = this.#routes[id];
    if (route === undefined) throw new RouteError('UNKNOWN_ROUTE', `unknown route id ${id}`);
    const holder = this.#routes.find((other) => other.info.name === name && other !== route);
    if (holder !== undefined) {
      throw new RouteError(
        'DUPLICATE_NAME',
        `duplicate route name ${JSON.stringify(name)}: route ${holder.info.id} already has it`,
      );
    }
    route.info.name = name;
  }

  lookup(method: string, path: string): number {
    const encoded = encodeNonAscii(stripQuery(path));
    const found = this.#find(method, encoded);
    this.matchedPath = encoded;
    if (found === null) return NOT_FOUND;
    this.spans = found.spans;
    return encoded.includes('%') ? found.id + ESCAPED : found.id;
  }

  allowedMethods(path: string): string[] {
    const encoded = encodeNonAscii(stripQuery(path));
    return this.#methods.filter((method) => this.#find(method, encoded) !== null);
  }

  routes(): RouteInfo[] {
    return this.#routes.map((route) => route.info);
  }

  route(id: number): RouteInfo | undefined {
    return this.#routes[id]?.info;
  }

  /**
   * ROUTING.md §3.1: the path exactly as sent first; only when nothing matches, with one trailing slash
   * toggled (never for `/`). Spans of the toggled lookup still index into the path as sent: removing a
   * slash keeps every offset valid, adding one may point one past the end (callers clamp).
   */
  #find(method: string, path: string): Found | null {
    const exact = this.#findExactly(method, path);
    if (exact !== null || !this.#trailingSlash || path === '/') return exact;
    const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
    return this.#findExactly(method, toggled);
  }

  #findExactly(method: string, path: string): Found | null {
    const staticId = this.#statics.get(path)?.get(method);
    if (staticId !== undefined) return { id: staticId, spans: [] };
    const matches: (Candidate & { result: MatchResult })[] = [];
    for (const route of this.#routes) {
      if (route.info.isStatic || !route.methods.has(method)) continue;
      const found = matchRoute(route, path);
      if (found === null) continue;
      // Definition order: the first match wins.
      if (this.#order === 'definition') return { id: route.info.id, spans: found.result.spans };
      matches.push({
        id: route.info.id,
        steps: route.steps[found.variant] ?? [],
        spans: found.result.spans,
        result: found.result,
      });
    }
    const best = mostSpecific(matches, this.#candidates(method));
    return best === null ? null : { id: best.id, spans: best.result.spans };
  }

  /** Every variant of every dynamic route of `method`, for the specificity order. */
  #candidates(method: string): Candidate[] {
    return this.#routes
      .filter((route) => !route.info.isStatic && route.methods.has(method))
      .flatMap((route) => route.steps.map((steps) => ({ id: route.info.id, steps })));
  }
}

function matchRoute(route: Route, path: string): { result: MatchResult; variant: number } | null {
  for (const [variant, pieces] of route.variants.entries()) {
    const result = matchVariant(pieces, path);
    if (result !== null) return { result, variant };
  }
  return null;
}

/** Creates an empty reference engine. */
export function createReferenceEngine(options: EngineOptions = {}): Engine {
  return new ReferenceEngine(options);
}

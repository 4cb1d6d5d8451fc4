/**
 * The expected answers, computed from the neutral route table by a deliberately simple matcher that
 * shares no code with any router under test. Each adapter is checked against the rule its router
 * claims, so a router is never failed for a documented semantic difference, only for wrong answers.
 */
import { type Piece, type RouteDef, type RouteTable, WILDCARD } from './routes.js';

/**
 * - `definition`: the first route in definition order that matches (hono's routers).
 * - `static-first`: an exact static route, else the first dynamic route in definition order (Arbor's
 *   default, ROUTING.md §3 rules 2–3).
 * - `specificity`: compare candidates character by character along the path by the kind of piece that
 *   consumes each character (static < constrained < unconstrained < wildcard); the first difference
 *   decides, definition order breaks ties (ROUTING.md §3.2; find-my-way, rou3, memoirist, @medley, koa-tree-router).
 */
export type Rule = 'definition' | 'static-first' | 'specificity';

export interface Answer {
  id: number;
  params: Record<string, string>;
}

interface Match {
  params: Record<string, string>;
  /** Per character of the path: 0 static, 1 constrained, 2 unconstrained, 3 wildcard. */
  kinds: number[];
}

const regexCache = new Map<string, RegExp>();
function anchored(source: string): RegExp {
  let re = regexCache.get(source);
  if (re === undefined) {
    re = new RegExp(`^(?:${source})$`);
    regexCache.set(source, re);
  }
  return re;
}

/**
 * Matches `pieces` against the whole `path`. A parameter takes one or more characters without `/`;
 * an earlier parameter takes the longest value that lets the rest match (ROUTING.md §3.1); a trailing
 * wildcard takes the rest, possibly empty.
 */
export function matchPieces(pieces: readonly Piece[], path: string): Match | null {
  const params: Record<string, string> = {};
  const kinds: number[] = [];
  const walk = (index: number, at: number): boolean => {
    const piece = pieces[index];
    if (piece === undefined) return at === path.length;
    if (piece.kind === 'static') {
      if (!path.startsWith(piece.text, at)) return false;
      for (let i = 0; i < piece.text.length; i++) kinds[at + i] = 0;
      return walk(index + 1, at + piece.text.length);
    }
    if (piece.kind === 'wildcard') {
      params[WILDCARD] = path.slice(at);
      for (let i = at; i < path.length; i++) kinds[i] = 3;
      return true;
    }
    let end = path.indexOf('/', at);
    if (end < 0) end = path.length;
    for (let stop = end; stop > at; stop--) {
      const value = path.slice(at, stop);
      if (piece.constraint && !anchored(piece.constraint.regex).test(value)) continue;
      params[piece.name] = value;
      for (let i = at; i < stop; i++) kinds[i] = piece.constraint ? 1 : 2;
      if (walk(index + 1, stop)) return true;
    }
    delete params[piece.name];
    return false;
  };
  if (!walk(0, 0)) return null;
  kinds.length = path.length;
  return { params, kinds };
}

function isStatic(route: RouteDef): boolean {
  return route.pieces.every((p) => p.kind === 'static');
}

function compareKinds(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** An index of the routes by method, so the expectation for 1,000 requests over 10,000 routes is quick. */
export class Expectation {
  readonly #byMethod = new Map<string, RouteDef[]>();
  /** Leading static text per route id: a cheap reject before the full match. */
  readonly #prefix: string[] = [];
  readonly #memo = new Map<string, Answer | null>();

  /** One expectation per table: verifying eleven adapters computes each answer once per rule. */
  static of(table: RouteTable): Expectation {
    let expectation = cache.get(table);
    if (expectation === undefined) {
      expectation = new Expectation(table);
      cache.set(table, expectation);
    }
    return expectation;
  }

  constructor(table: RouteTable) {
    for (const route of table.routes) {
      const first = route.pieces[0];
      this.#prefix[route.id] = first?.kind === 'static' ? first.text : '';
      const list = this.#byMethod.get(route.method) ?? [];
      list.push(route);
      this.#byMethod.set(route.method, list);
    }
  }

  answer(rule: Rule, method: string, path: string): Answer | null {
    const key = `${rule} ${method} ${path}`;
    if (this.#memo.has(key)) return this.#memo.get(key) ?? null;
    const answer = this.#compute(rule, method, path);
    this.#memo.set(key, answer);
    return answer;
  }

  #compute(rule: Rule, method: string, path: string): Answer | null {
    const routes = this.#byMethod.get(method) ?? [];
    if (rule === 'static-first') {
      for (const route of routes) {
        if (isStatic(route) && matchPieces(route.pieces, path)) return { id: route.id, params: {} };
      }
    }
    let best: { route: RouteDef; match: Match } | null = null;
    for (const route of routes) {
      if (rule === 'static-first' && isStatic(route)) continue;
      if (!path.startsWith(this.#prefix[route.id] as string)) continue;
      const match = matchPieces(route.pieces, path);
      if (match === null) continue;
      if (rule !== 'specificity') return { id: route.id, params: match.params };
      if (best === null || compareKinds(match.kinds, best.match.kinds) < 0) best = { route, match };
    }
    return best && { id: best.route.id, params: best.match.params };
  }
}

const cache = new WeakMap<RouteTable, Expectation>();

/** Substitutes `params` into the route's pattern: the verifier's independent check that they rebuild the path. */
export function rebuild(pieces: readonly Piece[], params: Record<string, string>): string | null {
  let out = '';
  for (const p of pieces) {
    if (p.kind === 'static') out += p.text;
    else {
      const value = params[p.kind === 'wildcard' ? WILDCARD : p.name];
      if (value === undefined) return null;
      out += value;
    }
  }
  return out;
}

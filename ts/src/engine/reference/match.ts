/**
 * Matching one route against one (encoded, query-free) path, by plain backtracking over its pieces.
 * Slow on purpose: every rule of SPEC §2/§3 is a line here, not a property of a tree.
 */
import type { Piece } from './pattern.js';

export const ABSENT = 0xffffffff;

/** Kind of piece that consumed a character, for `order: 'specificity'` (SPEC §3.2): lower wins. */
export const RANK = { static: 0, constrained: 1, unconstrained: 2, tail: 3 } as const;

/**
 * A route with an optional last parameter is two routes: with it, and without it (and without the `/`
 * before it; the root `/:page?` keeps its `/`). With and without never match the same path: the second
 * has one `/` fewer.
 */
export interface Variant {
  pieces: Piece[];
  /** The optional parameter is absent in this variant. */
  absent: boolean;
}

export function expandOptional(pieces: Piece[]): Variant[] {
  const last = pieces.at(-1);
  if (last?.kind !== 'param' || !last.optional) return [{ pieces, absent: false }];
  const before = pieces.slice(0, -1);
  const slash = before.at(-1);
  if (slash?.kind === 'static') {
    const text = slash.text.slice(0, -1);
    const trimmed = before.slice(0, -1);
    if (text !== '') trimmed.push({ ...slash, text, written: slash.written.slice(0, -1) });
    else if (trimmed.length === 0) trimmed.push(slash);
    return [
      { pieces, absent: false },
      { pieces: trimmed, absent: true },
    ];
  }
  return [{ pieces, absent: false }];
}

export interface MatchResult {
  /** (start, end) pairs: parameters in `RouteInfo.params` order, then regex-block capture groups. */
  spans: number[];
  /** Per character of the path, then its end: the {@link RANK} of the piece that consumed it. */
  ranks: number[];
}

/**
 * Matches `path` against one variant. Earlier parameters try their longest value first, so
 * `/:file.:ext` on `a.b.c` gives `a.b` + `c` (SPEC §3.1); the first value that lets the rest match wins.
 */
export function matchVariant(variant: Variant, path: string): MatchResult | null {
  const { pieces } = variant;
  /** Per piece: where it started and ended in `path`. */
  const bounds: number[] = new Array(pieces.length * 2).fill(0);
  let groups: (readonly [number, number] | undefined)[] = [];

  const walk = (k: number, pos: number): boolean => {
    const piece = pieces[k];
    if (piece === undefined) return pos === path.length;
    bounds[2 * k] = pos;
    switch (piece.kind) {
      case 'static':
        bounds[2 * k + 1] = pos + piece.text.length;
        return path.startsWith(piece.text, pos) && walk(k + 1, pos + piece.text.length);
      case 'param': {
        const slash = path.indexOf('/', pos);
        const limit = slash === -1 ? path.length : slash;
        for (let end = limit; end > pos; end--) {
          if (piece.constraint !== null && !piece.constraint.test(path.slice(pos, end))) continue;
          bounds[2 * k + 1] = end;
          if (walk(k + 1, end)) return true;
        }
        return false;
      }
      case 'wildcard':
        bounds[2 * k + 1] = path.length;
        return true;
      case 'regex': {
        const found = piece.block.regex.exec(path.slice(pos));
        if (found === null) return false;
        bounds[2 * k + 1] = path.length;
        groups = piece.block.groups.map((_, g) => {
          const span = found.indices?.[g + 1];
          return span === undefined ? undefined : ([span[0] + pos, span[1] + pos] as const);
        });
        return true;
      }
    }
  };
  if (!walk(0, 0)) return null;
  return { spans: spansOf(variant, bounds, groups), ranks: ranksOf(pieces, bounds, path.length) };
}

function spansOf(
  variant: Variant,
  bounds: number[],
  groups: (readonly [number, number] | undefined)[],
): number[] {
  const spans: number[] = [];
  variant.pieces.forEach((piece, k) => {
    if (piece.kind === 'param' || piece.kind === 'wildcard')
      spans.push(bounds[2 * k] ?? 0, bounds[2 * k + 1] ?? 0);
  });
  if (variant.absent) spans.push(ABSENT, ABSENT);
  const regex = variant.pieces.at(-1);
  if (regex?.kind !== 'regex') return spans;
  // Named groups are parameters too (before the captures), then every group in textual order.
  regex.block.groups.forEach((group, g) => {
    if (group.name !== null) spans.push(...(groups[g] ?? [ABSENT, ABSENT]));
  });
  for (const span of groups) spans.push(...(span ?? [ABSENT, ABSENT]));
  return spans;
}

/**
 * One rank per character, plus one for the end of the path: a route that ends there ranks as static,
 * one that still has a (here empty) wildcard or regex block ranks as a tail. So `/a/` beats `/a/*` on
 * `/a/`, as "static before wildcard at each point of the path" reads in a tree (and as find-my-way does).
 */
function ranksOf(pieces: Piece[], bounds: number[], length: number): number[] {
  const ranks: number[] = new Array(length + 1).fill(RANK.static);
  const last = pieces.at(-1);
  if (last?.kind === 'wildcard' || last?.kind === 'regex') ranks[length] = RANK.tail;
  pieces.forEach((piece, k) => {
    let rank: number = RANK.static;
    if (piece.kind === 'param') rank = piece.constraint === null ? RANK.unconstrained : RANK.constrained;
    else if (piece.kind !== 'static') rank = RANK.tail;
    ranks.fill(rank, bounds[2 * k] ?? 0, bounds[2 * k + 1] ?? 0);
  });
  return ranks;
}

/** Lexicographic comparison of two rank sequences (same path, so same length). */
export function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

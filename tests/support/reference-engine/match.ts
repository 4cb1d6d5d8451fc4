/**
 * Matching one route against one (encoded, query-free) path, by plain backtracking over its pieces.
 * Slow on purpose: every rule of ROUTING.md §2/§3 is a line here, not a property of a tree.
 */
import type { Piece } from './pattern.js';

export const ABSENT = 0xffffffff;

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
}

/**
 * Matches `path` against one variant. Earlier parameters try their longest value first, so
 * `/:file.:ext` on `a.b.c` gives `a.b` + `c` (ROUTING.md §3.1); the first value that lets the rest match wins.
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
  return { spans: spansOf(variant, bounds, groups) };
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

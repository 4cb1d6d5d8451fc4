/**
 * `order: 'specificity'` (ROUTING.md §3.2): at each point of the path, static text is tried before a
 * constrained parameter, before an unconstrained one, before a wildcard; among equals, definition order;
 * with backtracking; the first match in that order wins. The Rust core walks its tree depth first in
 * that order; this module states the same order as a comparison of two routes that both match a path, so
 * the reference engine picks the same winner without a tree (the rule is also the doc comment of
 * `Order::Specificity` in the core).
 *
 * A route variant is a sequence of steps: one per byte of static text, and one per dynamic piece. A
 * dynamic piece is a parameter that ends its segment, a segment tail (a parameter followed by more
 * text or parameters up to the next `/`: `:a.:b`, `{id}x`, `:v<\d+>-beta`), a wildcard or a regex
 * block. Two candidates are compared at their first differing step:
 *  1. a route that has no step left comes first (it ends there; the other continues with empty pieces);
 *  2. static text before a dynamic piece;
 *  3. dynamic pieces by class: a segment tail whose first parameter is constrained, a constrained
 *     parameter, a segment tail whose first parameter is unconstrained, an unconstrained parameter,
 *     a wildcard or a regex block;
 *  4. two segment tails of one class: at the first character of the segment that one gives to static
 *     text and the other to a parameter, the one with static text (so `/foo/:bar.png.png` beats
 *     `/foo/:bar.png` on `/foo/value.png.png`, and `/{f}oooo/b` beats `/{f}o/b` on `/foooo/b`); each
 *     tail cut as it matches on its own (ROUTING.md §3.1: earlier parameters take the longest value);
 *  5. otherwise (equal classes, or tails that agree on every character): the piece under which the
 *     earliest route of the method was defined (the lowest id among the routes whose steps start with
 *     the same steps up to and including that piece).
 * Identical steps: the earlier route.
 */
import type { Piece } from './pattern.js';

/** Class of a step, lower is tried first. */
const STATIC = 0;
const TAIL_CONSTRAINED = 1;
const CONSTRAINED = 2;
const TAIL_UNCONSTRAINED = 3;
const UNCONSTRAINED = 4;
const REST = 5;

export interface Step {
  /** Equal keys: the same static byte, or a dynamic piece that matches the same way. */
  key: string;
  kind: number;
  /** A segment tail: the index of each of its parameters' spans in a match of the variant. */
  slots?: readonly number[];
}

/** The steps of a variant (its pieces, optional parameter present or removed). */
export function stepsOf(pieces: readonly Piece[]): Step[] {
  const steps: Step[] = [];
  const bytes = (text: string): void => {
    for (const char of text) steps.push({ key: `=${char}`, kind: STATIC });
  };
  let k = 0;
  // The index of the next parameter's span in a match (parameters and the wildcard, in order).
  let slot = 0;
  while (k < pieces.length) {
    const piece = pieces[k];
    if (piece === undefined) break;
    k++;
    if (piece.kind === 'static') {
      bytes(piece.text);
    } else if (piece.kind === 'wildcard') {
      slot++;
      steps.push({ key: '*', kind: REST });
    } else if (piece.kind === 'regex') {
      steps.push({ key: JSON.stringify(['r', piece.block.source]), kind: REST });
    } else {
      const next = pieces[k];
      const source = piece.constraint?.source ?? null;
      if (next === undefined || (next.kind === 'static' && next.text.startsWith('/'))) {
        slot++;
        steps.push({
          key: JSON.stringify(['p', source]),
          kind: source === null ? UNCONSTRAINED : CONSTRAINED,
        });
        continue;
      }
      // A segment tail: this parameter, then parameters and text up to the next `/`, is one step.
      const parts: unknown[] = [['p', source]];
      const slots = [slot++];
      let rest = '';
      while (k < pieces.length) {
        const inner = pieces[k];
        if (inner?.kind === 'param') {
          parts.push(['p', inner.constraint?.source ?? null]);
          slots.push(slot++);
        } else if (inner?.kind === 'static') {
          const slash = inner.text.indexOf('/');
          const head = slash === -1 ? inner.text : inner.text.slice(0, slash);
          if (head !== '') parts.push(['s', head]);
          if (slash !== -1) {
            rest = inner.text.slice(slash);
            k++;
            break;
          }
        } else {
          break;
        }
        k++;
      }
      steps.push({
        key: JSON.stringify(parts),
        kind: source === null ? TAIL_UNCONSTRAINED : TAIL_CONSTRAINED,
        slots,
      });
      bytes(rest);
    }
  }
  return steps;
}

export interface Candidate {
  id: number;
  steps: readonly Step[];
  /** The spans of the candidate's match (`MatchResult.spans`); absent for a route that does not match. */
  spans?: readonly number[];
}

/**
 * Rule 4: two segment tails that start at the same point, each with its parameters' spans. Negative
 * when `a`'s tail has static text at the first character where one has static text and the other a
 * parameter, positive for `b`'s, 0 when they agree on every character.
 */
function compareTails(a: Candidate, x: Step, b: Candidate, y: Step): number {
  const spansOf = (candidate: Candidate, step: Step): [number, number][] =>
    (step.slots ?? []).map((slot) => [
      candidate.spans?.[2 * slot] ?? 0,
      candidate.spans?.[2 * slot + 1] ?? 0,
    ]);
  const first = spansOf(a, x);
  const second = spansOf(b, y);
  const covered = (spans: [number, number][], at: number): boolean =>
    spans.some(([start, end]) => start <= at && at < end);
  const from = Math.min(...[...first, ...second].map(([start]) => start));
  const to = Math.max(...[...first, ...second].map(([, end]) => end));
  for (let at = from; at < to; at++) {
    const inA = covered(first, at);
    const inB = covered(second, at);
    if (inA !== inB) return inA ? 1 : -1;
  }
  return 0;
}

function startsWith(steps: readonly Step[], prefix: readonly Step[], length: number): boolean {
  if (steps.length < length) return false;
  for (let i = 0; i < length; i++) if (steps[i]?.key !== prefix[i]?.key) return false;
  return true;
}

/**
 * The first of `matches` in specificity order. `all` is every variant of every dynamic route of the
 * method (rule 4 looks at routes that do not match too, as the tree does).
 */
export function mostSpecific<T extends Candidate>(
  matches: readonly T[],
  all: readonly Candidate[],
): T | null {
  const earliest = (steps: readonly Step[], length: number): number => {
    let min = Number.POSITIVE_INFINITY;
    for (const other of all) if (other.id < min && startsWith(other.steps, steps, length)) min = other.id;
    return min;
  };
  const compare = (a: Candidate, b: Candidate): number => {
    for (let i = 0; ; i++) {
      const x = a.steps[i];
      const y = b.steps[i];
      if (x === undefined || y === undefined) {
        if (x === undefined && y === undefined) return a.id - b.id;
        return x === undefined ? -1 : 1;
      }
      if (x.key === y.key) continue;
      if (x.kind !== y.kind) return x.kind - y.kind;
      if (x.slots !== undefined && y.slots !== undefined) {
        const byCharacter = compareTails(a, x, b, y);
        if (byCharacter !== 0) return byCharacter;
      }
      const byFirst = earliest(a.steps, i + 1) - earliest(b.steps, i + 1);
      return byFirst !== 0 ? byFirst : a.id - b.id;
    }
  };
  let best: T | null = null;
  for (const candidate of matches) if (best === null || compare(candidate, best) < 0) best = candidate;
  return best;
}

/**
 * Shadowed routes (ROUTING.md §3.2): under definition order, is every path a new route matches taken by
 * earlier dynamic routes? Each variant of the new route (with and without its optional parameter) must
 * be taken by an earlier route, not necessarily the same one; a route only partly taken is not
 * reported. Containment is decided segment by segment and conservatively, so a warning is never false:
 * an unconstrained parameter contains any non-empty value, static text only itself, a trailing `*` any
 * rest; a constrained parameter or a regex block contains only an identical one. A segment with several
 * pieces contains only an identical segment (so `/:a.:b` is not reported over `/:x.png`: a missed
 * warning, never a wrong one).
 */
import { expandOptional, type Variant } from './match.js';
import type { Piece } from './pattern.js';

/** A segment's pieces; static text no longer contains `/`, and empty static text is dropped. */
type Segment = Piece[];

function segmentsOf(pieces: Piece[]): Segment[] {
  const segments: Segment[] = [[]];
  for (const piece of pieces) {
    if (piece.kind !== 'static') {
      segments.at(-1)?.push(piece);
      continue;
    }
    piece.text.split('/').forEach((part, k) => {
      if (k > 0) segments.push([]);
      if (part !== '') segments.at(-1)?.push({ ...piece, text: part, written: part });
    });
  }
  return segments;
}

function samePiece(a: Piece | undefined, b: Piece | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a.kind === 'static') return b.kind === 'static' && a.text === b.text;
  // In a variant an optional parameter is present: it matches like a plain parameter.
  if (a.kind === 'param')
    return b.kind === 'param' && (a.constraint?.source ?? null) === (b.constraint?.source ?? null);
  if (a.kind === 'wildcard') return b.kind === 'wildcard';
  return b.kind === 'regex' && a.block.source === b.block.source;
}

function sameSegment(a: Segment, b: Segment): boolean {
  return a.length === b.length && a.every((piece, k) => samePiece(piece, b[k]));
}

function segmentContains(outer: Segment, inner: Segment): boolean {
  const only = outer[0];
  if (outer.length === 1 && only?.kind === 'param' && only.constraint === null) {
    // Any non-empty value that stays within the segment.
    return inner.length > 0 && inner.every((piece) => piece.kind === 'static' || piece.kind === 'param');
  }
  return sameSegment(outer, inner);
}

/** Whether every path matched by `inner` is matched by `outer` (both without optional parameters). */
function variantContains(outer: Piece[], inner: Piece[]): boolean {
  const outerSegments = segmentsOf(outer);
  const innerSegments = segmentsOf(inner);
  for (let i = 0; i < outerSegments.length; i++) {
    const segment = outerSegments[i] ?? [];
    const candidate = innerSegments[i];
    if (candidate === undefined) return false;
    if (segment.at(-1)?.kind === 'wildcard') {
      // `/files*`: the inner segment must start with `files`; anything may follow, `/` included.
      const prefix = segment[0];
      if (prefix === undefined || prefix.kind === 'wildcard') return true;
      const first = candidate[0];
      return prefix.kind === 'static' && first?.kind === 'static' && first.text.startsWith(prefix.text);
    }
    if (!segmentContains(segment, candidate)) return false;
  }
  return outerSegments.length === innerSegments.length;
}

/**
 * Whether the variant `inner` (of a new route) is taken by `outer` (an earlier route): `outer` matches
 * every path it matches, or has an identical variant (which keeps that leaf).
 */
export function takesVariant(outer: Piece[], inner: Variant): boolean {
  const key = variantKey(inner.pieces);
  return expandOptional(outer).some(
    (candidate) => variantKey(candidate.pieces) === key || variantContains(candidate.pieces, inner.pieces),
  );
}

/** A variant's identity: static text, and each dynamic piece by what it matches (names ignored). */
function variantKey(pieces: Piece[]): string {
  const parts: unknown[] = [];
  let text = '';
  for (const piece of pieces) {
    if (piece.kind === 'static') {
      text += piece.text;
      continue;
    }
    if (text !== '') parts.push(['s', text]);
    text = '';
    if (piece.kind === 'param') parts.push(['p', piece.constraint?.source ?? null]);
    else if (piece.kind === 'wildcard') parts.push(['*']);
    else parts.push(['r', piece.block.source]);
  }
  if (text !== '') parts.push(['s', text]);
  return JSON.stringify(parts);
}

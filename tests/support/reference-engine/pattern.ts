/**
 * The pattern parser of the reference engine (ROUTING.md §2, §3.1): `/files/:name<[\w-]+>.:ext<jpg|png>` →
 * pieces. Every mistake becomes a `RouteError` with the pattern and a byte position.
 *
 * Syntax decisions ROUTING.md leaves open (the Rust core decides the same way):
 * - names are `[A-Za-z0-9_]+`, so `_` right after `:name` belongs to the name (`{a}_:b` separates);
 * - `::` is a literal colon (as in find-my-way): `/v1/{name}::publish`;
 * - `:name?`, `:name<c>?`, `:name?<c>` and the same inside braces are optional parameters;
 * - a wildcard or regex block cannot share a segment with a parameter (the split would be arbitrary);
 * - `?`, `#` and an unmatched `}` are errors: they can never match a path;
 * - a pattern starts with `/` or is a `{^regex$}` block, and is at most 2048 bytes.
 */
import { RouteError, type RouteErrorCode } from '../../../ts/src/errors.js';
import {
  type Constraint,
  ConstraintError,
  compileConstraint,
  compileRegexBlock,
  type RegexBlock,
} from './constraint.js';
import { byteLength, bytePosition, encodeNonAscii } from './encoding.js';

export interface StaticPiece {
  kind: 'static';
  /** Percent-encoded (ROUTING.md §3.1): what a request carries. */
  text: string;
  /** As written (`::` unescaped): for templates. */
  written: string;
}
export interface ParamPiece {
  kind: 'param';
  name: string;
  constraint: Constraint | null;
  optional: boolean;
  /** UTF-16 index of the `:` or `{`. */
  index: number;
}
export interface WildcardPiece {
  kind: 'wildcard';
  index: number;
}
export interface RegexPiece {
  kind: 'regex';
  block: RegexBlock;
  index: number;
}
export type Piece = StaticPiece | ParamPiece | WildcardPiece | RegexPiece;

export const MAX_PATTERN_BYTES = 2048;

export function patternError(
  code: RouteErrorCode,
  pattern: string,
  index: number,
  reason: string,
): RouteError {
  const position = bytePosition(pattern, index);
  return new RouteError(code, `${reason} in pattern ${JSON.stringify(pattern)} at byte ${position}`, {
    pattern,
    position,
  });
}

const isNameChar = (char: string | undefined): boolean => char !== undefined && /^[A-Za-z0-9_]$/.test(char);

/**
 * Where the `close` character (`>` or `}`) ending a constraint or regex block is, skipping escapes,
 * character classes and anything nested in `()` or `{}`, so `(?P<x>…)`, `\d{2}` and `[>]` do not end it.
 * -1: no end, and nothing left open; -2: no end, with a class or group still open at the end (then the
 * regex itself is likely the mistake, as in the core).
 */
function scanRegex(pattern: string, start: number, close: string): number {
  let depth = 0;
  let i = start;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      i += 2;
      continue;
    }
    if (char === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      let classes = 1;
      while (i < pattern.length && classes > 0) {
        const inner = pattern[i];
        if (inner === '\\') i++;
        else if (inner === '[') classes++;
        else if (inner === ']') classes--;
        i++;
      }
      if (classes > 0) return -2;
      continue;
    }
    if (char === '(' || char === '{') depth++;
    else if ((char === ')' || char === '}') && depth > 0) depth--;
    else if (char === close && depth === 0) return i;
    i++;
  }
  return depth > 0 ? -2 : -1;
}

/** With no balanced end, the regex up to `end` (the `close` found by a plain search) when it does not
 * compile: its error is the one to report (`<[>`, `{^(a$}`). */
function unbalanced(pattern: string, start: number, end: number, index: number, block: boolean): void {
  if (end < 0) return;
  const source = pattern.slice(start, end);
  if (block) compileAt(pattern, index, source, true);
  else compileAt(pattern, index, source, false);
}

export function parsePattern(pattern: string): Piece[] {
  if (pattern === '') throw patternError('INVALID_PATTERN', pattern, 0, 'empty pattern');
  if (byteLength(pattern) > MAX_PATTERN_BYTES) {
    const message = `pattern longer than ${MAX_PATTERN_BYTES} bytes: ${JSON.stringify(pattern.slice(0, 40))}…`;
    throw new RouteError('INVALID_PATTERN', message, { pattern, position: MAX_PATTERN_BYTES });
  }
  if (!pattern.startsWith('/') && !pattern.startsWith('{^')) {
    throw patternError(
      'INVALID_PATTERN',
      pattern,
      0,
      "a pattern must start with '/' or be a {^regex$} block",
    );
  }
  const pieces: Piece[] = [];
  let written = '';
  const flush = (): void => {
    if (written !== '') pieces.push({ kind: 'static', text: encodeNonAscii(written), written });
    written = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    if (char === ':' && pattern[i + 1] === ':') {
      written += ':';
      i += 2;
    } else if (char === ':' || (char === '{' && pattern[i + 1] !== '^')) {
      flush();
      const { piece, next } = parseParam(pattern, i);
      pieces.push(piece);
      i = next;
    } else if (char === '{') {
      const end = scanRegex(pattern, i + 1, '}');
      if (end < 0) {
        // A block ends the pattern: a final `}` is its likely end.
        if (pattern.endsWith('}')) unbalanced(pattern, i + 1, pattern.length - 1, i, true);
        throw patternError('INVALID_PATTERN', pattern, i, "unclosed regex block '{^'");
      }
      if (end !== pattern.length - 1) {
        throw patternError('INVALID_PATTERN', pattern, end + 1, 'a regex block must end the pattern');
      }
      flush();
      pieces.push({ kind: 'regex', block: compileAt(pattern, i, pattern.slice(i + 1, end), true), index: i });
      i = end + 1;
    } else if (char === '*') {
      if (i !== pattern.length - 1) {
        throw patternError('INVALID_PATTERN', pattern, i, "'*' is only allowed as the last character");
      }
      flush();
      pieces.push({ kind: 'wildcard', index: i });
      i++;
    } else if (char === '}' || char === '?' || char === '#') {
      const reason = char === '}' ? "unmatched '}'" : `'${char}' is only allowed right after a parameter`;
      throw patternError('INVALID_PATTERN', pattern, i, reason);
    } else {
      written += char;
      i++;
    }
  }
  flush();
  validate(pattern, pieces);
  return pieces;
}

function compileAt(pattern: string, index: number, source: string, block: true): RegexBlock;
function compileAt(pattern: string, index: number, source: string, block: false): Constraint;
function compileAt(pattern: string, index: number, source: string, block: boolean): RegexBlock | Constraint {
  try {
    return block ? compileRegexBlock(source) : compileConstraint(source);
  } catch (error) {
    if (!(error instanceof ConstraintError)) throw error;
    // The position is where the constraint or block starts, as in the Rust core.
    const reason = `invalid ${block ? 'regex block' : 'constraint'} (${error.message} at offset ${error.offset})`;
    throw patternError('INVALID_CONSTRAINT', pattern, index, reason);
  }
}

/** `:name`, `{name}` with an optional `<constraint>` and `?`, in either order. */
function parseParam(pattern: string, start: number): { piece: ParamPiece; next: number } {
  const braced = pattern[start] === '{';
  let i = start + 1;
  while (isNameChar(pattern[i])) i++;
  if (i === start + 1) {
    const reason = braced && i >= pattern.length ? "unclosed '{'" : 'empty parameter name';
    throw patternError('INVALID_PATTERN', pattern, start, reason);
  }
  const name = pattern.slice(start + 1, i);
  let constraint: Constraint | null = null;
  let optional = false;
  for (;;) {
    if (pattern[i] === '<' && constraint === null) {
      const end = scanRegex(pattern, i + 1, '>');
      if (end === -2) unbalanced(pattern, i + 1, pattern.indexOf('>', i + 1), i + 1, false);
      if (end < 0) throw patternError('INVALID_PATTERN', pattern, i, "unclosed '<' of a constraint");
      if (end === i + 1) throw patternError('INVALID_CONSTRAINT', pattern, i + 1, 'empty constraint');
      constraint = compileAt(pattern, i + 1, pattern.slice(i + 1, end), false);
      i = end + 1;
    } else if (pattern[i] === '?' && !optional) {
      optional = true;
      i++;
    } else {
      break;
    }
  }
  if (braced) {
    if (i >= pattern.length) throw patternError('INVALID_PATTERN', pattern, start, "unclosed '{'");
    if (pattern[i] !== '}')
      throw patternError('INVALID_PATTERN', pattern, i, "unexpected character in '{…}'");
    i++;
  }
  return { piece: { kind: 'param', name, constraint, optional, index: start }, next: i };
}

/** Rules that need the whole piece list. */
function validate(pattern: string, pieces: Piece[]): void {
  const names = new Set<string>();
  const claim = (name: string, index: number): void => {
    if (names.has(name)) {
      throw patternError('DUPLICATE_PARAM', pattern, index, `duplicate parameter name '${name}'`);
    }
    names.add(name);
  };
  pieces.forEach((piece, k) => {
    if (piece.kind === 'param') {
      claim(piece.name, piece.index);
      const previous = pieces[k - 1];
      const wholeLastSegment =
        k === pieces.length - 1 && previous?.kind === 'static' && previous.text.endsWith('/');
      if (piece.optional && !wholeLastSegment) {
        throw patternError(
          'INVALID_OPTIONAL',
          pattern,
          piece.index,
          'an optional parameter must be the whole last segment (/search/:q/:page?)',
        );
      }
    } else if (piece.kind === 'wildcard' || piece.kind === 'regex') {
      if (sharesSegmentWithParam(pieces, k)) {
        const reason = 'a wildcard or regex block cannot share a path segment with a parameter';
        throw patternError('INVALID_PATTERN', pattern, piece.index, reason);
      }
      if (piece.kind === 'regex') {
        for (const group of piece.block.groups) if (group.name !== null) claim(group.name, piece.index);
      }
    }
  });
}

function sharesSegmentWithParam(pieces: Piece[], index: number): boolean {
  for (let k = index - 1; k >= 0; k--) {
    const piece = pieces[k];
    if (piece?.kind === 'static' && piece.text.includes('/')) return false;
    if (piece?.kind === 'param') return true;
  }
  return false;
}

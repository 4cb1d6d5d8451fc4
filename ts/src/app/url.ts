/**
 * URL generation for named routes: `route('tasks.show', { id: 42 })` → `/tasks/42`.
 *
 * The pattern is read piece by piece (the same syntax as SPEC §2); parameter values are percent-encoded
 * (a wildcard keeps its `/`), checked against the constraint the engine reports for them
 * (`RouteInfo.params[].regex`), and parameters the pattern does not use go to the query string. A missing
 * required parameter throws `MISSING_PARAMETER`, a value that fails its constraint `INVALID_PARAMETER`.
 */
import type { RouteInfo } from '../engine/engine.js';
import { RouteError } from '../errors.js';

export type UrlParams = Record<
  string,
  string | number | boolean | readonly (string | number)[] | null | undefined
>;

type Piece =
  | { kind: 'text'; text: string }
  | { kind: 'param'; name: string; optional: boolean }
  | { kind: 'wildcard' }
  | { kind: 'regex' };

/** Fills `pattern` with `params`. `info` supplies the constraints (optional: without it nothing is checked). */
export function generateUrl(pattern: string, info: RouteInfo | undefined, params: UrlParams = {}): string {
  const used = new Set<string>();
  let path = '';
  for (const piece of parsePattern(pattern)) {
    if (piece.kind === 'text') {
      path += piece.text;
      continue;
    }
    if (piece.kind === 'regex') {
      throw new RouteError(
        'INVALID_PARAMETER',
        `cannot generate a URL for ${pattern}: it contains a regex block`,
        {
          pattern,
        },
      );
    }
    const name = piece.kind === 'wildcard' ? '*' : piece.name;
    used.add(name);
    const raw = params[name];
    if (raw === undefined || raw === null || raw === '') {
      if (piece.kind === 'wildcard') continue;
      if (piece.optional) {
        // `/search/:q/:page?` without page → `/search/php`, not `/search/php/`.
        if (path.endsWith('/') && path.length > 1) path = path.slice(0, -1);
        continue;
      }
      throw new RouteError('MISSING_PARAMETER', `route ${pattern} needs the parameter "${name}"`, {
        pattern,
      });
    }
    const value = String(raw);
    checkConstraint(pattern, info, name, value);
    path +=
      piece.kind === 'wildcard'
        ? value.split('/').map(encodeURIComponent).join('/')
        : encodeURIComponent(value);
  }
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (used.has(name) || value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) query.append(name, String(item));
    else query.append(name, String(value));
  }
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

function checkConstraint(pattern: string, info: RouteInfo | undefined, name: string, value: string): void {
  const source = info?.params.find((p) => p.name === name)?.regex;
  if (source === null || source === undefined) return;
  const regex = compile(source);
  if (regex !== null && !regex.test(value)) {
    throw new RouteError(
      'INVALID_PARAMETER',
      `parameter "${name}" = ${JSON.stringify(value)} does not satisfy <${source}> of route ${pattern}`,
      { pattern },
    );
  }
}

const compiled = new Map<string, RegExp | null>();

/** The engine's constraints are Rust `regex` syntax; the common subset compiles in JavaScript too. A
 * constraint that does not compile here is not checked (the engine still enforces it when matching). */
function compile(source: string): RegExp | null {
  let regex = compiled.get(source);
  if (regex === undefined) {
    regex = null;
    for (const flags of ['u', '']) {
      try {
        regex = new RegExp(`^(?:${source})$`, flags);
        break;
      } catch {
        // try the next dialect
      }
    }
    compiled.set(source, regex);
  }
  return regex;
}

/** Splits a pattern into literal text and parameter pieces. */
function parsePattern(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let i = 0;
  const flush = () => {
    if (text !== '') pieces.push({ kind: 'text', text });
    text = '';
  };
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '*' && i === pattern.length - 1) {
      flush();
      pieces.push({ kind: 'wildcard' });
      i++;
    } else if (ch === ':' && /[A-Za-z_]/.test(pattern[i + 1] ?? '')) {
      flush();
      const name = /^[A-Za-z0-9_]+/.exec(pattern.slice(i + 1))?.[0] ?? '';
      i = skipConstraint(pattern, i + 1 + name.length);
      const optional = pattern[i] === '?';
      if (optional) i++;
      pieces.push({ kind: 'param', name, optional });
    } else if (ch === '{') {
      flush();
      if (pattern[i + 1] === '^') {
        pieces.push({ kind: 'regex' });
        i = pattern.length;
        continue;
      }
      const name = /^[A-Za-z0-9_]+/.exec(pattern.slice(i + 1))?.[0] ?? '';
      i = skipConstraint(pattern, i + 1 + name.length);
      const optional = pattern[i] === '?';
      if (optional) i++;
      if (pattern[i] === '}') i++;
      pieces.push({ kind: 'param', name, optional });
    } else {
      text += ch;
      i++;
    }
  }
  flush();
  return pieces;
}

/** Skips a `<…>` constraint starting at `i` (nested `<>` as in `(?P<x>…)` included). */
function skipConstraint(pattern: string, i: number): number {
  if (pattern[i] !== '<') return i;
  let depth = 0;
  for (; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '<') depth++;
    else if (ch === '>' && --depth === 0) return i + 1;
  }
  return i;
}

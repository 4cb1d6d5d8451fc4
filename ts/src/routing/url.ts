/**
 * URL generation for named routes: `route('tasks.show', { id: 42 })` → `/tasks/42`.
 *
 * The path is built from the pieces the core parsed (`RouteInfo.pieces`: this module never reads the
 * pattern's text, so `::` and every other spelling mean here what they mean to the matcher); values are percent-encoded
 * (a wildcard keeps its `/`), checked against the constraint the engine reports for them
 * (`RouteInfo.params[].regex`), and parameters the pattern does not use go to the query string. A missing
 * required parameter throws `MISSING_PARAMETER`, a value that fails its constraint `INVALID_PARAMETER`.
 */
import type { RouteInfo } from '../engine/engine.js';
import { RouteError } from '../errors.js';

/**
 * The values {@link generateUrl} and `app.url()` fill a pattern with: one per parameter, and any other
 * key goes to the query string (an array repeats it; `null` and `undefined` leave it out).
 *
 * @example
 * app.url('tasks.show', { id: 42, tab: 'notes' }); // '/tasks/42?tab=notes'
 */
export type UrlParams = Record<
  string,
  string | number | boolean | readonly (string | number)[] | null | undefined
>;

/** Fills the route's pattern (`info`, the engine's metadata of the route) with `params`. */
export function generateUrl(pattern: string, info: RouteInfo | undefined, params: UrlParams = {}): string {
  if (info === undefined) {
    throw new RouteError('UNKNOWN_ROUTE', `no route metadata for ${pattern}`, { pattern });
  }
  const used = new Set<string>();
  let path = '';
  for (const piece of info.pieces) {
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
    if (piece.kind === 'param') checkConstraint(pattern, name, piece.regex, value);
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

function checkConstraint(pattern: string, name: string, source: string | null, value: string): void {
  if (source === null) return;
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

/** Rust `regex` constructs that JavaScript reads differently or not at all: a POSIX class (`[[:digit:]]`
 * is a different class in JavaScript), `\x{41}`, `\A`, `\z`, inline flags `(?i)`. */
const RUST_ONLY = /\[\[:|\\x\{|\\[Az]|\(\?[a-zA-Z-]+\)/;

/** The engine's constraints are Rust `regex` syntax; the common subset compiles in JavaScript too. A
 * constraint outside it, or that does not compile here, is not checked (the engine still enforces it when
 * matching), rather than checked with a different meaning. */
function compile(source: string): RegExp | null {
  let regex = compiled.get(source);
  if (regex === undefined) {
    regex = null;
    if (RUST_ONLY.test(source)) {
      compiled.set(source, null);
      return null;
    }
    const js = source.replace(/\(\?P</g, '(?<');
    for (const flags of ['u', '']) {
      try {
        regex = new RegExp(`^(?:${js})$`, flags);
        break;
      } catch {
        // try the next dialect
      }
    }
    compiled.set(source, regex);
  }
  return regex;
}

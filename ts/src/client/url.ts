/**
 * A call's URL: the route's pattern pieces filled with its path parameters, then its query.
 *
 * The pieces are the core's parse of the pattern, written into the generated client (the client never
 * reads a pattern's text). A value is encoded so that the router decodes it back to itself: the router
 * matches the raw path and percent-decodes each value after the match (`%2F` is `/` inside a value, `+`
 * stays `+`: docs/ROUTING.md), so every character but the unreserved ones and the sub-delimiters a path
 * segment may hold raw (`! $ & ' ( ) * + , ; = : @`) is percent-encoded as UTF-8. Those are left raw because a
 * constraint sees the raw value: `/npm/@:pkg<[@\w.-]+>` must receive `@`, not `%40`. A wildcard keeps its
 * `/`. The query is written by `URLSearchParams`, which the server reads the query with; an array repeats
 * its key.
 */
import { ClientError } from './errors.js';

/** One piece of a route's pattern: literal text (already percent-encoded where it is not ASCII), or a parameter. */
export type UrlPiece =
  | string
  | { readonly param: string; readonly optional?: boolean }
  | { readonly wildcard: true };

/** The sub-delimiters, `:` and `@`: legal raw in a path segment, and decoded to themselves by the router. */
const RAW_IN_SEGMENT = /%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/g;

/** `value` as one path segment's worth of text that the router decodes back to `value`. */
export function encodePathValue(value: string): string {
  return encodeURIComponent(value).replace(RAW_IN_SEGMENT, (encoded) => decodeURIComponent(encoded));
}

/** A parameter's value as text; `undefined` for a value that is not given. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/**
 * The path of `pieces` filled with `params`. A missing required parameter, or a value that cannot reach
 * the server as itself (empty; `.` or `..`, which every URL parser removes as a dot segment), is a
 * {@link ClientError} naming the route.
 */
export function fillPath(
  route: string,
  pieces: readonly UrlPiece[],
  params: Record<string, unknown>,
): string {
  let path = '';
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      path += piece;
      continue;
    }
    const name = 'wildcard' in piece ? '*' : piece.param;
    const value = text(params[name]);
    if (value === undefined || value === '') {
      if ('wildcard' in piece) continue;
      if (piece.optional === true) {
        // `/search/:q/:page?` without page is `/search/php`, as the router matches it.
        if (path.endsWith('/') && path.length > 1) path = path.slice(0, -1);
        continue;
      }
      throw new ClientError('MISSING_PARAMETER', `${route}: the path parameter "${name}" is required`);
    }
    if ('wildcard' in piece) {
      path += value.split('/').map(encodePathValue).join('/');
      continue;
    }
    if (value === '.' || value === '..')
      throw new ClientError(
        'UNSENDABLE_PARAMETER',
        `${route}: the path parameter "${name}" cannot be "${value}" (a URL parser removes it as a dot segment)`,
      );
    path += encodePathValue(value);
  }
  return path;
}

/** The query string of `query` (`''` when empty), `?` included. `null` and `undefined` values are left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        const each = text(item);
        if (each !== undefined) search.append(name, each);
      }
      continue;
    }
    const one = text(value);
    if (one !== undefined) search.append(name, one);
  }
  const written = search.toString();
  return written === '' ? '' : `?${written}`;
}

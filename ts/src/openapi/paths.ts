/**
 * From the engine's route metadata to OpenAPI paths and path parameters (docs/OPENAPI.md):
 * `:id<int>` → `/x/{id}` with `{type: integer}`, `uuid` → string/uuid, `date` → string/date, any other
 * constraint → string with an anchored `pattern`; an optional trailing parameter gives two paths (with and
 * without it); a wildcard tail becomes a `{wildcard}` parameter; a `{^regex$}` block becomes one `{regex}`
 * parameter carrying the expression.
 *
 * Everything is read from the pieces the core parsed (`RouteInfo.pieces`): this module never parses a
 * pattern, so `/v1/:name::publish` is `/v1/{name}:publish` here as it is to the matcher. The path of an
 * `@api` tag is read by the same parser (`patternPieces`).
 */
import { type PatternPiece, patternPieces } from '../engine/index.js';
import type { JsonSchema } from './grammar/type-expr.js';
import type { RegisteredRoute } from './types.js';

/** A spelling-independent key for pieces: `/tasks/:id<int>`, `/tasks/{id}` → `/tasks/{id}`. */
export function piecesKey(pieces: readonly PatternPiece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'text') return p.text;
      if (p.kind === 'param') return `{${p.name}}`;
      if (p.kind === 'wildcard') return '{*}';
      return `{${p.source}}`;
    })
    .join('');
}

/** {@link piecesKey} of a path written in an `@api` tag, read as a route pattern; as written when it is
 * not a valid pattern (it then matches no route, which the caller reports). */
export function normalisePath(pattern: string): string {
  try {
    return piecesKey(patternPieces(pattern));
  } catch {
    return pattern;
  }
}

export interface PathParameter {
  name: string;
  schema: JsonSchema;
  description?: string;
}

export interface PathVariant {
  path: string;
  params: PathParameter[];
}

const FORMATS: Record<string, JsonSchema> = {
  int: { type: 'integer' },
  uuid: { type: 'string', format: 'uuid' },
  date: { type: 'string', format: 'date' },
};

/** Rust `regex` → ECMAScript for JSON Schema's `pattern`; anchored, as the engine anchors constraints. */
function anchored(regex: string): string {
  return `^(?:${regex.replace(/\(\?P</g, '(?<')})$`;
}

function constraintSchema(shortcut: string | null, regex: string | null): JsonSchema {
  if (shortcut !== null && FORMATS[shortcut]) return { ...FORMATS[shortcut] };
  if (regex !== null && regex !== '') return { type: 'string', pattern: anchored(regex) };
  return { type: 'string' };
}

function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
  return name;
}

function variantsOf(pieces: readonly PatternPiece[]): PathVariant[] {
  const taken = new Set<string>();
  for (const p of pieces) {
    if (p.kind === 'param') taken.add(p.name);
    else if (p.kind === 'regex') for (const name of p.captures) if (name !== null) taken.add(name);
  }
  let path = '';
  const params: PathParameter[] = [];
  const variants: PathVariant[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      path += piece.text;
      continue;
    }
    if (piece.kind === 'param') {
      if (piece.optional) {
        // The path without the optional parameter (and the `/` before it) is a path of its own.
        const short = path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path;
        variants.push({ path: short, params: [...params] });
      }
      params.push({ name: piece.name, schema: constraintSchema(piece.shortcut, piece.regex) });
      path += `{${piece.name}}`;
    } else if (piece.kind === 'wildcard') {
      const name = uniqueName('wildcard', taken);
      taken.add(name);
      params.push({
        name,
        schema: { type: 'string' },
        description: 'The rest of the path: may contain `/`, may be empty.',
      });
      path += `{${name}}`;
    } else {
      const name = uniqueName('regex', taken);
      taken.add(name);
      const source = piece.source.replace(/^\^/, '').replace(/\$$/, '');
      params.push({
        name,
        schema: { type: 'string', pattern: anchored(source) },
        description: `The rest of the path, matched by the regular expression \`${piece.source}\` (may contain \`/\`).`,
      });
      path += `{${name}}`;
    }
  }
  variants.push({ path, params });
  // A whole-path `{^regex$}` has no leading `/`; OpenAPI paths must start with one.
  return variants.map((v) => (v.path.startsWith('/') ? v : { ...v, path: `/${v.path}` }));
}

/**
 * The OpenAPI paths of a registered route: one, or two for an optional trailing parameter.
 *
 * @example
 * openApiPaths(route) // for /tasks/:id<int> → [{ path: '/tasks/{id}', params: [{ name: 'id', schema: { type: 'integer' } }] }]
 */
export function openApiPaths(route: RegisteredRoute): PathVariant[] {
  return variantsOf(route.info.pieces);
}

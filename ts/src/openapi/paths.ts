/**
 * From the engine's route metadata to OpenAPI paths and path parameters (SPEC §6):
 * `:id<int>` → `/x/{id}` with `{type: integer}`, `uuid` → string/uuid, `date` → string/date, any other
 * constraint → string with an anchored `pattern`; an optional trailing parameter gives two paths (with and
 * without it); a wildcard tail becomes a `{wildcard}` parameter; a `{^regex$}` block becomes one `{regex}`
 * parameter carrying the expression.
 *
 * The path's shape comes from the engine's normalised template; the parameters' types from its `params`.
 * The tokenizer reads both spellings (`:name<c>?` and `{name<c>}`), so it also serves to normalise the
 * path of an `@api` tag for matching.
 */
import type { ParamInfo } from '../engine/engine.js';
import type { JsonSchema } from './type-expr.js';
import type { RegisteredRoute } from './types.js';

type Piece =
  | { kind: 'literal'; text: string }
  | { kind: 'param'; name: string; constraint: string | null; optional: boolean }
  | { kind: 'wildcard' }
  | { kind: 'regex'; source: string };

/** Index just past the bracket that closes the one at `start`, counting nesting; skips `\` escapes. */
function closeBracket(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return text.length;
}

export function tokenize(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') pieces.push({ kind: 'literal', text: literal });
    literal = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] ?? '';
    // `{^…$}`, or any brace block that does not start with a name, is a regular-expression block.
    if (c === '{' && !/[A-Za-z_*]/.test(pattern[i + 1] ?? '')) {
      flush();
      const end = closeBracket(pattern, i, '{', '}');
      pieces.push({ kind: 'regex', source: pattern.slice(i + 1, end - 1) });
      i = end;
    } else if (c === '{' || (c === ':' && /[A-Za-z_]/.test(pattern[i + 1] ?? ''))) {
      flush();
      const braced = c === '{';
      let j = i + 1;
      while (j < pattern.length && /[\w*]/.test(pattern[j] ?? '')) j++;
      const name = pattern.slice(i + 1, j);
      let constraint: string | null = null;
      if (pattern[j] === '<') {
        const end = closeBracket(pattern, j, '<', '>');
        constraint = pattern.slice(j + 1, end - 1);
        j = end;
      }
      let optional = false;
      if (pattern[j] === '?') {
        optional = true;
        j++;
      }
      if (braced && pattern[j] === '}') j++;
      pieces.push(name === '*' ? { kind: 'wildcard' } : { kind: 'param', name, constraint, optional });
      i = j;
    } else if (c === '*' && i === pattern.length - 1) {
      flush();
      pieces.push({ kind: 'wildcard' });
      i++;
    } else {
      literal += c;
      i++;
    }
  }
  flush();
  return pieces;
}

/** A spelling-independent key for a path: `/tasks/:id<int>`, `/tasks/{id}` → `/tasks/{id}`. */
export function normalisePath(pattern: string): string {
  return tokenize(pattern)
    .map((p) => {
      if (p.kind === 'literal') return p.text;
      if (p.kind === 'param') return `{${p.name}}`;
      if (p.kind === 'wildcard') return '{*}';
      return `{${p.source}}`;
    })
    .join('');
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

function variantsOf(pieces: Piece[], infos: ParamInfo[]): PathVariant[] {
  const byName = new Map(infos.map((p) => [p.name, p]));
  const taken = new Set(infos.map((p) => p.name));
  let path = '';
  const params: PathParameter[] = [];
  const variants: PathVariant[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'literal') {
      path += piece.text;
      continue;
    }
    if (piece.kind === 'param') {
      if (piece.optional) {
        // The path without the optional parameter (and the `/` before it) is a path of its own.
        const short = path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path;
        variants.push({ path: short, params: [...params] });
      }
      const info = byName.get(piece.name);
      const schema = info
        ? constraintSchema(info.shortcut, info.regex)
        : constraintSchema(piece.constraint, piece.constraint);
      params.push({ name: piece.name, schema });
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
  const infos = route.info.params.filter((p) => p.kind !== 'regex-group');
  const fromTemplate = tokenize(route.info.template || route.pattern);
  const named = new Set(fromTemplate.flatMap((p) => (p.kind === 'param' ? [p.name] : [])));
  // Trust the template when it accounts for every parameter; otherwise read the registered pattern.
  const complete = infos.every((p) => p.kind === 'wildcard' || named.has(p.name));
  const pieces = complete ? fromTemplate : tokenize(route.pattern);
  const optionalNames = new Set(infos.filter((p) => p.optional).map((p) => p.name));
  for (const piece of pieces) {
    if (piece.kind === 'param' && optionalNames.has(piece.name)) piece.optional = true;
  }
  return variantsOf(pieces, infos);
}

/**
 * The small type language of `{…}` in `@param`, `@response`, `@property` and `@body`, and its JSON Schema
 * form.
 *
 *   type     := ['?'] base ['|null'] keyword*     nullable with a leading `?` or a trailing `|null`
 *   base     := integer | number | string | boolean | object | array | array<type> | SchemaName | inline
 *   inline   := '{' [field (',' field)*] '}'        an object written in place (TypeScript's spelling)
 *   field    := name ['?'] ':' type               `?`: optional; a field without it is required
 *   keyword  := name '=' value                    JSON Schema 2020-12's own names (below)
 *   value    := a JSON literal (`3`, `true`, `"a b"`, `["x","y"]`), else the bare text up to a space
 *
 *   {string minLength=1 maxLength=200}   {integer minimum=1 maximum=100 default=20}
 *   {string format=email}   {string pattern=^[a-z0-9-]+$}   {string enum=["draft","published"]}
 *   {array<string minLength=1> minItems=1 uniqueItems=true}   {?string deprecated=true example="n/a"}
 *   {{user: User, token: string}}   {array<{sku: string, qty: integer minimum=1}> minItems=1}
 *
 * The keywords go into the schema as they are, so validation enforces them and the document states them;
 * `example` becomes `examples: [value]` in 3.1 (`example` in 3.0.3), and an exclusive bound is written as
 * 3.0.3 spells it there. OpenAPI 3.1 writes nullability as `type: [t, 'null']`; 3.0.3 has
 * `nullable: true` and forbids siblings of `$ref`, so a described or nullable reference is wrapped in
 * `allOf` there.
 */
import type { OpenApiVersion } from '../types.js';

/** The JSON Schema keywords a type may carry, and which kinds of value each takes. */
const KEYWORDS: Readonly<Record<string, 'number' | 'count' | 'string' | 'boolean' | 'array' | 'any'>> = {
  minLength: 'count',
  maxLength: 'count',
  pattern: 'string',
  format: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minItems: 'count',
  maxItems: 'count',
  uniqueItems: 'boolean',
  minProperties: 'count',
  maxProperties: 'count',
  enum: 'array',
  const: 'any',
  default: 'any',
  example: 'any',
  deprecated: 'boolean',
  readOnly: 'boolean',
  writeOnly: 'boolean',
};

/** The keywords a type expression may use, for error messages and the docs. */
export const TYPE_KEYWORDS: readonly string[] = Object.keys(KEYWORDS);

/** Keywords of one type (`minLength`, `default`, …), as JSON values. */
export type TypeKeywords = Record<string, unknown>;

/** A parsed type expression. */
export type TypeExpr =
  | { kind: 'primitive'; name: Primitive; nullable: boolean; keywords?: TypeKeywords }
  | { kind: 'array'; items: TypeExpr; nullable: boolean; keywords?: TypeKeywords }
  | { kind: 'ref'; name: string; nullable: boolean; keywords?: TypeKeywords }
  | { kind: 'object'; fields: ObjectField[]; nullable: boolean; keywords?: TypeKeywords };

/** One field of an inline object type (`{name: string, note?: string}`). */
export interface ObjectField {
  name: string;
  type: TypeExpr;
  required: boolean;
}

const PRIMITIVES = ['integer', 'number', 'string', 'boolean', 'object'] as const;
type Primitive = (typeof PRIMITIVES)[number];

const SCHEMA_NAME = /^[A-Za-z_][\w.-]*$/;

/** Parses a type expression; `null` when it is malformed (an unknown keyword, a value of the wrong kind). */
export function parseType(text: string): TypeExpr | null {
  const [head, rest] = splitKeywords(text.trim());
  const base = parseBase(head);
  if (base === null || rest === '') return base;
  const keywords = parseKeywords(rest);
  return keywords === null ? null : { ...base, keywords };
}

function parseBase(text: string): TypeExpr | null {
  let source = text.trim();
  let nullable = false;
  if (source.startsWith('?')) {
    nullable = true;
    source = source.slice(1).trim();
  }
  if (/\|\s*null$/.test(source)) {
    nullable = true;
    source = source.replace(/\|\s*null$/, '').trim();
  }
  if (source === 'array')
    return { kind: 'array', items: { kind: 'primitive', name: 'string', nullable: false }, nullable };
  const array = /^array\s*<(.+)>$/.exec(source);
  if (array) {
    const items = parseType(array[1] ?? '');
    return items === null ? null : { kind: 'array', items, nullable };
  }
  if (source.startsWith('{') && source.endsWith('}')) {
    const fields = parseFields(source.slice(1, -1));
    return fields === null ? null : { kind: 'object', fields, nullable };
  }
  if ((PRIMITIVES as readonly string[]).includes(source)) {
    return { kind: 'primitive', name: source as Primitive, nullable };
  }
  if (source === 'int') return { kind: 'primitive', name: 'integer', nullable };
  if (source === 'float' || source === 'double') return { kind: 'primitive', name: 'number', nullable };
  if (source === 'bool') return { kind: 'primitive', name: 'boolean', nullable };
  return SCHEMA_NAME.test(source) ? { kind: 'ref', name: source, nullable } : null;
}

const FIELD = /^\s*(?:([A-Za-z_$][\w$-]*)|"((?:[^"\\]|\\.)*)")\s*(\?)?\s*:([\s\S]*)$/;

/** `a: string, b?: integer minimum=1` → its fields; `null` when one is malformed or a name repeats. */
function parseFields(text: string): ObjectField[] | null {
  const fields: ObjectField[] = [];
  if (text.trim() === '') return fields;
  for (const part of splitTopLevel(text, ',')) {
    const m = FIELD.exec(part);
    if (m === null) return null;
    const name = m[1] ?? JSON.parse(`"${m[2] ?? ''}"`);
    const type = parseType(m[4] ?? '');
    if (type === null || fields.some((f) => f.name === name)) return null;
    fields.push({ name, type, required: m[3] === undefined });
  }
  return fields;
}

/** `text` split at each `separator` outside `<…>`, `{…}`, `[…]`, `(…)` and double-quoted strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '<' || c === '{' || c === '[' || c === '(') depth++;
    else if (c === '>' || c === '}' || c === ']' || c === ')') depth--;
    else if (depth === 0 && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * `'array<string minLength=1> minItems=1'` → `['array<string minLength=1>', 'minItems=1']`: the type up to
 * the first space outside `<…>` and `{…}`, and the keywords after it.
 */
function splitKeywords(text: string): [string, string] {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"' && depth > 0) quoted = true;
    else if (c === '<' || c === '{') depth++;
    else if (c === '>' || c === '}') depth--;
    else if (depth === 0 && (c === ' ' || c === '\t')) {
      // `?T | null` spells nullability with spaces: still the type.
      const after = text.slice(i).trimStart();
      if (after.startsWith('|')) continue;
      const before = text.slice(0, i).trimEnd();
      if (before.endsWith('|')) continue;
      return [text.slice(0, i), after.trim()];
    }
  }
  return [text, ''];
}

/** `minLength=1 enum=["a","b"] pattern=^x$` → its keywords; `null` when one is unknown or ill-typed. */
function parseKeywords(text: string): TypeKeywords | null {
  const keywords: TypeKeywords = {};
  let rest = text;
  while (rest !== '') {
    const name = /^([A-Za-z]+)=/.exec(rest);
    const kind = name === null ? undefined : KEYWORDS[name[1] ?? ''];
    if (name === null || kind === undefined) return null;
    rest = rest.slice(name[0].length);
    const [value, after] = readValue(rest);
    if (value === undefined || !fits(kind, value)) return null;
    keywords[name[1] as string] = value;
    rest = after.trimStart();
  }
  return keywords;
}

/** One value: a JSON literal (a quoted string, an array, a number, `true`, `false`, `null`), else bare text. */
function readValue(text: string): [unknown, string] {
  const end = valueEnd(text);
  const raw = text.slice(0, end);
  if (raw === '') return [undefined, text];
  const json = /^["[{]/.test(raw) || /^(?:-?\d|true$|false$|null$)/.test(raw);
  if (json) {
    try {
      return [JSON.parse(raw), text.slice(end)];
    } catch {
      // A bare word that only starts like JSON (`2024-01-01`) is text.
      if (/^["[{]/.test(raw)) return [undefined, text];
    }
  }
  return [raw, text.slice(end)];
}

/** Where a value ends: its closing quote or bracket (JSON's nesting and escapes respected), else a space. */
function valueEnd(text: string): number {
  const open = text[0];
  if (open !== '"' && open !== '[' && open !== '{') {
    const space = text.search(/\s/);
    return space === -1 ? text.length : space;
  }
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') {
        quoted = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') quoted = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

function fits(kind: (typeof KEYWORDS)[string], value: unknown): boolean {
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'string':
      return typeof value === 'string' && value !== '';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.length > 0;
    default:
      return true;
  }
}

/** Schema names a type refers to (to report undefined ones). */
export function referencedSchemas(type: TypeExpr): string[] {
  if (type.kind === 'ref') return [type.name];
  if (type.kind === 'array') return referencedSchemas(type.items);
  if (type.kind === 'object') return type.fields.flatMap((field) => referencedSchemas(field.type));
  return [];
}

export type JsonSchema = Record<string, unknown>;

/**
 * @example
 * typeToSchema(parseType('array<Product>')!, '3.1.0') // { type: 'array', items: { $ref: '#/components/schemas/Product' } }
 */
export function typeToSchema(type: TypeExpr, version: OpenApiVersion, extra: JsonSchema = {}): JsonSchema {
  const keywords = type.keywords === undefined ? {} : keywordsSchema(type.keywords, version);
  let schema: JsonSchema;
  if (type.kind === 'ref') {
    const ref = { $ref: `#/components/schemas/${type.name}` };
    const siblings = { ...keywords, ...extra };
    const hasSiblings = Object.keys(siblings).length > 0;
    if (version === '3.0.3') {
      if (!type.nullable && !hasSiblings) return ref;
      return { allOf: [ref], ...(type.nullable ? { nullable: true } : {}), ...siblings };
    }
    if (type.nullable) return { oneOf: [ref, { type: 'null' }], ...siblings };
    return { ...ref, ...siblings };
  }
  if (type.kind === 'array') {
    schema = { type: 'array', items: typeToSchema(type.items, version) };
  } else if (type.kind === 'object') {
    const properties = Object.fromEntries(type.fields.map((f) => [f.name, typeToSchema(f.type, version)]));
    const required = type.fields.filter((f) => f.required).map((f) => f.name);
    schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  } else {
    schema = { type: type.name };
  }
  if (type.nullable) {
    if (version === '3.0.3') schema.nullable = true;
    else schema.type = [schema.type, 'null'];
  }
  return { ...schema, ...keywords, ...extra };
}

/** The keywords as the version writes them: `example` and the exclusive bounds differ in 3.0.3. */
function keywordsSchema(keywords: TypeKeywords, version: OpenApiVersion): JsonSchema {
  const out: JsonSchema = {};
  for (const [name, value] of Object.entries(keywords)) {
    if (name === 'example') Object.assign(out, schemaExample(value, version));
    else if (version === '3.0.3' && name === 'exclusiveMinimum')
      Object.assign(out, { minimum: value, exclusiveMinimum: true });
    else if (version === '3.0.3' && name === 'exclusiveMaximum')
      Object.assign(out, { maximum: value, exclusiveMaximum: true });
    else out[name] = value;
  }
  return out;
}

/** A schema-level example: `examples: [x]` in 3.1 (JSON Schema 2020-12), `example: x` in 3.0.3. */
export function schemaExample(example: unknown, version: OpenApiVersion): JsonSchema {
  return version === '3.0.3' ? { example } : { examples: [example] };
}

/**
 * `regex.exec(text)` where the text's first `{…}` is a type that may itself hold braces (a pattern's
 * `{3}`, an `enum` of objects): the regex sees `{_}` in its place, and group `group` gets the type back.
 */
export function execTyped(regex: RegExp, text: string, group: number): RegExpExecArray | null {
  const open = text.indexOf('{');
  const close = open === -1 ? -1 : closingBrace(text, open);
  if (close === -1) return regex.exec(text);
  const match = regex.exec(`${text.slice(0, open)}{_}${text.slice(close + 1)}`);
  if (match !== null && match[group] === '_') match[group] = text.slice(open + 1, close);
  return match;
}

/** The index of the `}` closing the `{` at `open` (nesting and double-quoted strings respected), or -1. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

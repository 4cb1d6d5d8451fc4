/**
 * The small type language of `{…}` in `@param`, `@response` and `@property`, and its JSON Schema form.
 *
 *   type := ['?'] base ['|null']       nullable with a leading `?` or a trailing `|null`
 *   base := integer | number | string | boolean | object | array | array<type> | SchemaName
 *
 * OpenAPI 3.1 writes nullability as `type: [t, 'null']`; 3.0.3 has `nullable: true` and forbids siblings
 * of `$ref`, so a described or nullable reference is wrapped in `allOf` there.
 */
import type { OpenApiVersion } from '../types.js';

export type TypeExpr =
  | { kind: 'primitive'; name: Primitive; nullable: boolean }
  | { kind: 'array'; items: TypeExpr; nullable: boolean }
  | { kind: 'ref'; name: string; nullable: boolean };

const PRIMITIVES = ['integer', 'number', 'string', 'boolean', 'object'] as const;
type Primitive = (typeof PRIMITIVES)[number];

const SCHEMA_NAME = /^[A-Za-z_][\w.-]*$/;

/** Parses a type expression; `null` when it is malformed. */
export function parseType(text: string): TypeExpr | null {
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
  if ((PRIMITIVES as readonly string[]).includes(source)) {
    return { kind: 'primitive', name: source as Primitive, nullable };
  }
  if (source === 'int') return { kind: 'primitive', name: 'integer', nullable };
  if (source === 'float' || source === 'double') return { kind: 'primitive', name: 'number', nullable };
  if (source === 'bool') return { kind: 'primitive', name: 'boolean', nullable };
  return SCHEMA_NAME.test(source) ? { kind: 'ref', name: source, nullable } : null;
}

/** Schema names a type refers to (to report undefined ones). */
export function referencedSchemas(type: TypeExpr): string[] {
  if (type.kind === 'ref') return [type.name];
  if (type.kind === 'array') return referencedSchemas(type.items);
  return [];
}

export type JsonSchema = Record<string, unknown>;

/**
 * @example
 * typeToSchema(parseType('array<Product>')!, '3.1.0') // { type: 'array', items: { $ref: '#/components/schemas/Product' } }
 */
export function typeToSchema(type: TypeExpr, version: OpenApiVersion, extra: JsonSchema = {}): JsonSchema {
  let schema: JsonSchema;
  if (type.kind === 'ref') {
    const ref = { $ref: `#/components/schemas/${type.name}` };
    const hasExtra = Object.keys(extra).length > 0;
    if (version === '3.0.3') {
      if (!type.nullable && !hasExtra) return ref;
      return { allOf: [ref], ...(type.nullable ? { nullable: true } : {}), ...extra };
    }
    if (type.nullable) return { oneOf: [ref, { type: 'null' }], ...extra };
    return { ...ref, ...extra };
  }
  if (type.kind === 'array') {
    schema = { type: 'array', items: typeToSchema(type.items, version) };
  } else {
    schema = { type: type.name };
  }
  if (type.nullable) {
    if (version === '3.0.3') schema.nullable = true;
    else schema.type = [schema.type, 'null'];
  }
  return { ...schema, ...extra };
}

/** A schema-level example: `examples: [x]` in 3.1 (JSON Schema 2020-12), `example: x` in 3.0.3. */
export function schemaExample(example: unknown, version: OpenApiVersion): JsonSchema {
  return version === '3.0.3' ? { example } : { examples: [example] };
}

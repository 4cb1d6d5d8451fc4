/**
 * JSON Schema → a TypeScript type expression, for the generated declarations (`arbor types:export`,
 * `arbor client:export`).
 *
 * Our own emitter rather than json-schema-to-typescript: what it reads is small and known (what the
 * annotations' contracts and the code-first converters write: `type`, `properties`/`required`, `items`,
 * `enum`, `const`, `anyOf`/`oneOf`/`allOf`, `$ref` to named definitions, `nullable`), what it writes is one
 * inline expression per part keyed into an interface (not a file of named declarations), and it writes two
 * readings of one schema: the value as sent (`input`) and the value the validator hands the handler
 * (`output`: coerced, a key with a `default` always present). json-schema-to-typescript is asynchronous,
 * dereferences with its own resolver, formats with prettier, and knows neither reading.
 */

/** A JSON Schema as the contracts write it. */
export type Schema = Record<string, unknown> | boolean;

/** Which value the type describes: as the client sends it, or as validation gives it to the handler. */
export type View = 'input' | 'output';

/** How `$ref`s are written: the TypeScript name of the definition a reference points at, or `null`. */
export type RefNamer = (ref: string, view: View) => string | null;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as TypeScript reads it: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSON value as a TypeScript literal type (`"a"`, `1`, `true`, `null`; objects and arrays structurally). */
function literal(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'unknown';
  if (Array.isArray(value)) return `readonly [${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${literal(v)}`);
  return `{ ${entries.join('; ')} }`;
}

const union = (types: readonly string[]): string => {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.map(wrap).join(' | ');
};

/** Parenthesises a union or an intersection where an array suffix or an intersection would bind wrongly. */
function wrap(type: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    else if (depth === 0 && (c === '|' || c === '&') && type[i - 1] === ' ') return `(${type})`;
  }
  return type;
}

/** A doc comment for a property, from its `description` (`*\/` cannot end it early). */
function docComment(schema: Schema, indent: string): string {
  if (typeof schema !== 'object') return '';
  const description = schema.description;
  if (typeof description !== 'string' || description.trim() === '') return '';
  const text = description
    .replace(/\*\//g, '*\\/')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return `${indent}/** ${text} */\n`;
}

/** Whether a property is always present in `view`: required, or (validated) given a default. */
function present(name: string, required: readonly string[], schema: Schema, view: View): boolean {
  if (required.includes(name)) return true;
  return view === 'output' && typeof schema === 'object' && 'default' in schema;
}

/**
 * The TypeScript type of `schema`, read as `view`. `indent` is the indentation of the line the expression
 * starts on (objects are written one property a line).
 *
 * @example
 * schemaType({ type: 'object', properties: { limit: { type: 'integer', default: 20 } } }, 'output', () => null);
 * // '{\n  limit: number;\n}'
 */
export function schemaType(schema: Schema | undefined, view: View, refs: RefNamer, indent = ''): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema.$ref === 'string') return refs(schema.$ref, view) ?? 'unknown';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return nullable(schema, union(schema.enum.map(literal)));
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    const own = hasType(rest) ? schemaType(rest, view, refs, indent) : null;
    const alternatives = union(variants.map((v) => schemaType(v, view, refs, indent)));
    return nullable(schema, own === null ? alternatives : `${wrap(own)} & (${alternatives})`);
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    const parts = (allOf as Schema[]).map((s) => wrap(schemaType(s, view, refs, indent)));
    if (hasType(rest)) parts.unshift(wrap(schemaType(rest, view, refs, indent)));
    const known = parts.filter((p) => p !== 'unknown');
    return known.length === 0 ? 'unknown' : known.join(' & ');
  }
  const declared = schema.type;
  const names = Array.isArray(declared)
    ? (declared as string[])
    : typeof declared === 'string'
      ? [declared]
      : [];
  if (names.length === 0) {
    // No `type`: what the other keywords say it is, else anything.
    if (schema.properties !== undefined) return nullable(schema, objectType(schema, view, refs, indent));
    if (schema.items !== undefined) return nullable(schema, arrayType(schema, view, refs, indent));
    return 'unknown';
  }
  return nullable(schema, union(names.map((name) => typeNamed(name, schema, view, refs, indent))));
}

function hasType(schema: Record<string, unknown>): boolean {
  return schema.type !== undefined || schema.properties !== undefined || schema.items !== undefined;
}

/** OpenAPI 3.0's `nullable: true`. */
function nullable(schema: Record<string, unknown>, type: string): string {
  return schema.nullable === true && type !== 'unknown' ? union([type, 'null']) : type;
}

function typeNamed(
  name: string,
  schema: Record<string, unknown>,
  view: View,
  refs: RefNamer,
  indent: string,
) {
  switch (name) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, view, refs, indent);
    case 'object':
      return objectType(schema, view, refs, indent);
    default:
      return 'unknown';
  }
}

function arrayType(schema: Record<string, unknown>, view: View, refs: RefNamer, indent: string): string {
  const prefix = schema.prefixItems;
  if (Array.isArray(prefix)) {
    const items = (prefix as Schema[]).map((s) => schemaType(s, view, refs, indent));
    const rest =
      schema.items === false ? '' : `, ...${wrap(schemaType(schema.items as Schema, view, refs, indent))}[]`;
    return `[${items.join(', ')}${rest}]`;
  }
  const items = schema.items as Schema | undefined;
  return `${wrap(schemaType(items, view, refs, indent))}[]`;
}

function objectType(schema: Record<string, unknown>, view: View, refs: RefNamer, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const additional = schema.additionalProperties as Schema | undefined;
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (additional === false) return 'Record<string, never>';
    return `Record<string, ${additional === undefined ? 'unknown' : schemaType(additional, view, refs, indent)}>`;
  }
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const property = properties[name] as Schema;
    const optional = present(name, required, property, view) ? '' : '?';
    return `${docComment(property, inner)}${inner}${propertyKey(name)}${optional}: ${schemaType(property, view, refs, inner)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

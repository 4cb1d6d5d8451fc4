/**
 * The schema tags: `@schema Name - text` starts a schema; `@property {type} name[.required|optional] - text`,
 * `@description` and `@example` that follow describe it (until the next `@schema`).
 */

import type { SchemaDoc } from '../types.js';
import type { BlockReader } from './block-reader.js';
import type { RawTag } from './tag-lexer.js';
import { execTyped, parseType } from './type-expr.js';

/** Every tag that may describe a schema (`@description` and `@example` describe an operation elsewhere). */
export const SCHEMA_TAGS: ReadonlySet<string> = new Set(['schema', 'property', 'description', 'example']);

const SCHEMA = /^([A-Za-z_][\w.-]*)(?:\s+-?\s*([\s\S]*))?$/;
const PROPERTY = /^\{([^}]+)\}\s+([^\s.{}]+)(?:\.(required|optional))?(?:\s+-?\s*([\s\S]*))?$/;

/** One of {@link SCHEMA_TAGS}: a new schema, or a piece of the reader's current one. */
export function readSchemaTag(reader: BlockReader, tag: RawTag): void {
  if (tag.name === 'schema') {
    readSchema(reader, tag);
    return;
  }
  const current = reader.schema;
  if (current === null) {
    reader.report('MALFORMED_TAG', tag.line, `@${tag.name} outside a @schema block`);
    return;
  }
  if (tag.name === 'description') current.description = tag.text;
  else if (tag.name === 'example') {
    const parsed = reader.parseJson(tag, tag.text);
    if (parsed.ok) current.example = parsed.value;
  } else readProperty(reader, tag, current);
}

/** `@schema Name - text`; a block's free text describes its first schema when the tag does not. */
function readSchema(reader: BlockReader, tag: RawTag): void {
  const name = SCHEMA.exec(tag.text);
  if (!name) {
    reader.report('MALFORMED_TAG', tag.line, `@schema needs a schema name, got "${tag.head}"`);
    return;
  }
  const schema: SchemaDoc = { name: name[1] ?? '', properties: [], file: reader.file, line: tag.line };
  if (name[2]) schema.description = name[2].trim();
  else if (reader.leading !== '' && reader.schemas.length === 0) schema.description = reader.leading;
  reader.schema = schema;
  reader.schemas.push(schema);
}

function readProperty(reader: BlockReader, tag: RawTag, schema: SchemaDoc): void {
  const m = execTyped(PROPERTY, tag.text, 1);
  if (!m || parseType(m[1] ?? '') === null) {
    const message = `malformed @property "${tag.head}" (expected "{type} name - text")`;
    reader.report('MALFORMED_PROPERTY', tag.line, message);
    schema.unreadable = [...(schema.unreadable ?? []), `${reader.file}:${tag.line}: ${message}`];
    return;
  }
  schema.properties.push({
    name: m[2] ?? '',
    type: (m[1] ?? '').trim(),
    description: (m[4] ?? '').trim(),
    required: m[3] === 'required',
    line: tag.line,
  });
}

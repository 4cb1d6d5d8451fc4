/**
 * Form fields: the `@param … name.formData` lines, which describe a `multipart/form-data` body — its
 * files (`{file}`, `{file[]}`) and its other fields (`{string}`, `{integer}`, …). One reading for the
 * document (operation.ts writes the `requestBody`) and for validation (contract.ts, then
 * `validation/form-check.ts`), so what the document promises is what a request is held to.
 *
 *   file type := 'file'                       one file
 *              | 'file[]' | 'array<file>'     any number of files in the field
 *              | 'file[n]'                    exactly n
 *              | 'file[n..m]' | 'file[n..]' | 'file[..m]'   between n and m
 *
 * @example
 * parseFileType('file[1..5]') // { multiple: true, min: 1, max: 5 }
 */
import { type JsonSchema, parseType, type TypeExpr } from './grammar/type-expr.js';
import type { OpenApiVersion, OperationDoc, ParamDoc } from './types.js';

/** A file field's shape: one file, or several with optional bounds on their number. */
export interface FileType {
  multiple: boolean;
  min: number | null;
  max: number | null;
}

const OCTET_STREAM = 'application/octet-stream';
const FILES = /^file\[(?:(\d+)|(\d*)\.\.(\d*))?\]$/;

/** Parses a file type; `null` when the text is not one (or a malformed one: `file[5..1]`). */
export function parseFileType(text: string): FileType | null {
  const source = text.replace(/\s+/g, '');
  if (source === 'file') return { multiple: false, min: null, max: null };
  if (source === 'array<file>') return { multiple: true, min: null, max: null };
  const m = FILES.exec(source);
  if (!m) return null;
  const bound = (digits: string | undefined) =>
    digits === undefined || digits === '' ? null : Number(digits);
  const min = bound(m[1] ?? m[2]);
  const max = bound(m[1] ?? m[3]);
  if (min !== null && max !== null && min > max) return null;
  if (max === 0) return null; // a field that may hold no file at all documents nothing
  return { multiple: true, min, max };
}

/**
 * Whether a type text speaks of files (`file`, `?file`, `file[x]`, `array<file>`), well-formed or not: such
 * a text is never read as a reference to a schema named `file`, and is refused outside `.formData`.
 */
export function namesFile(text: string): boolean {
  return /(?:^|[^\w.-])file(?:$|[^\w.-])/.test(text.trim());
}

/** An operation's body is JSON when it has `@body` or `.body.` fields; form fields beside them are left out. */
export function hasJsonBody(doc: OperationDoc): boolean {
  return doc.body !== undefined || doc.params.some((p) => p.in === 'body');
}

/** The operation's form fields, in the order written; none when its body is JSON (see `MIXED_BODY`). */
export function formParams(doc: OperationDoc): ParamDoc[] {
  return hasJsonBody(doc) ? [] : doc.params.filter((p) => p.in === 'formData');
}

/**
 * The `Content-Type` a file part is documented with in 3.1's `contentMediaType`: the declared type when
 * there is exactly one and it is not a range, else `application/octet-stream`, raw bytes (3.1's migration of
 * 3.0's `format: binary`). Declared types are also written as the part's `encoding.contentType`, which is
 * where OpenAPI 3.1.1 looks for a multipart part's type (a `contentMediaType` it disagrees with is ignored).
 */
function partMediaType(media: readonly string[]): string {
  const [only] = media;
  return media.length === 1 && only !== undefined && !only.endsWith('/*') ? only : OCTET_STREAM;
}

/**
 * The schema of a file field. 3.0.3: `type: string, format: binary`. 3.1: no `type` (raw bytes are not a
 * JSON string) and a `contentMediaType`, which is also what makes Swagger UI offer a file picker.
 * Several files: an array of those, with `minItems` / `maxItems` for the bounds.
 */
export function fileSchema(
  type: FileType,
  media: readonly string[],
  version: OpenApiVersion,
  extra: JsonSchema = {},
): JsonSchema {
  const one: JsonSchema =
    version === '3.0.3' ? { type: 'string', format: 'binary' } : { contentMediaType: partMediaType(media) };
  if (!type.multiple) return { ...one, ...extra };
  return {
    type: 'array',
    items: one,
    ...(type.min !== null ? { minItems: type.min } : {}),
    ...(type.max !== null ? { maxItems: type.max } : {}),
    ...extra,
  };
}

/**
 * The `multipart/form-data` media type object of an operation's form fields: an object schema with a
 * property per field and the required ones listed, and an `encoding` entry per file field that declares
 * its media types. `schemaOf` writes a plain field's schema (the exporter's, which records `$ref`s).
 */
export function formMediaType(
  fields: readonly ParamDoc[],
  version: OpenApiVersion,
  schemaOf: (field: ParamDoc, extra: JsonSchema) => JsonSchema,
): { schema: JsonSchema; encoding?: Record<string, { contentType: string }> } {
  const properties: Record<string, JsonSchema> = {};
  const encoding: Record<string, { contentType: string }> = {};
  for (const field of fields) {
    const extra = field.description === '' ? {} : { description: field.description };
    const file = parseFileType(field.type);
    properties[field.name] =
      file === null ? schemaOf(field, extra) : fileSchema(file, field.media ?? [], version, extra);
    if (file !== null && field.media !== undefined && field.media.length > 0)
      encoding[field.name] = { contentType: field.media.join(', ') };
  }
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const schema: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return Object.keys(encoding).length > 0 ? { schema, encoding } : { schema };
}

/** What validation holds a file field to. */
export interface FileContract {
  name: string;
  required: boolean;
  /** `{file[]}`: several files allowed; `{file}`: one. */
  multiple: boolean;
  min: number | null;
  max: number | null;
  /** Declared media types (`image/*` ranges allowed); empty: any. */
  media: string[];
}

/** What validation holds a plain form field to. */
export interface FieldContract {
  name: string;
  required: boolean;
  /** The declared type's schema (checked after coercing the string value, like a query parameter). */
  schema: JsonSchema;
  /** Declared as an array: the field may be sent several times, every value is checked. */
  array: boolean;
  /** An object or a `@schema` type: each value is JSON text (multipart's `application/json` part). */
  json: boolean;
}

/** A `multipart/form-data` body's contract: `null` for an operation without form fields. */
export interface FormContract {
  files: FileContract[];
  fields: FieldContract[];
}

/** The form contract of an operation; `toSchema` writes a type's schema in the contract's spelling. */
export function formContract(
  doc: OperationDoc,
  toSchema: (type: TypeExpr) => JsonSchema,
): FormContract | null {
  const params = formParams(doc);
  if (params.length === 0) return null;
  const files: FileContract[] = [];
  const fields: FieldContract[] = [];
  for (const p of params) {
    const file = parseFileType(p.type);
    if (file !== null) {
      files.push({ name: p.name, required: p.required, ...file, media: p.media ?? [] });
      continue;
    }
    const type = parseType(p.type);
    if (type === null) continue;
    const item = type.kind === 'array' ? type.items : type;
    const json =
      item.kind === 'ref' || item.kind === 'object' || (item.kind === 'primitive' && item.name === 'object');
    fields.push({
      name: p.name,
      required: p.required,
      schema: toSchema(type),
      array: type.kind === 'array',
      json,
    });
  }
  return { files, fields };
}

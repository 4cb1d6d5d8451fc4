/**
 * One OpenAPI operation object from a route variant and its annotation doc (or none: then the path
 * parameters and a default response, so undocumented routes still appear).
 */
import { STATUS_CODES } from '../http/status-codes.js';
import { formMediaType, formParams } from './form.js';
import { type JsonSchema, parseType, referencedSchemas, typeToSchema } from './grammar/type-expr.js';
import { isEventStream, isFileResponse, responseMediaTypes } from './media.js';
import type { PathVariant } from './paths.js';
import type { OpenApiVersion, OperationDoc, ParamDoc, ResponseDoc } from './types.js';

/** A type reference found while building, with where it was written (for "undefined schema"). */
export interface TypeUse {
  schema: string;
  file: string;
  line: number;
}

export interface BuildContext {
  version: OpenApiVersion;
  /** Collects every schema name referenced, for the undefined-schema check. */
  uses: TypeUse[];
}

function schemaOf(type: string, ctx: BuildContext, file: string, line: number, extra: JsonSchema = {}) {
  const parsed = parseType(type);
  // The grammar already rejected malformed types; a string is the harmless fallback.
  if (parsed === null) return { type: 'string', ...extra };
  for (const schema of referencedSchemas(parsed)) ctx.uses.push({ schema, file, line });
  return typeToSchema(parsed, ctx.version, extra);
}

function describe(text: string): { description?: string } {
  return text === '' ? {} : { description: text };
}

function pathParameters(variant: PathVariant, doc: OperationDoc | undefined, ctx: BuildContext) {
  return variant.params.map((param) => {
    const written = doc?.params.find((p) => p.in === 'path' && p.name === param.name);
    // The engine's constraint is the truth about what matches; the annotation's type only refines an
    // unconstrained parameter (`:id` documented as `{integer}`).
    const unconstrained = Object.keys(param.schema).length === 1 && param.schema.type === 'string';
    const schema =
      written && unconstrained && doc ? schemaOf(written.type, ctx, doc.file, written.line) : param.schema;
    const description = written?.description || param.description || '';
    return { name: param.name, in: 'path', required: true, ...describe(description), schema };
  });
}

function requestBody(doc: OperationDoc, ctx: BuildContext): Record<string, unknown> | null {
  const form = formParams(doc);
  if (form.length > 0) return formBody(doc, form, ctx);
  const body = doc.params.filter((p) => p.in === 'body');
  if (body.length === 0 && doc.body === undefined && doc.requestExample === undefined) return null;
  const properties: Record<string, JsonSchema> = {};
  for (const p of body) properties[p.name] = schemaOf(p.type, ctx, doc.file, p.line, describe(p.description));
  const required = body.filter((p) => p.required).map((p) => p.name);
  const fields: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  // `@body {Type}` is the whole body; `.body.` fields beside it add to it (both must hold).
  const whole = doc.body === undefined ? null : schemaOf(doc.body.type, ctx, doc.file, doc.body.line);
  const schema: JsonSchema = whole === null ? fields : body.length === 0 ? whole : { allOf: [whole, fields] };
  const media: Record<string, unknown> = { schema };
  if (doc.requestExample !== undefined) media.example = doc.requestExample;
  return {
    ...(doc.body?.description ? { description: doc.body.description } : {}),
    required: required.length > 0 || doc.body?.required === true,
    content: { 'application/json': media },
  };
}

/** `.formData` fields: a `multipart/form-data` body (see form.ts for the schema of a file). */
function formBody(
  doc: OperationDoc,
  fields: readonly ParamDoc[],
  ctx: BuildContext,
): Record<string, unknown> {
  const media: Record<string, unknown> = formMediaType(fields, ctx.version, (field, extra) =>
    schemaOf(field.type, ctx, doc.file, field.line, extra),
  );
  if (doc.requestExample !== undefined) media.example = doc.requestExample;
  return { required: fields.some((f) => f.required), content: { 'multipart/form-data': media } };
}

function responses(doc: OperationDoc | undefined, ctx: BuildContext): Record<string, unknown> {
  if (!doc || (doc.responses.length === 0 && Object.keys(doc.responseExamples).length === 0)) {
    return { default: { description: 'Response' } };
  }
  const mediaTypes = doc.produces.length > 0 ? doc.produces : ['application/json'];
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of doc.responses) {
    const response: Record<string, unknown> = {
      description: r.description || STATUS_CODES[Number(r.status)] || 'Response',
    };
    const example = doc.responseExamples[r.status];
    // A media type written on the line documents a body even without a type (`@response 200 text/csv`).
    if (r.type !== null || example !== undefined || r.media !== undefined) {
      response.content = Object.fromEntries(
        responseMediaTypes(doc, r).map((m) => {
          const media = mediaObject(doc, r, m, ctx);
          if (example !== undefined) media.example = example;
          return [m, media];
        }),
      );
    }
    out[r.status] = response;
  }
  // An example for a status without a @response line still documents that status.
  for (const [status, example] of Object.entries(doc.responseExamples)) {
    if (out[status]) continue;
    out[status] = {
      description: STATUS_CODES[Number(status)] ?? 'Response',
      content: Object.fromEntries(mediaTypes.map((m) => [m, { example }])),
    };
  }
  return out;
}

/**
 * One media type of a response. A file is raw bytes: `type: string, format: binary` in 3.0.3; in 3.1 a
 * schema without `type` whose `contentMediaType` is the media type (the 3.1 specification's migration of
 * `format: binary`: a `type: string` would claim a JSON string). An event stream is text whatever its
 * events carry: a string, whose description names the type of each event's data.
 */
function mediaObject(
  doc: OperationDoc,
  r: ResponseDoc,
  media: string,
  ctx: BuildContext,
): Record<string, unknown> {
  if (isFileResponse(r)) {
    const schema =
      ctx.version === '3.0.3' ? { type: 'string', format: 'binary' } : { contentMediaType: media };
    return { schema };
  }
  if (isEventStream(media)) {
    const item = r.type === null ? null : parseType(r.type);
    if (item === null || (item.kind === 'primitive' && item.name === 'string')) {
      return { schema: { type: 'string' } };
    }
    for (const schema of referencedSchemas(item)) ctx.uses.push({ schema, file: doc.file, line: r.line });
    const description = `Server-Sent Events; each event's data: ${r.type?.trim()}, as JSON`;
    return { schema: { type: 'string', description } };
  }
  return r.type === null ? {} : { schema: schemaOf(r.type, ctx, doc.file, r.line) };
}

export function buildOperation(
  variant: PathVariant,
  doc: OperationDoc | undefined,
  operationId: string,
  ctx: BuildContext,
): Record<string, unknown> {
  const op: Record<string, unknown> = {};
  if (doc?.tags.length) op.tags = [...new Set(doc.tags)];
  if (doc?.summary) op.summary = doc.summary;
  if (doc?.description) op.description = doc.description;
  op.operationId = operationId;
  const parameters: Record<string, unknown>[] = pathParameters(variant, doc, ctx);
  for (const p of doc?.params ?? []) {
    if (p.in === 'path' || p.in === 'body' || p.in === 'formData') continue;
    parameters.push({
      name: p.name,
      in: p.in,
      required: p.required,
      ...describe(p.description),
      schema: schemaOf(p.type, ctx, doc?.file ?? '', p.line),
    });
  }
  if (parameters.length) op.parameters = parameters;
  const body = doc ? requestBody(doc, ctx) : null;
  if (body) op.requestBody = body;
  op.responses = responses(doc, ctx);
  if (doc?.deprecated) op.deprecated = true;
  if (doc?.security.length) op.security = securityRequirements(doc);
  return op;
}

/**
 * `@security` lines are alternatives; `@security none` is the anonymous one (`{}`), so `none` beside
 * `bearerAuth` says the operation takes a token but does not need one (`[{}, { bearerAuth: [] }]`), and
 * `none` alone says it is public (`[]`).
 */
function securityRequirements(doc: OperationDoc): Record<string, string[]>[] {
  const requirements = doc.security.map((s) => (s.scheme === ANONYMOUS_SCHEME ? {} : { [s.scheme]: [] }));
  return requirements.every((r) => Object.keys(r).length === 0) ? [] : requirements;
}

/** The `@security` name of the anonymous alternative. */
export const ANONYMOUS_SCHEME = 'none';

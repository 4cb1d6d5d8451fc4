/**
 * A route's contract as JSON Schema, from the same annotations that write its OpenAPI operation: what the
 * framework's validation (`new Application({ validate: true })`, `validation/validation.ts`) compiles with ajv.
 * One reading of the annotations serves the document and the checks, so they cannot disagree.
 *
 * Schemas are in the 3.1 spelling (JSON Schema: `type: ['string', 'null']` for nullable), with the
 * `@schema` components under `definitions` and `$ref`s pointing there.
 */
import type { ParamInfo } from '../engine/engine.js';
import { type FormContract, formContract } from './form.js';
import { type JsonSchema, parseType, typeToSchema } from './grammar/type-expr.js';
import { isFileResponse, isJsonMedia, responseMediaTypes } from './media.js';
import type { AnnotationSet, OperationDoc } from './types.js';

/** Where a checked parameter is read. Cookies are documented, not checked. */
export type CheckedLocation = 'path' | 'query' | 'header';

export interface ParamContract {
  name: string;
  in: CheckedLocation;
  required: boolean;
  /** The declared type's schema (validated after coercing the string value). */
  schema: JsonSchema;
  /** Declared as an array: every value of a repeated query parameter is checked. */
  array: boolean;
  /**
   * Whether validation can refuse it. A parameter that cannot be refused (an optional plain string, a path
   * parameter the engine already constrained) is still read, so that `req.valid(part)` has every declared
   * value, but gives the operation no 400.
   */
  refusable: boolean;
}

export interface RouteContract {
  params: ParamContract[];
  /** The JSON body's schema (`@body`, and an object with the `.body.` fields), or `null` when none is declared. */
  body: JsonSchema | null;
  /** The `multipart/form-data` body's fields and files (`.formData`), or `null` when none is declared. */
  form: FormContract | null;
  /** Documented responses by status (`'200'`, `'4XX'`, `'default'`). */
  responses: Record<string, ResponseContract>;
}

/** What response validation knows of one documented status. */
export interface ResponseContract {
  /**
   * The JSON body's schema; `null` when there is nothing to check: no type, a `{file}`, or no JSON media
   * type (an event stream, `text/csv`): the document's schema describes those, it does not bind them.
   */
  schema: JsonSchema | null;
  /** The status's non-JSON media types: a body sent as one of them is not checked against `schema`. */
  otherMedia: string[];
}

const COMPONENTS = '#/components/schemas/';
const DEFINITIONS = '#/definitions/';

/** The `@schema` components as JSON Schema definitions (what `$ref`s in a contract resolve against). */
export function contractDefinitions(annotations: AnnotationSet): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, doc] of Object.entries(annotations.schemas)) {
    const properties: Record<string, JsonSchema> = {};
    for (const p of doc.properties) {
      const type = parseType(p.type);
      if (type !== null) properties[p.name] = toDefinitions(typeToSchema(type, '3.1.0'));
    }
    const required = doc.properties.filter((p) => p.required).map((p) => p.name);
    out[name] = { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  return out;
}

/**
 * The contract of one operation. Every declared parameter is read (so `req.valid(part)` has it, coerced,
 * its default applied); those validation can never refuse — an optional plain string, a path parameter
 * with an engine constraint (the route only matched because the value passed it) — are marked so.
 */
export function routeContract(doc: OperationDoc, engineParams: readonly ParamInfo[]): RouteContract {
  const params: ParamContract[] = [];
  for (const p of doc.params) {
    if (p.in === 'body' || p.in === 'cookie' || p.in === 'formData') continue;
    let constrained = false;
    if (p.in === 'path') {
      const engine = engineParams.find((e) => e.name === p.name);
      if (engine === undefined) continue;
      if (engine.kind !== 'param' && engine.kind !== 'optional') continue; // a wildcard or a regex group
      constrained = engine.regex !== null;
    }
    const type = parseType(p.type);
    if (type === null) continue;
    const required = p.in === 'path' ? false : p.required;
    // Any string, and allowed to be absent: nothing to check (nor to coerce, nor a default to apply).
    const anyString =
      !required && type.kind === 'primitive' && type.name === 'string' && !type.nullable && !type.keywords;
    params.push({
      name: p.in === 'header' ? p.name.toLowerCase() : p.name,
      in: p.in,
      // A path parameter is present whenever the route matched; an optional one may be absent.
      required,
      schema: toDefinitions(typeToSchema(type, '3.1.0')),
      array: type.kind === 'array',
      // The route only matched because the value passed the engine's constraint, which wins in the
      // document too; the annotation's type still coerces it (`:id<int>` + `{integer}`: a number).
      refusable: !anyString && !constrained,
    });
  }
  const fields = doc.params.filter((p) => p.in === 'body');
  let body: JsonSchema | null = null;
  if (fields.length > 0) {
    const properties: Record<string, JsonSchema> = {};
    for (const p of fields) {
      const type = parseType(p.type);
      if (type !== null) properties[p.name] = toDefinitions(typeToSchema(type, '3.1.0'));
    }
    const required = fields.filter((p) => p.required).map((p) => p.name);
    body = { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  // `@body {Type}`: the whole body, with the fields beside it if any (as the document's allOf).
  const whole = doc.body === undefined ? null : parseType(doc.body.type);
  if (whole !== null) {
    const schema = toDefinitions(typeToSchema(whole, '3.1.0'));
    body = body === null ? schema : { allOf: [schema, body] };
  }
  const responses: Record<string, ResponseContract> = {};
  for (const r of doc.responses) {
    const media = responseMediaTypes(doc, r);
    const json = media.some(isJsonMedia);
    const type = r.type === null || isFileResponse(r) || !json ? null : parseType(r.type);
    responses[r.status] = {
      schema: type === null ? null : toDefinitions(typeToSchema(type, '3.1.0')),
      otherMedia: media.filter((m) => !isJsonMedia(m)),
    };
  }
  const form = formContract(doc, (type) => toDefinitions(typeToSchema(type, '3.1.0')));
  return { params, body, form, responses };
}

/**
 * True when validation can refuse a request to this operation (so the document lists the 400). A form
 * always can: a file field refuses several files, a single-valued field refuses to be sent twice.
 */
export function hasRequestChecks(contract: RouteContract): boolean {
  return contract.params.some((p) => p.refusable) || contract.body !== null || contract.form !== null;
}

/** Points `$ref`s at `definitions` (a copy). */
function toDefinitions(schema: JsonSchema): JsonSchema {
  return JSON.parse(
    JSON.stringify(schema, (key, value) =>
      key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENTS)
        ? DEFINITIONS + value.slice(COMPONENTS.length)
        : value,
    ),
  ) as JsonSchema;
}

/** One violation in a validation refusal. */
const VIOLATION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['in', 'name', 'pointer', 'keyword', 'message'],
  properties: {
    in: { type: 'string', enum: ['path', 'query', 'header', 'cookie', 'body'] },
    name: { type: 'string', description: "The parameter or body field ('' for the body itself)" },
    pointer: {
      type: 'string',
      description: "The same place as a JSON Pointer into the part ('' for the whole)",
    },
    keyword: { type: 'string', description: 'The JSON Schema keyword broken (required, minLength, type, …)' },
    message: { type: 'string' },
  },
};

/**
 * An RFC 9457 problem document (`problemDetails`), as a validation refusal has it: the violations are
 * its `errors` member.
 */
export const PROBLEM_DOCUMENT_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'A URI naming the kind of problem (`about:blank` by default)' },
    title: { type: 'string', description: "The status's reason phrase" },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What is wrong, in one sentence' },
    instance: { type: 'string', description: 'The request path' },
    errors: {
      type: 'array',
      description: 'A validation refusal: one entry per violation',
      items: VIOLATION_SCHEMA,
    },
  },
};

/** The body of the 400 that validation answers, as the document states it. */
export const VALIDATION_PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', 'code', 'details'],
  properties: {
    error: { type: 'string', description: 'What is wrong, in one sentence' },
    code: { type: 'integer', description: '400' },
    details: { type: 'array', description: 'One entry per violation', items: VIOLATION_SCHEMA },
  },
};

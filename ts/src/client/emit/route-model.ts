/**
 * Every route's contract as JSON Schema, part by part, for the generated declarations: read from the same
 * places the framework reads them — the annotations' contract (`openapi/contract.ts`, what ajv compiles for
 * `validate`) and a route's code-first `schema` option (converted as the OpenAPI document converts it) —
 * plus what only the route table knows (the path parameters, the pattern's pieces, the name).
 *
 * Two readings: `request` is what a client sends (every documented parameter, as its type says), `valid`
 * what a validated doc-comment route's handler reads from `req.valid(part)`: the checked parameters only,
 * coerced, keyed by location as the validator builds them.
 */
import { isDocsRoute, operationKey, readAnnotations } from '../../openapi/annotations/annotations.js';
import { contractDefinitions, type RouteContract, routeContract } from '../../openapi/contract.js';
import { openApiPaths } from '../../openapi/paths.js';
import type {
  AnnotationSet,
  CodeContractDocument,
  DocumentSource,
  ExportOptions,
  OperationDoc,
} from '../../openapi/types.js';
import type { RegisteredRoute } from '../../routing/route.js';
import { fieldsSchema } from '../../validation/form-check.js';
import type { UrlPiece } from '../url.js';
import { answers, documentOf } from './answers.js';
import type { Schema } from './schema-type.js';

/** The request parts, as `req.valid(part)` and a client call name them. */
export type Part = 'params' | 'query' | 'headers' | 'cookies' | 'body';

/** One route and one method. */
export interface ModelRoute {
  /** `'GET /tasks/:id'`: the key of the generated entries. */
  key: string;
  method: string;
  pattern: string;
  name: string | null;
  /** The pattern's pieces for the client; `null` when it holds a regex block (the client cannot fill it). */
  path: UrlPiece[] | null;
  /** What a client sends, part by part (an object schema each; the body as its schema, or `'form'`). */
  request: Partial<Record<Exclude<Part, 'body'>, Schema>> & { body?: Schema | 'form' };
  /** What `req.valid(part)` gives a validated doc-comment route's handler; `null` when nothing is (or the route's own schema types it). */
  valid: Partial<Record<Part, Schema>> | null;
  /** The answers by status (`'200'`, `'4XX'`, `'default'`): each a list of schemas, the union of which is the body. */
  responses: Record<string, Schema[]>;
}

/** The routes and the named schemas (`@schema`) their `$ref`s point at. */
export interface RouteModel {
  routes: ModelRoute[];
  definitions: Record<string, Schema>;
}

/** What the model reads of an application: the exporter's view of it, its routes as the route table gives them. */
export type ModelSource = Omit<DocumentSource, 'routeTable'> & { routeTable(): RegisteredRoute[] };

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** What a client may send as a parameter the contract leaves unchecked. */
const ANY_TEXT: Schema = { type: ['string', 'number'] };

/**
 * The model of `app`'s routes. The annotations are `options.annotations`, else the route cache's, else
 * read from the sources (with `options.sources` added), as the exporter and the validator read them.
 */
export function routeModel(
  app: ModelSource,
  options: { sources?: readonly string[]; annotations?: AnnotationSet; exportOptions?: ExportOptions } = {},
): RouteModel {
  const routes = app.routeTable().filter((r) => !isDocsRoute(r) && r.webSocket !== true);
  const annotations =
    options.annotations ??
    app.cachedAnnotations?.() ??
    readAnnotations(routes, { sources: [...(options.sources ?? [])] });
  const model: RouteModel = {
    routes: [],
    definitions: contractDefinitions(annotations) as Record<string, Schema>,
  };
  const document = documentOf(app, annotations, options.exportOptions);
  for (const route of routes) {
    const code = app.codeSchemas?.(route, 'draft-2020-12') ?? null;
    const path = openApiPaths(route)[0]?.path;
    for (const method of route.methods) {
      if (!METHODS.has(method)) continue;
      const doc = annotations.operations[operationKey(method, route.pattern)];
      const operation = path === undefined ? undefined : document.paths[path]?.[method.toLowerCase()];
      model.routes.push(modelRoute(route, method, doc, code, answers(document, operation)));
    }
  }
  return model;
}

function modelRoute(
  route: RegisteredRoute,
  method: string,
  doc: OperationDoc | undefined,
  code: CodeContractDocument | null,
  responses: Record<string, Schema[]>,
): ModelRoute {
  const contract = doc === undefined ? null : routeContract(doc, route.info.params);
  const request: ModelRoute['request'] = {};
  const params = pathParams(route, contract, code);
  if (params !== null) request.params = params;
  for (const [part, location] of [
    ['query', 'query'],
    ['headers', 'header'],
    ['cookies', 'cookie'],
  ] as const) {
    const schema = code?.[part] ?? documentedParams(doc, contract, location);
    if (schema !== null) request[part] = inline(schema);
  }
  if (code?.body !== undefined) request.body = inline(code.body);
  else if (contract !== null && contract.form !== null) request.body = 'form';
  else if (contract !== null && contract.body !== null) request.body = contract.body as Schema;

  for (const [status, schemas] of Object.entries(responses)) responses[status] = schemas.map(inline);

  return {
    key: `${method} ${route.pattern}`,
    method,
    pattern: route.pattern,
    name: route.name,
    path: urlPieces(route),
    request,
    valid:
      code === null && route.validated === true && contract !== null
        ? validParts(contract, route.info.params)
        : null,
    responses,
  };
}

/** The path parameters a client fills: every one the pattern has, typed by the contract where it checks one. */
function pathParams(
  route: RegisteredRoute,
  contract: RouteContract | null,
  code: CodeContractDocument | null,
) {
  const codeProperties = ((code?.params as { properties?: Record<string, Schema> } | undefined)?.properties ??
    {}) as Record<string, Schema>;
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const param of route.info.params) {
    const checked = contract?.params.find((p) => p.in === 'path' && p.name === param.name);
    properties[param.name] = inline(
      codeProperties[param.name] ?? (checked?.schema as Schema | undefined) ?? ANY_TEXT,
    );
    if (param.kind !== 'wildcard' && !param.optional) required.push(param.name);
  }
  if (Object.keys(properties).length === 0) return null;
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } satisfies Schema;
}

/**
 * The parameters a doc comment declares in `location`, as an object schema: the contract's schema for
 * those it checks, any text for those it does not (an optional string).
 */
function documentedParams(
  doc: OperationDoc | undefined,
  contract: RouteContract | null,
  location: 'query' | 'header' | 'cookie',
): Schema | null {
  if (doc === undefined) return null;
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const param of doc.params) {
    if (param.in !== location) continue;
    const name = location === 'header' ? param.name.toLowerCase() : param.name;
    const checked = contract?.params.find((p) => p.in === location && p.name === name);
    properties[name] = (checked?.schema as Schema | undefined) ?? { type: 'string' };
    if (param.required) required.push(name);
  }
  if (Object.keys(properties).length === 0) return null;
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * What the annotations' checks hand `req.valid(part)`: with any parameter checked, an object per location
 * (`params`, `query`, `headers`) of the checked ones, coerced, defaults applied; the JSON body when one is
 * declared. `null` when nothing is checked.
 */
function validParts(
  contract: RouteContract,
  engineParams: RegisteredRoute['info']['params'],
): ModelRoute['valid'] {
  const valid: ModelRoute['valid'] & object = {};
  if (contract.params.length > 0) {
    for (const [part, location] of [
      ['params', 'path'],
      ['query', 'query'],
      ['headers', 'header'],
    ] as const) {
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      for (const p of contract.params) {
        if (p.in !== location) continue;
        properties[p.name] = p.schema as Schema;
        // A path parameter is there whenever the route matched, unless the pattern makes it optional.
        const matched = p.in === 'path' && engineParams.some((e) => e.name === p.name && !e.optional);
        if (p.required || matched) required.push(p.name);
      }
      valid[part] = {
        type: 'object',
        properties,
        additionalProperties: false,
        ...(required.length ? { required } : {}),
      };
    }
  }
  if (contract.body !== null) valid.body = contract.body as Schema;
  // A form read whole: its plain fields, coerced (its files are `req.file()`'s).
  else if (contract.form !== null && contract.form.fields.length > 0)
    valid.body = { ...fieldsSchema(contract.form.fields), additionalProperties: false } as Schema;
  return Object.keys(valid).length === 0 ? null : valid;
}

/** The pattern's pieces as the client fills them; non-ASCII text percent-encoded as a client sends it. */
function urlPieces(route: RegisteredRoute): UrlPiece[] | null {
  const pieces: UrlPiece[] = [];
  for (const piece of route.info.pieces) {
    if (piece.kind === 'regex') return null;
    if (piece.kind === 'text') {
      // As a client sends it and the core stores it: non-ASCII text as UTF-8, upper-case hex (the rest as is).
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: anything non-ASCII.
      const text = piece.text.replace(/[^\x00-\x7f]+/g, (run) => encodeURIComponent(run));
      const last = pieces[pieces.length - 1];
      if (typeof last === 'string') pieces[pieces.length - 1] = last + text;
      else pieces.push(text);
    } else if (piece.kind === 'wildcard') pieces.push({ wildcard: true });
    else pieces.push(piece.optional ? { param: piece.name, optional: true } : { param: piece.name });
  }
  return pieces;
}

/**
 * A code-first schema with its local references (`#/$defs/…`, `#/definitions/…`) replaced by what they
 * point at, so that it stands alone among the generated types; a reference met again inside itself (a
 * recursive schema) is left as anything.
 */
function inline(schema: Schema): Schema {
  if (typeof schema !== 'object') return schema;
  const defs = { ...((schema.definitions ?? {}) as object), ...((schema.$defs ?? {}) as object) } as Record<
    string,
    Schema
  >;
  if (Object.keys(defs).length === 0) return schema;
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    const local = typeof ref === 'string' ? /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1] : undefined;
    if (local !== undefined) return seen.includes(local) ? true : walk(defs[local] ?? true, [...seen, local]);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      if (key !== '$defs' && key !== 'definitions') out[key] = walk(value, seen);
    return out;
  };
  return walk(schema, []) as Schema;
}

/**
 * Code-first contracts: a route's `schema` option checked before its handler. Each part is a Standard
 * Schema (`~standard.validate`: zod 4, valibot, arktype, … with no adapter per library) or a plain JSON
 * Schema object (TypeBox builds them), compiled by ajv — coerced as parameters are for every part but the
 * body. What passes is what `req.valid(part)` gives; what fails is one {@link RequestValidationError}
 * listing every issue of every part, as the annotations' checks do.
 *
 * For the OpenAPI document each part becomes JSON Schema: a JSON Schema as it is, a Standard Schema through
 * the Standard JSON Schema interface (`~standard.jsonSchema`: zod 4 and arktype have it; valibot through
 * `toStandardJsonSchema` of `@valibot/to-json-schema`). A schema that offers neither is an error naming the
 * route, at start.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';
import type { CodeContractDocument, JsonSchemaTarget } from '../openapi/types.js';
import type { ContractSchema, RouteSchemas } from './schema-types.js';
import { detailAt, type ValidationDetail } from './validation.js';

/** The parts of a request a code-first contract checks, in the order they are checked. */
export const CODE_PARTS = ['params', 'query', 'headers', 'cookies', 'body'] as const;
export type CodePart = (typeof CODE_PARTS)[number];

/** Where a part's violations are said to be (`in` of a detail). */
const LOCATION: Record<CodePart, ValidationDetail['in']> = {
  params: 'path',
  query: 'query',
  headers: 'header',
  cookies: 'cookie' as ValidationDetail['in'],
  body: 'body',
};

/** One part's check: the details of what is wrong, or the value to give `req.valid(part)`. */
type PartCheck = (input: unknown) => PartResult | Promise<PartResult>;
type PartResult = { ok: true; value: unknown } | { ok: false; details: ValidationDetail[] };

/** Whether `schema` is a Standard Schema (anything else given is taken as JSON Schema). */
export function isStandardSchema(schema: ContractSchema): schema is StandardSchemaV1 {
  const standard = (schema as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof standard?.validate === 'function';
}

/** A JSON Schema validator for one part (`coerce`: strings to the declared types, as parameters are). */
export type CompileJsonSchema = (
  schema: Record<string, unknown>,
  coerce: boolean,
) => (value: unknown) => PartResult;

/**
 * The check of a route's code-first parts: `null` when it declares none. It answers `null` (the handler
 * runs), or throws the {@link RequestValidationError} that `makeError` builds; a Standard Schema that
 * validates asynchronously makes it a promise.
 */
export function codeContractCheck(
  schemas: RouteSchemas,
  compile: CompileJsonSchema,
  fail: (details: ValidationDetail[], req: Request) => Response,
): ((req: Request) => Response | null | Promise<Response | null>) | null {
  const checks: [CodePart, PartCheck][] = [];
  for (const part of CODE_PARTS) {
    const schema = schemas[part];
    if (schema === undefined) continue;
    checks.push([part, partCheck(part, schema, compile)]);
  }
  if (checks.length === 0) return null;
  return (req) => {
    const results = checks.map(([part, check]) => check(inputOf(part, req)));
    const finish = (settled: readonly PartResult[]): Response | null => {
      const details: ValidationDetail[] = [];
      settled.forEach((result, i) => {
        if (result.ok) req.setValid((checks[i] as [CodePart, PartCheck])[0], result.value);
        else details.push(...result.details);
      });
      return details.length === 0 ? null : fail(details, req);
    };
    return results.some((r) => r instanceof Promise)
      ? Promise.all(results).then(finish)
      : finish(results as PartResult[]);
  };
}

function partCheck(part: CodePart, schema: ContractSchema, compile: CompileJsonSchema): PartCheck {
  const location = LOCATION[part];
  if (!isStandardSchema(schema)) {
    const validate = compile(schema as Record<string, unknown>, part !== 'body');
    return (input) => {
      const result = validate(input);
      return result.ok ? result : { ok: false, details: result.details.map((d) => ({ ...d, in: location })) };
    };
  }
  const standard = schema['~standard'];
  const toResult = (result: StandardSchemaV1.Result<unknown>): PartResult =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, details: result.issues.map((issue) => detailOf(location, issue)) };
  return (input) => {
    const result = standard.validate(input);
    return result instanceof Promise ? result.then(toResult) : toResult(result);
  };
}

/**
 * An issue as a detail: its path joined with `/` (`tags/0`), `''` for the part itself. Standard Schema
 * gives no keyword; zod and arktype name the issue's kind in `code`, valibot in `type`.
 */
function detailOf(location: ValidationDetail['in'], issue: StandardSchemaV1.Issue): ValidationDetail {
  const path = (issue.path ?? []).map((segment) =>
    String(typeof segment === 'object' && segment !== null ? segment.key : segment),
  );
  const kind = issue as { code?: unknown; type?: unknown };
  const keyword =
    typeof kind.code === 'string' ? kind.code : typeof kind.type === 'string' ? kind.type : 'schema';
  return detailAt(location, path, keyword, issue.message);
}

/** What a part's schema is given: the path parameters, the query (a repeated name as an array), … */
function inputOf(part: CodePart, req: Request): unknown {
  switch (part) {
    case 'params':
      return { ...req.params() };
    case 'query': {
      const query: Record<string, string | string[]> = {};
      for (const name of Object.keys(req.query())) {
        const all = req.queryAll(name);
        query[name] = all.length > 1 ? all : (all[0] ?? '');
      }
      return query;
    }
    case 'headers':
      return { ...req.headers() };
    case 'cookies':
      return { ...req.cookies() };
    default:
      return req.json<unknown>();
  }
}

/** A route's code-first schemas as JSON Schema in `target`'s dialect, for the document (an unconvertible part is left out: the start-up check names it). */
export function contractDocument(schemas: RouteSchemas, target: JsonSchemaTarget): CodeContractDocument {
  const out: CodeContractDocument = {};
  for (const part of CODE_PARTS) {
    const schema = schemas[part];
    const json = schema === undefined ? null : toJsonSchema(schema, target);
    if (json !== null) out[part] = json;
  }
  if (schemas.response !== undefined) {
    const response: Record<string, Record<string, unknown>> = {};
    for (const [status, schema] of Object.entries(schemas.response))
      response[status] = toJsonSchema(schema, target) ?? {};
    out.response = response;
  }
  return out;
}

/**
 * `schema` as JSON Schema for the document, or `null` when it offers none (then the route is named in an
 * error by the caller). A JSON Schema is copied without its symbol keys; `$schema` is dropped.
 */
export function toJsonSchema(
  schema: ContractSchema,
  target: JsonSchemaTarget,
): Record<string, unknown> | null {
  if (!isStandardSchema(schema)) return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  const converter = (
    schema['~standard'] as {
      jsonSchema?: { input?: (options: { target: string }) => Record<string, unknown> };
    }
  ).jsonSchema;
  if (typeof converter?.input !== 'function') return null;
  let converted: Record<string, unknown>;
  try {
    converted = converter.input({ target });
  } catch {
    // A library that cannot write OpenAPI 3.0's dialect writes draft-07, the nearest.
    converted = converter.input({ target: target === 'openapi-3.0' ? 'draft-07' : target });
  }
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

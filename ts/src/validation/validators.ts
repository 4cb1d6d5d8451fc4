/**
 * Where a contract's JSON Schemas become functions. Everywhere code can be generated, ajv compiles each
 * schema when its route's checks are first needed ({@link AjvValidators}); where it cannot (Cloudflare
 * Workers, `node --disallow-code-generation-from-strings`), the functions come compiled ahead of time from
 * the module `arbor contracts:export` writes (`precompiled.ts`).
 */
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { lazyPackage } from '../builtins.js';
import { requireCodeGeneration } from '../code-generation.js';
import type { JsonSchema } from '../openapi/grammar/type-expr.js';

/**
 * How a schema checks its input: `params` coerces strings to the declared types (parameters, headers and
 * form fields arrive as strings: `'42'` is an integer), `json` checks a parsed body as sent. Both apply
 * the schema's defaults.
 */
export type SchemaKind = 'params' | 'json';

/** Gives the validate function of a schema; `route` (`'GET /tasks/:id'`) names it in errors. */
export interface ValidatorSource {
  validator(kind: SchemaKind, schema: JsonSchema, route: string): ValidateFunction;
}

/** The ajv options of each kind: every error listed, defaults applied, unknown keywords allowed (`example`). */
export const AJV_OPTIONS: Record<SchemaKind, Options> = {
  params: { allErrors: true, coerceTypes: 'array', useDefaults: true, strict: false },
  json: { allErrors: true, useDefaults: true, strict: false },
};

/** OpenAPI formats that only annotate (a UI masks a password; int32 is a JSON number all the same). */
const ANNOTATION_FORMATS = ['password', 'int32', 'int64', 'float', 'double'];

/**
 * ajv, loaded when the first route's checks are compiled: loading it is a large share of a start, which
 * an application that validates nothing (or a start that has not reached its first validated request)
 * need not pay.
 */
const loadAjv = lazyPackage<typeof import('ajv')>('ajv');
const loadFormats = lazyPackage<{ default: typeof import('ajv-formats').default }>('ajv-formats');

/**
 * An ajv that knows the `format`s an API uses (ajv-formats: `date-time`, `email`, `uri`, `uuid`, …) and
 * OpenAPI's own annotation-only ones (`password`, `int32`, … accept any value of their type).
 */
export function newAjv(options: Options): Ajv {
  requireCodeGeneration(
    'A JSON Schema contract (ajv)',
    'export the compiled contracts with `arbor contracts:export` and give them to the application ' +
      '(`new Application({ contracts })`), or give the route a Standard Schema (zod, valibot, arktype)',
  );
  const ajv = new (loadAjv().Ajv)(options);
  loadFormats().default(ajv);
  for (const format of ANNOTATION_FORMATS) ajv.addFormat(format, true);
  return ajv;
}

/** ajv compiling each schema now: one ajv per kind, created on first use. */
export class AjvValidators implements ValidatorSource {
  readonly #instances = new Map<SchemaKind, Ajv>();
  readonly #extra: Options;

  /** `extra`: more ajv options for both kinds (`code: { source: true }` to export the functions). */
  constructor(extra: Options = {}) {
    this.#extra = extra;
  }

  /** The ajv of a kind (created on first use). */
  ajv(kind: SchemaKind): Ajv {
    let ajv = this.#instances.get(kind);
    if (ajv === undefined) {
      ajv = newAjv({ ...AJV_OPTIONS[kind], ...this.#extra });
      this.#instances.set(kind, ajv);
    }
    return ajv;
  }

  validator(kind: SchemaKind, schema: JsonSchema): ValidateFunction {
    return this.ajv(kind).compile(schema);
  }
}

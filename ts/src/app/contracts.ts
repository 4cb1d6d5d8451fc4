/**
 * The contract checks of each route (`validate`): which routes are validated (route over group over
 * application) and their compiled checks. The annotations come from the route cache when the table was
 * built from one, else from the sources, read once — and again after a route is registered late, so it
 * is read with the others.
 */

import type { Logger } from '../core/logger.js';
import type { Request } from '../core/request.js';
import type { RouteInfo } from '../engine/engine.js';
import { RouteError } from '../errors.js';
import { DOCS_ROUTE_PREFIX, operationKey, readAnnotations } from '../openapi/annotations/annotations.js';
import { contractDefinitions, routeContract } from '../openapi/contract.js';
import type { JsonSchema } from '../openapi/grammar/type-expr.js';
import type { AnnotationSet, OperationDoc } from '../openapi/types.js';
import type { Route } from '../routing/route-registration.js';
import type { RouteTable } from '../routing/route-table.js';
import { CODE_PARTS, type CodePart, codeContractCheck, toJsonSchema } from '../validation/code-contract.js';
import type { RouteSchemas } from '../validation/schema-types.js';
import {
  ContractCompiler,
  invalidHandler,
  RequestValidationError,
  type RouteValidation,
  type ValidateConfig,
  type ValidateOptions,
  validateOptions,
} from '../validation/validation.js';
import type { ValidatorSource } from '../validation/validators.js';

/**
 * Where the contracts come from when not from the route cache or the sources: compiled ahead of time
 * (`contracts`, `arbor contracts:export`), or, for that export, annotations given and functions recorded.
 */
export interface ContractsFrom {
  annotations: AnnotationSet;
  validators: ValidatorSource;
}

export class RouteContracts {
  readonly #table: RouteTable;
  readonly #default: ValidateConfig | undefined;
  readonly #logger: Logger;
  readonly #from: ContractsFrom | null;
  #annotations: AnnotationSet | null = null;
  /** The `@schema` types as JSON Schema definitions, built with the compiler from the same annotations. */
  #definitions: Record<string, JsonSchema> = {};
  #compiler: ContractCompiler | null = null;

  constructor(
    table: RouteTable,
    validate: ValidateConfig | undefined,
    logger: Logger,
    from: ContractsFrom | null = null,
  ) {
    this.#table = table;
    this.#default = validate;
    this.#logger = logger;
    this.#from = from;
  }

  /** The compiled contracts' annotations, when the application was given them. */
  get givenAnnotations(): AnnotationSet | null {
    return this.#from?.annotations ?? null;
  }

  /** The annotations changed (a route was registered): read them again when next needed. */
  forget(): void {
    this.#annotations = null;
    this.#compiler = null;
  }

  /** Whether the route's requests are checked (the document then lists the 400): a code-first contract always is. */
  validatesRequests(route: Route): boolean {
    if (route.schemas !== null) return true;
    const options = this.#options(route);
    return options !== null && options.requests !== false;
  }

  /**
   * The route's compiled checks, or `null` when it is not validated. A route whose requests are to be
   * validated but whose contract this process cannot read (no annotations for it: sources missing from a
   * bundle, comments stripped, no route cache) is a `CONTRACT_MISSING` error: validation never quietly
   * turns itself off.
   */
  compile(route: Route): RouteValidation | null {
    const options = this.#options(route);
    const schemas = route.schemas;
    if (options === null && schemas === null) return null;
    const info = this.#table.info(route.id);
    if (info === undefined) return null;
    this.#annotations ??=
      this.#from?.annotations ??
      this.#table.cachedAnnotations() ??
      readAnnotations(
        this.#table.describe((r) => this.validatesRequests(r)),
        { warn: false },
      );
    if (this.#compiler === null) {
      this.#definitions = contractDefinitions(this.#annotations);
      this.#compiler = new ContractCompiler(this.#definitions, this.#logger, this.#from?.validators);
    }
    const label = `${route.methods.join('|')} ${route.pattern}`;
    const annotations = this.#annotations;
    const doc = route.methods
      .map((method) => annotations.operations[operationKey(method, route.pattern)])
      .find((found) => found !== undefined);
    if (options !== null && doc !== undefined) {
      const unreadable = [...(doc.unreadable ?? []), ...this.#unreadableSchemas(doc, info.params)];
      if (unreadable.length > 0) throw unreadableContract(route, label, unreadable);
    }
    if (schemas !== null) return this.#withCode(route, label, schemas, doc, info.params, options);
    if (options === null) return null;
    if (doc === undefined && options.requests !== false && !route.getName()?.startsWith(DOCS_ROUTE_PREFIX))
      throw missingContract(route, label, this.#annotations.operations, this.#from !== null);
    return this.#compiler.compile(label, doc, info.params, options);
  }

  /**
   * The unreadable `@property` lines of the `@schema` types the operation's contract refers to, directly
   * or through other schemas.
   */
  #unreadableSchemas(doc: OperationDoc, engineParams: RouteInfo['params']): string[] {
    const annotations = this.#annotations as AnnotationSet;
    if (!Object.values(annotations.schemas).some((s) => s.unreadable !== undefined)) return [];
    const definitions = this.#definitions;
    const seen = new Set<string>();
    const pending = referencedSchemas(routeContract(doc, engineParams));
    const lines: string[] = [];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      lines.push(...(annotations.schemas[name]?.unreadable ?? []));
      pending.push(...referencedSchemas(definitions[name]));
    }
    return lines;
  }

  /**
   * A route with a contract in code: its parts checked whatever `validate` says (asking for them is
   * asking for the check), after the annotations' checks of the parts they declare when validation is on.
   * A part declared both ways, or a Standard Schema with no JSON Schema for the document, is an error.
   */
  #withCode(
    route: Route,
    label: string,
    schemas: RouteSchemas,
    doc: OperationDoc | undefined,
    engineParams: RouteInfo['params'],
    options: ValidateOptions | null,
  ): RouteValidation | null {
    const compiler = this.#compiler as ContractCompiler;
    const documented = doc === undefined ? new Set<CodePart>() : documentedParts(doc);
    for (const part of CODE_PARTS) {
      const schema = schemas[part];
      if (schema === undefined) continue;
      if (documented.has(part))
        throw new RouteError(
          'CONTRACT_CONFLICT',
          `route ${label}: its ${part} is declared twice, by its doc comment and by its schema option; keep one`,
          { pattern: route.pattern },
        );
      if (toJsonSchema(schema, 'draft-2020-12') === null)
        throw new RouteError(
          'SCHEMA_NOT_CONVERTIBLE',
          `route ${label}: the ${part} schema offers no JSON Schema for the OpenAPI document (no ~standard.jsonSchema); ` +
            'zod 4 and arktype have it, a valibot schema goes through toStandardJsonSchema() of @valibot/to-json-schema',
          { pattern: route.pattern },
        );
    }
    const onInvalid = invalidHandler(options?.onInvalid);
    const codeCheck = codeContractCheck(
      schemas,
      (schema, coerce) => compiler.jsonSchemaCheck(label, schema, coerce),
      (details, req) => {
        const error = new RequestValidationError(details);
        if (onInvalid === undefined) throw error;
        return onInvalid(error, req);
      },
    );
    const docChecks =
      options === null || doc === undefined ? null : compiler.compile(label, doc, engineParams, options);
    const docCheck = docChecks?.checkRequest ?? null;
    const checkRequest =
      codeCheck === null
        ? docCheck
        : docCheck === null
          ? codeCheck
          : (req: Request) => {
              const refused = docCheck(req);
              if (refused instanceof Promise) return refused.then((answer) => answer ?? codeCheck(req));
              return refused ?? codeCheck(req);
            };
    const checkResponse = docChecks?.checkResponse ?? null;
    return checkRequest === null && checkResponse === null ? null : { checkRequest, checkResponse };
  }

  /**
   * Compiles every route's checks now, throwing one `CONTRACT_MISSING` (or `CONTRACT_INVALID`) that names
   * every validated route without a contract it can read whole (the other errors as they come).
   */
  compileAll(routes: readonly Route[], store: (route: Route, checks: RouteValidation | null) => void): void {
    const missing: RouteError[] = [];
    for (const route of routes) {
      try {
        store(route, this.compile(route));
      } catch (error) {
        if (error instanceof RouteError && CONTRACT_REFUSALS.has(error.code)) missing.push(error);
        else throw error;
      }
    }
    if (missing.length === 1) throw missing[0];
    if (missing.length > 1) {
      const invalid = missing.every((e) => e.code === 'CONTRACT_INVALID');
      const why = invalid
        ? 'have contract lines that could not be read'
        : 'have no contract this process can read';
      throw new RouteError(
        invalid ? 'CONTRACT_INVALID' : 'CONTRACT_MISSING',
        `${missing.length} validated routes ${why}:\n${missing.map((e) => `  - ${e.message}`).join('\n')}`,
      );
    }
  }

  /** The status and body the route's `onInvalid` declares, for the OpenAPI document; `null` when it declares none. */
  invalidAnswer(route: Route): { status: number; contentType: string; schema?: object } | null {
    const onInvalid = this.#options(route)?.onInvalid;
    if (typeof onInvalid !== 'object') return null;
    const { status, schema, contentType = 'application/json' } = onInvalid;
    return schema === undefined ? { status, contentType } : { status, contentType, schema };
  }

  #options(route: Route) {
    return validateOptions(route.validation ?? route.group?.validation ?? this.#default);
  }
}

/** The `@schema` names a contract's JSON Schemas refer to (`#/definitions/Name`). */
function referencedSchemas(value: unknown): string[] {
  return [...JSON.stringify(value ?? null).matchAll(/"#\/definitions\/([^"]+)"/g)].map((m) => m[1] as string);
}

/** The refusals `compileAll` gathers, to name every such route at once. */
const CONTRACT_REFUSALS = new Set<string>(['CONTRACT_MISSING', 'CONTRACT_INVALID']);

/** The error for a validated route whose doc comment has contract lines that could not be read. */
function unreadableContract(route: Route, label: string, lines: readonly string[]): RouteError {
  return new RouteError(
    'CONTRACT_INVALID',
    `route ${label} is validated (validate) but ${lines.length === 1 ? 'a line' : `${lines.length} lines`} of its ` +
      `contract could not be read, and it is not checked without ${lines.length === 1 ? 'it' : 'them'}: ${lines.join('; ')}`,
    { pattern: route.pattern },
  );
}

/** The parts of a request a doc comment declares (so that a code-first schema cannot declare them too). */
function documentedParts(doc: OperationDoc): Set<CodePart> {
  const parts = new Set<CodePart>();
  const byLocation: Record<string, CodePart> = {
    path: 'params',
    query: 'query',
    header: 'headers',
    cookie: 'cookies',
    body: 'body',
    formData: 'body',
  };
  for (const param of doc.params) {
    const part = byLocation[param.in];
    if (part !== undefined) parts.add(part);
  }
  if (doc.body !== undefined) parts.add('body');
  return parts;
}

/**
 * The error for a validated route without a contract: which route (and where it was registered), why
 * there is none, and the ways out.
 */
function missingContract(
  route: Route,
  label: string,
  operations: Record<string, unknown>,
  compiledAhead: boolean,
): RouteError {
  const site = route.callSite;
  const where = site === null ? '' : ` (${site.file}:${site.line})`;
  const why = compiledAhead
    ? 'the compiled contracts given to the application (`contracts`) do not document it (export them again)'
    : Object.keys(operations).length === 0
      ? 'no annotations could be read at all (a bundled or comment-stripped build, or sources not deployed)'
      : 'no @api block documents it';
  return new RouteError(
    'CONTRACT_MISSING',
    `route ${label}${where} is validated (validate) but has no contract this process can read: ${why}. ` +
      'Ship the route cache (`arbor route:cache`, loaded with routeCache or ARBOR_ROUTE_CACHE) or the compiled ' +
      'contracts (`arbor contracts:export`, given as `contracts`), deploy the sources, document it with an @api ' +
      'block, or opt the route out with .validate(false)',
    { pattern: route.pattern },
  );
}

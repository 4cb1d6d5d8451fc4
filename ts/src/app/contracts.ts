/**
 * The contract checks of each route (`validate`): which routes are validated (route over group over
 * application) and their compiled checks. The annotations come from the route cache when the table was
 * built from one, else from the sources, read once — and again after a route is registered late, so it
 * is read with the others.
 */

import type { Logger } from '../core/logger.js';
import { RouteError } from '../errors.js';
import { DOCS_ROUTE_PREFIX, operationKey, readAnnotations } from '../openapi/annotations/annotations.js';
import { contractDefinitions } from '../openapi/contract.js';
import type { AnnotationSet } from '../openapi/types.js';
import type { Route } from '../routing/route-registration.js';
import type { RouteTable } from '../routing/route-table.js';
import {
  ContractCompiler,
  type RouteValidation,
  type ValidateConfig,
  validateOptions,
} from '../validation/validation.js';

export class RouteContracts {
  readonly #table: RouteTable;
  readonly #default: ValidateConfig | undefined;
  readonly #logger: Logger;
  #annotations: AnnotationSet | null = null;
  #compiler: ContractCompiler | null = null;

  constructor(table: RouteTable, validate: ValidateConfig | undefined, logger: Logger) {
    this.#table = table;
    this.#default = validate;
    this.#logger = logger;
  }

  /** The annotations changed (a route was registered): read them again when next needed. */
  forget(): void {
    this.#annotations = null;
    this.#compiler = null;
  }

  /** Whether the route's requests are checked (the document then lists the 400). */
  validatesRequests(route: Route): boolean {
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
    if (options === null) return null;
    const info = this.#table.info(route.id);
    if (info === undefined) return null;
    this.#annotations ??=
      this.#table.cachedAnnotations() ??
      readAnnotations(
        this.#table.describe((r) => this.validatesRequests(r)),
        { warn: false },
      );
    this.#compiler ??= new ContractCompiler(contractDefinitions(this.#annotations), this.#logger);
    const label = `${route.methods.join('|')} ${route.pattern}`;
    const annotations = this.#annotations;
    const doc = route.methods
      .map((method) => annotations.operations[operationKey(method, route.pattern)])
      .find((found) => found !== undefined);
    if (doc === undefined && options.requests !== false && !route.getName()?.startsWith(DOCS_ROUTE_PREFIX))
      throw missingContract(route, label, this.#annotations.operations);
    return this.#compiler.compile(label, doc, info.params, options);
  }

  /**
   * Compiles every route's checks now, throwing one `CONTRACT_MISSING` that names every validated route
   * without a readable contract (the other errors as they come).
   */
  compileAll(routes: readonly Route[], store: (route: Route, checks: RouteValidation | null) => void): void {
    const missing: RouteError[] = [];
    for (const route of routes) {
      try {
        store(route, this.compile(route));
      } catch (error) {
        if (error instanceof RouteError && error.code === 'CONTRACT_MISSING') missing.push(error);
        else throw error;
      }
    }
    if (missing.length === 1) throw missing[0];
    if (missing.length > 1)
      throw new RouteError(
        'CONTRACT_MISSING',
        `${missing.length} validated routes have no contract this process can read:\n${missing.map((e) => `  - ${e.message}`).join('\n')}`,
      );
  }

  #options(route: Route) {
    return validateOptions(route.validation ?? route.group?.validation ?? this.#default);
  }
}

/**
 * The error for a validated route without a contract: which route (and where it was registered), why
 * there is none, and the four ways out.
 */
function missingContract(route: Route, label: string, operations: Record<string, unknown>): RouteError {
  const site = route.callSite;
  const where = site === null ? '' : ` (${site.file}:${site.line})`;
  const why =
    Object.keys(operations).length === 0
      ? 'no annotations could be read at all (a bundled or comment-stripped build, or sources not deployed)'
      : 'no @api block documents it';
  return new RouteError(
    'CONTRACT_MISSING',
    `route ${label}${where} is validated (validate) but has no contract this process can read: ${why}. ` +
      'Ship the route cache (`arbor route:cache`, loaded with routeCache or ARBOR_ROUTE_CACHE), deploy the sources, ' +
      "document it with an @api block, or opt the route out with .validate(false)",
    { pattern: route.pattern },
  );
}

/**
 * The contract checks of each route (`validate`): which routes are validated (route over group over
 * application) and their compiled checks. The annotations come from the route cache when the table was
 * built from one, else from the sources, read once — and again after a route is registered late, so it
 * is read with the others.
 */

import type { Logger } from '../core/logger.js';
import { operationKey, readAnnotations } from '../openapi/annotations/annotations.js';
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

  /** The route's compiled checks, or `null` when it is not validated. */
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
    return this.#compiler.compile(label, doc, info.params, options);
  }

  #options(route: Route) {
    return validateOptions(route.validation ?? route.group?.validation ?? this.#default);
  }
}

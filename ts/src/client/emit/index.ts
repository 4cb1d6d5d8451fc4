/**
 * The generated declarations, as functions (what `arbor types:export` and `arbor client:export` write):
 * both read the application's route table and its contracts, the annotations' and the code-first ones.
 */
import type { AnnotationSet, ExportOptions } from '../../openapi/types.js';
import { clientFile, typesFile } from './declarations.js';
import { type ModelSource, routeModel } from './route-model.js';

/** Where the contracts are read from, beside the application itself. */
export interface ContractSourceOptions {
  /** Extra files or directories to read `@api` and `@schema` blocks from (as `openapi:export --sources`). */
  sources?: readonly string[];
  /** The annotations to use instead of reading them (as the exporter's option). */
  annotations?: AnnotationSet;
  /**
   * The options the application's OpenAPI document is exported with (security schemes, tags: what it
   * passes to `mountDocs`), whose answers the client expects; the CLI passes the entry's `openapiOptions`.
   */
  exportOptions?: ExportOptions;
}

/** Options of {@link exportRouteTypes}. */
export interface RouteTypesOptions extends ContractSourceOptions {
  /** The module the declarations augment, as the application imports Arbor (default `'arbor-router'`). */
  module?: string;
}

/** Options of {@link exportClient}. */
export interface ClientExportOptions extends ContractSourceOptions {
  /** Where the generated client imports the runtime from (default `'arbor-router/client'`). */
  clientModule?: string;
}

/**
 * The `.d.ts` of the application's route contracts: a `RouteContracts` entry per route (`valid`,
 * `request`, `responses`, `name`), so that `req.valid(part)` of a doc-comment route is typed.
 *
 * @example
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('src/arbor-routes.d.ts', exportRouteTypes(app));
 */
export function exportRouteTypes(app: ModelSource, options: RouteTypesOptions = {}): string {
  return typesFile(routeModel(app, options), options.module ?? 'arbor-router');
}

/**
 * The typed client's module for the application: its route map, names and `createApiClient`.
 *
 * @example
 * writeFileSync('web/api-client.ts', exportClient(app));
 */
export function exportClient(app: ModelSource, options: ClientExportOptions = {}): string {
  return clientFile(routeModel(app, options), options.clientModule ?? 'arbor-router/client');
}

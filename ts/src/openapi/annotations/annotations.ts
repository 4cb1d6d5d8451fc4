/**
 * Reads the annotations of an application's routes (docs/OPENAPI.md) into a serialisable {@link AnnotationSet}.
 *
 * A route's doc comes from, in order of precedence: a block with `@api VERB /path` anywhere in a scanned
 * file; the block just above the registration call; the block just above the handler (the rules are
 * `block-attachment.ts`'s). `@schema` and `@tag` blocks are collected from every scanned file.
 * Scanned files: the call-site and handler files of the routes, plus `options.sources`.
 *
 * The steps, one module each: which files to scan (`route-sources.ts`), placing blocks on routes
 * (`block-attachment.ts`), the checks after placing (`annotation-checks.ts`), all adding to one
 * {@link AnnotationSetBuilder}.
 */

import { emitOnce } from '../diagnostics.js';
import type { AnnotationSet, RegisteredRoute } from '../types.js';
import { checkPathParams, checkUnattached } from './annotation-checks.js';
import { AnnotationSetBuilder } from './annotation-set-builder.js';
import { attachBlocks } from './block-attachment.js';
import { readRouteSources } from './route-sources.js';

export { operationKey } from './annotation-set-builder.js';

export interface ReadOptions {
  /** Extra files or directories to scan for `@api` and `@schema` blocks. */
  sources?: readonly string[];
  /** Emit the diagnostics as process warnings (once each); default true. */
  warn?: boolean;
}

/** Route names starting with this are `mountDocs`' own routes: never documented, never annotated. */
export const DOCS_ROUTE_PREFIX = 'arbor.docs.';
export const isDocsRoute = (route: RegisteredRoute): boolean =>
  route.name?.startsWith(DOCS_ROUTE_PREFIX) === true;

/**
 * @example
 * const annotations = readAnnotations(app.routeTable(), { sources: ['src/schemas.ts'] });
 * JSON.stringify(annotations); // storable in the route cache
 */
export function readAnnotations(
  allRoutes: readonly RegisteredRoute[],
  options: ReadOptions = {},
): AnnotationSet {
  const routes = allRoutes.filter((r) => !isDocsRoute(r));
  const set = new AnnotationSetBuilder();
  const sources = readRouteSources(routes, options.sources ?? [], set.diagnostics);
  attachBlocks(set, routes, sources);
  checkUnattached(routes, set.operations, sources, set.diagnostics);
  checkPathParams(routes, set.operations, set.diagnostics);
  if (options.warn !== false) emitOnce(set.diagnostics);
  return set.build();
}

/**
 * Reads the annotations of an application's routes (SPEC §6) into a serialisable {@link AnnotationSet}.
 *
 * Where a route's doc comes from, in order of precedence:
 * 1. a block with `@api VERB /path` anywhere in a scanned file, for the route with that method and full path;
 * 2. the block that ends just above the registration call (`callSite`), only blank lines in between;
 * 3. the block that ends just above the handler (`handlerLocation`: a controller method of a resource).
 * A block without `@api` above a call that registered several routes (`resource()`) is ambiguous and is
 * reported rather than copied onto all of them. `@schema` and `@tag` blocks are collected from every
 * scanned file.
 * Scanned files: the call-site and handler files of the routes, plus `options.sources`.
 */

import { ownRoots } from '../registry/call-site.js';
import type { DocBlock } from './comments.js';
import { endsJustAbove } from './comments.js';
import { emitOnce } from './diagnostics.js';
import { normalisePath, piecesKey } from './paths.js';
import { expandSources, parsedBlock, type SourceFile, sourceFile, toPath } from './source-cache.js';
import { isAnnotationBlock, type ParsedBlock } from './tags.js';
import type { AnnotationSet, Diagnostic, OperationDoc, RegisteredRoute, SchemaDoc, TagDoc } from './types.js';

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

/** `"GET /tasks/:id"`: the key of {@link AnnotationSet.operations}. */
export function operationKey(method: string, pattern: string): string {
  return `${method.toUpperCase()} ${pattern}`;
}

/**
 * Where a handler is written: `file:line[:column]` as is, or `'Class.method'` looked up in the scanned
 * files (the first `class Class` and, after it, the first line that defines `method(`).
 */
function locateHandler(
  location: string | null | undefined,
  sources: ReadonlyMap<string, SourceFile>,
): { file: string; line: number } | null {
  const member = /^([\w$]+)\.([\w$]+)$/.exec(location ?? '');
  if (!member) return parseLocation(location);
  const [, cls = '', method = ''] = member;
  const definesClass = new RegExp(`\\bclass\\s+${cls.replace(/\$/g, '\\$')}\\b`);
  const definesMethod = new RegExp(
    `^\\s*(?:static\\s+)?(?:async\\s+)?${method.replace(/\$/g, '\\$')}\\s*[(<]`,
  );
  for (const source of sources.values()) {
    const start = source.lines.findIndex((l) => definesClass.test(l));
    if (start === -1) continue;
    for (let i = start + 1; i < source.lines.length; i++) {
      if (definesMethod.test(source.lines[i] ?? '')) return { file: source.file, line: i + 1 };
    }
  }
  return null;
}

/** `file:line[:column]` (a path or a file URL) → file and line. */
function parseLocation(location: string | null | undefined): { file: string; line: number } | null {
  if (!location) return null;
  const m = /^(.*?):(\d+)(?::\d+)?$/.exec(location.trim().replace(/^\((.*)\)$/, '$1'));
  return m ? { file: m[1] ?? '', line: Number(m[2]) } : null;
}

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
  const diagnostics: Diagnostic[] = [];
  const seenBlocks = new Set<ParsedBlock>();
  const schemas: Record<string, SchemaDoc> = {};
  const tags: Record<string, TagDoc> = {};
  const operations: Record<string, OperationDoc> = {};
  const docOf = (source: SourceFile, block: DocBlock): ParsedBlock => {
    const parsed = parsedBlock(source, block);
    if (!seenBlocks.has(parsed)) {
      seenBlocks.add(parsed);
      diagnostics.push(...parsed.diagnostics);
      for (const schema of parsed.schemas) {
        const earlier = schemas[schema.name];
        // Two applications mounted together may each define the same schema: only a different
        // definition under the same name is a mistake.
        if (earlier && !sameSchema(earlier, schema)) {
          diagnostics.push({
            code: 'DUPLICATE_SCHEMA',
            file: schema.file,
            line: schema.line,
            message: `${schema.file}:${schema.line}: @schema ${schema.name} is already defined at ${earlier.file}:${earlier.line}`,
          });
        } else schemas[schema.name] ??= schema;
      }
      for (const tag of parsed.tags) {
        const earlier = tags[tag.name];
        if (earlier && earlier.description !== tag.description) {
          diagnostics.push({
            code: 'DUPLICATE_TAG',
            file: tag.file,
            line: tag.line,
            message: `${tag.file}:${tag.line}: @tag ${tag.name} is already described at ${earlier.file}:${earlier.line}`,
          });
        } else tags[tag.name] ??= tag;
      }
    }
    return parsed;
  };

  // Which files to scan, in a stable order: routes' files first, then the extra sources.
  const fileNames = new Set<string>();
  for (const route of routes) {
    if (route.callSite) fileNames.add(toPath(route.callSite.file));
    const handler = parseLocation(route.handlerLocation);
    if (handler && /[\\/]/.test(handler.file)) fileNames.add(toPath(handler.file));
  }
  for (const file of expandSources(options.sources ?? [])) fileNames.add(file);
  const sources = new Map<string, SourceFile>();
  for (const name of fileNames) {
    const source = sourceFile(name);
    if (source instanceof Error) {
      diagnostics.push({
        code: 'SOURCE_UNREADABLE',
        file: name,
        line: 0,
        message: `${name}:0: cannot read source for annotations (${source.message})`,
      });
    } else sources.set(name, source);
  }

  const blockAbove = (file: string, line: number): { source: SourceFile; block: DocBlock } | null => {
    const source = sources.get(toPath(file));
    if (!source) return null;
    // A chained call formatted over lines (`api\n  .get('/x', h)`) is reported at the `.get` line; the
    // statement, and so the block above it, starts at the first line of the chain.
    while (line > 1 && /^\s*\??\./.test(source.lines[line - 1] ?? '')) line--;
    // The last block that ends before the line; only blank lines may separate them.
    let found: DocBlock | null = null;
    for (const block of source.blocks) if (block.endLine < line) found = block;
    return found && endsJustAbove(found, line, source.lines) ? { source, block: found } : null;
  };
  const assign = (route: RegisteredRoute, methods: readonly string[], doc: OperationDoc) => {
    for (const method of methods) operations[operationKey(method, route.pattern)] = doc;
  };

  // 2. Blocks above registration calls. Several routes from one call (resource) make a plain block ambiguous.
  const routesPerSite = new Map<string, number>();
  for (const route of routes) {
    if (!route.callSite) continue;
    const site = `${toPath(route.callSite.file)}:${route.callSite.line}`;
    routesPerSite.set(site, (routesPerSite.get(site) ?? 0) + 1);
  }
  const reportedAmbiguous = new Set<ParsedBlock>();
  for (const route of routes) {
    if (!route.callSite) continue;
    const above = blockAbove(route.callSite.file, route.callSite.line);
    if (!above) continue;
    const parsed = docOf(above.source, above.block);
    if (parsed.api || !parsed.operation) continue; // `@api` blocks are placed by step 1
    const count = routesPerSite.get(`${toPath(route.callSite.file)}:${route.callSite.line}`) ?? 0;
    if (count > 1) {
      if (!reportedAmbiguous.has(parsed)) {
        reportedAmbiguous.add(parsed);
        const { file, line } = parsed.operation;
        diagnostics.push({
          code: 'AMBIGUOUS_BLOCK',
          file,
          line,
          message: `${file}:${line}: this block stands above a call that registers ${count} routes; give it an @api VERB /path tag (or document each controller method)`,
        });
      }
      continue;
    }
    assign(route, route.methods, parsed.operation);
  }

  // 3. Blocks above handlers (controller methods of a resource), for routes still undocumented.
  for (const route of routes) {
    if (route.methods.every((m) => operations[operationKey(m, route.pattern)])) continue;
    const handler = locateHandler(route.handlerLocation, sources);
    const site = route.callSite ? `${toPath(route.callSite.file)}:${route.callSite.line}` : null;
    if (!handler || `${toPath(handler.file)}:${handler.line}` === site) continue;
    const above = blockAbove(handler.file, handler.line);
    if (!above) continue;
    const parsed = docOf(above.source, above.block);
    if (parsed.api || !parsed.operation) continue;
    const missing = route.methods.filter((m) => !operations[operationKey(m, route.pattern)]);
    assign(route, missing, parsed.operation);
  }

  // 1. `@api` blocks and `@schema` blocks anywhere in scanned files; `@api` overrides the positional blocks.
  const byPath = new Map<string, RegisteredRoute[]>();
  for (const route of routes) {
    const key = piecesKey(route.info.pieces);
    byPath.set(key, [...(byPath.get(key) ?? []), route]);
  }
  for (const source of sources.values()) {
    for (const block of source.blocks) {
      if (!isAnnotationBlock(block)) continue;
      const parsed = docOf(source, block);
      if (!parsed.api || !parsed.operation) continue;
      const { method, path, line } = parsed.api;
      const route = (byPath.get(normalisePath(path)) ?? []).find((r) =>
        r.methods.some((m) => m.toUpperCase() === method),
      );
      if (route) assign(route, [method], parsed.operation);
      else {
        diagnostics.push({
          code: 'API_NO_MATCH',
          file: source.file,
          line,
          message: `${source.file}:${line}: @api ${method} ${path} matches no registered route`,
        });
      }
    }
  }

  checkUnattached(routes, operations, sources, diagnostics);
  checkPathParams(routes, operations, diagnostics);
  if (options.warn !== false) emitOnce(diagnostics);
  return { version: 1, operations, schemas, tags, diagnostics };
}

/** How far above a registration a block still reads as meant for it (a line or two slipped in between). */
const NEAR = 3;
/** Tags only a route's doc block carries (`@param` and `@example` are ordinary JSDoc too). */
const OPERATION_TAG = /^\s*@(summary|response|security|tags|deprecated|operationId)\b/;

/**
 * A route left undocumented although a doc block stands just above its call site, separated by a line
 * that is not blank (so the block cannot be attached), or whose call site is in Arbor's own sources
 * (stack frames that could not be told apart from the user's, e.g. under a source map). Said with the file
 * and line, since the document would otherwise just lack the operation.
 */
function checkUnattached(
  routes: readonly RegisteredRoute[],
  operations: Record<string, OperationDoc>,
  sources: ReadonlyMap<string, SourceFile>,
  diagnostics: Diagnostic[],
): void {
  const reported = new Set<string>();
  const sites = new Set(
    routes.flatMap((r) => (r.callSite ? [`${toPath(r.callSite.file)}:${r.callSite.line}`] : [])),
  );
  for (const route of routes) {
    const site = route.callSite;
    if (site === null || route.methods.some((m) => operations[operationKey(m, route.pattern)])) continue;
    const file = toPath(site.file);
    const label = `${route.methods.join(',')} ${route.pattern}`;
    if (ownRoots().some((root) => file.startsWith(root))) {
      diagnostics.push({
        code: 'BLOCK_NOT_ATTACHED',
        file,
        line: site.line,
        message: `${file}:${site.line}: the call site of ${label} is inside Arbor, so its doc block cannot be found; please report it (the stack frames of the registration were not recognised)`,
      });
      continue;
    }
    const source = sources.get(file);
    if (source === undefined) continue;
    let above: DocBlock | undefined;
    for (const block of source.blocks) if (block.endLine < site.line) above = block;
    if (above === undefined || site.line - above.endLine > NEAR || isAnnotationBlock(above)) continue;
    // Attached (or ambiguous, said already); or ordinary JSDoc, not written for a route.
    if (endsJustAbove(above, site.line, source.lines) || !above.lines.some((l) => OPERATION_TAG.test(l.text)))
      continue;
    // `/** … */ foo();` documents what follows on its line; a block right above another route is that route's.
    const closing = source.lines[above.endLine - 1] ?? '';
    if (closing.slice(closing.lastIndexOf('*/') + 2).trim() !== '') continue;
    let next = above.endLine + 1;
    while (next < site.line && (source.lines[next - 1] ?? '').trim() === '') next++;
    if (sites.has(`${file}:${next}`)) continue;
    const key = `${file}:${above.endLine}`;
    if (reported.has(key)) continue;
    reported.add(key);
    diagnostics.push({
      code: 'BLOCK_NOT_ATTACHED',
      file,
      line: site.line,
      message: `${file}:${site.line}: the doc block ending on line ${above.endLine} does not document ${label}: a block attaches to the registration on the line right below it (only blank lines may come between)`,
    });
  }
}

/** `@param x.path` must name a parameter of the route (a typo would document a parameter that never comes). */
function checkPathParams(
  routes: readonly RegisteredRoute[],
  operations: Record<string, OperationDoc>,
  diagnostics: Diagnostic[],
): void {
  const reported = new Set<string>();
  for (const route of routes) {
    const names = new Set(route.info.params.map((p) => (p.kind === 'wildcard' ? 'wildcard' : p.name)));
    for (const method of route.methods) {
      const doc = operations[operationKey(method, route.pattern)];
      for (const param of doc?.params ?? []) {
        const key = `${doc?.file}:${param.line}`;
        if (param.in !== 'path' || names.has(param.name) || reported.has(key)) continue;
        reported.add(key);
        diagnostics.push({
          code: 'UNKNOWN_PATH_PARAM',
          file: doc?.file ?? '',
          line: param.line,
          message: `${key}: @param ${param.name}.path is not a parameter of ${route.pattern}`,
        });
      }
    }
  }
}

/** Whether two `@schema` blocks define the same thing (wherever they stand). */
function sameSchema(a: SchemaDoc, b: SchemaDoc): boolean {
  const shape = (schema: SchemaDoc) =>
    JSON.stringify([
      schema.description ?? null,
      schema.example ?? null,
      schema.properties.map((p) => [p.name, p.type, p.description, p.required]),
    ]);
  return shape(a) === shape(b);
}

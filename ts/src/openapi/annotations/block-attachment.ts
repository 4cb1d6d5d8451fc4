/**
 * Places the doc blocks of the scanned files on the routes they document, in order of precedence:
 * 1. a block with `@api VERB /path` anywhere in a scanned file, for the route with that method and full path;
 * 2. the block that ends just above the registration call (`callSite`), only blank lines in between;
 * 3. the block that ends just above the handler (`handlerLocation`: a controller method of a resource).
 * The steps run 2, 3, 1, each later one overriding or filling in what the earlier placed. A block without
 * `@api` above a call that registered several routes (`resource()`) is ambiguous and is reported rather
 * than copied onto all of them.
 */

import type { DocBlock } from '../grammar/comments.js';
import { endsJustAbove } from '../grammar/comments.js';
import { isAnnotationBlock, type ParsedBlock } from '../grammar/tags.js';
import { normalisePath, piecesKey } from '../paths.js';
import type { RegisteredRoute } from '../types.js';
import type { AnnotationSetBuilder } from './annotation-set-builder.js';
import { locateHandler } from './route-sources.js';
import { type SourceFile, toPath } from './source-cache.js';

type Sources = ReadonlyMap<string, SourceFile>;

/** Fills `set.operations` (and, through the blocks it reads, its schemas, tags and diagnostics). */
export function attachBlocks(
  set: AnnotationSetBuilder,
  routes: readonly RegisteredRoute[],
  sources: Sources,
): void {
  attachCallSiteBlocks(set, routes, sources);
  attachHandlerBlocks(set, routes, sources);
  attachApiBlocks(set, routes, sources);
}

/** `file:line` of a registration call. */
const siteKey = (site: { file: string; line: number }): string => `${toPath(site.file)}:${site.line}`;

/** The block that ends just above `line` of `file` (only blank lines between), if any. */
function blockAbove(
  sources: Sources,
  file: string,
  line: number,
): { source: SourceFile; block: DocBlock } | null {
  const source = sources.get(toPath(file));
  if (!source) return null;
  // A chained call formatted over lines (`api\n  .get('/x', h)`) is reported at the `.get` line; the
  // statement, and so the block above it, starts at the first line of the chain.
  while (line > 1 && /^\s*\??\./.test(source.lines[line - 1] ?? '')) line--;
  // The last block that ends before the line; only blank lines may separate them.
  let found: DocBlock | null = null;
  for (const block of source.blocks) if (block.endLine < line) found = block;
  return found && endsJustAbove(found, line, source.lines) ? { source, block: found } : null;
}

/** 2. Blocks above registration calls. Several routes from one call (resource) make a plain block ambiguous. */
function attachCallSiteBlocks(
  set: AnnotationSetBuilder,
  routes: readonly RegisteredRoute[],
  sources: Sources,
): void {
  const routesPerSite = new Map<string, number>();
  for (const route of routes) {
    if (!route.callSite) continue;
    const site = siteKey(route.callSite);
    routesPerSite.set(site, (routesPerSite.get(site) ?? 0) + 1);
  }
  const reportedAmbiguous = new Set<ParsedBlock>();
  for (const route of routes) {
    if (!route.callSite) continue;
    const above = blockAbove(sources, route.callSite.file, route.callSite.line);
    if (!above) continue;
    const parsed = set.blockDoc(above.source, above.block);
    if (parsed.api || !parsed.operation) continue; // `@api` blocks are placed by step 1
    const count = routesPerSite.get(siteKey(route.callSite)) ?? 0;
    if (count <= 1) {
      set.assign(route, route.methods, parsed.operation);
      continue;
    }
    if (reportedAmbiguous.has(parsed)) continue;
    reportedAmbiguous.add(parsed);
    const { file, line } = parsed.operation;
    set.diagnostics.push({
      code: 'AMBIGUOUS_BLOCK',
      file,
      line,
      message: `${file}:${line}: this block stands above a call that registers ${count} routes; give it an @api VERB /path tag (or document each controller method)`,
    });
  }
}

/** 3. Blocks above handlers (controller methods of a resource), for routes still undocumented. */
function attachHandlerBlocks(
  set: AnnotationSetBuilder,
  routes: readonly RegisteredRoute[],
  sources: Sources,
): void {
  for (const route of routes) {
    if (route.methods.every((m) => set.isDocumented(route, m))) continue;
    const handler = locateHandler(route.handlerLocation, sources);
    const site = route.callSite ? siteKey(route.callSite) : null;
    // A handler written on the registration line has had its block looked at by step 2.
    if (!handler || `${toPath(handler.file)}:${handler.line}` === site) continue;
    const above = blockAbove(sources, handler.file, handler.line);
    if (!above) continue;
    const parsed = set.blockDoc(above.source, above.block);
    if (parsed.api || !parsed.operation) continue;
    const missing = route.methods.filter((m) => !set.isDocumented(route, m));
    set.assign(route, missing, parsed.operation);
  }
}

/** 1. `@api` blocks (and `@schema`/`@tag` blocks) anywhere in scanned files; `@api` overrides steps 2 and 3. */
function attachApiBlocks(
  set: AnnotationSetBuilder,
  routes: readonly RegisteredRoute[],
  sources: Sources,
): void {
  const byPath = new Map<string, RegisteredRoute[]>();
  for (const route of routes) {
    const key = piecesKey(route.info.pieces);
    byPath.set(key, [...(byPath.get(key) ?? []), route]);
  }
  for (const source of sources.values()) {
    for (const block of source.blocks) {
      if (!isAnnotationBlock(block)) continue;
      const parsed = set.blockDoc(source, block);
      if (!parsed.api || !parsed.operation) continue;
      const { method, path, line } = parsed.api;
      const route = (byPath.get(normalisePath(path)) ?? []).find((r) =>
        r.methods.some((m) => m.toUpperCase() === method),
      );
      if (route) set.assign(route, [method], parsed.operation);
      else {
        set.diagnostics.push({
          code: 'API_NO_MATCH',
          file: source.file,
          line,
          message: `${source.file}:${line}: @api ${method} ${path} matches no registered route`,
        });
      }
    }
  }
}

/**
 * What readAnnotations checks once the blocks are placed: a route left undocumented by a block that was
 * written for it, and a `@param x.path` naming no parameter of its route. Both said with the file and line.
 */
import { ownRoots } from '../../registry/call-site.js';
import { type DocBlock, endsJustAbove } from '../grammar/comments.js';
import { isAnnotationBlock } from '../grammar/tags.js';
import type { Diagnostic, OperationDoc, RegisteredRoute } from '../types.js';
import { operationKey } from './annotation-set-builder.js';
import { type SourceFile, toPath } from './source-cache.js';

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
export function checkUnattached(
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
export function checkPathParams(
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

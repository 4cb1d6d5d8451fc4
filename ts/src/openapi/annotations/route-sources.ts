/**
 * The source files a route table's annotations are read from, and where in them a route's handler is
 * written. Scanned: the call-site and handler files of the routes, then the extra `sources` (files or
 * directories), in that stable order.
 */

import type { Diagnostic, RegisteredRoute } from '../types.js';
import { expandSources, type SourceFile, sourceFile, toPath } from './source-cache.js';

/** The scanned files by path; a file that cannot be read is reported (`SOURCE_UNREADABLE`) and skipped. */
export function readRouteSources(
  routes: readonly RegisteredRoute[],
  extraSources: readonly string[],
  diagnostics: Diagnostic[],
): Map<string, SourceFile> {
  const fileNames = new Set<string>();
  for (const route of routes) {
    if (route.callSite) fileNames.add(toPath(route.callSite.file));
    const handler = parseLocation(route.handlerLocation);
    if (handler && /[\\/]/.test(handler.file)) fileNames.add(toPath(handler.file));
  }
  for (const file of expandSources(extraSources)) fileNames.add(file);
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
  return sources;
}

/**
 * Where a handler is written: `file:line[:column]` as is, or `'Class.method'` looked up in the scanned
 * files (the first `class Class` and, after it, the first line that defines `method(`).
 */
export function locateHandler(
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

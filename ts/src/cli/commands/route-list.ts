/**
 * `arbor route:list`: the registered routes in definition order — a table for people, `--json` for
 * scripts — with the routes that can never match (ROUTING.md §3.2) called out.
 */
import { relative } from 'node:path';
import type { PatternPiece } from '../../engine/engine.js';
import type { RegisteredRoute } from '../../routing/route.js';
import { loadApplication, resolveEntry } from '../load-app.js';
import { columns, paint, write } from '../output.js';

export interface ListOptions {
  app?: string;
  json?: boolean;
  method?: string;
  path?: string;
}

/** One route as `--json` prints it. */
export interface ListedRoute {
  id: number;
  methods: string[];
  pattern: string;
  /** The OpenAPI-style template (`/posts/{id}`). */
  template: string;
  /** The pattern as the core parsed it (text, parameters with their constraints, wildcard, regex block). */
  pieces: PatternPiece[];
  name: string | null;
  middleware: string[];
  handler: string | null;
  /** `file:line` of the registration. */
  registeredAt: string | null;
  /** The earlier route that takes every request this one would match, if any. */
  shadowedBy: { id: number; methods: string[]; pattern: string; registeredAt: string | null } | null;
}

const ALL_VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const at = (route: RegisteredRoute | undefined): string | null =>
  route?.callSite ? `${readable(route.callSite.file)}:${route.callSite.line}` : null;

/** Paths under the working directory are shown relative to it. */
function readable(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || rel === '' ? file : rel;
}

export function listRoutes(
  table: readonly RegisteredRoute[],
  options: Pick<ListOptions, 'method' | 'path'>,
): ListedRoute[] {
  const methods = options.method
    ?.split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  const byId = new Map(table.map((r) => [r.id, r]));
  return table
    .filter((r) => methods === undefined || r.methods.some((m) => methods.includes(m)))
    .filter((r) => options.path === undefined || r.pattern.startsWith(options.path))
    .map((r) => {
      const by = r.info.shadowedBy === null ? undefined : byId.get(r.info.shadowedBy);
      return {
        id: r.id,
        methods: r.methods,
        pattern: r.pattern,
        template: r.info.template,
        pieces: r.info.pieces,
        name: r.name,
        middleware: r.middleware,
        handler: r.handlerLocation === null ? null : readable(r.handlerLocation),
        registeredAt: at(r),
        shadowedBy:
          by === undefined
            ? null
            : { id: by.id, methods: by.methods, pattern: by.pattern, registeredAt: at(by) },
      };
    });
}

const methodLabel = (methods: readonly string[]) =>
  ALL_VERBS.every((m) => methods.includes(m)) && methods.length === ALL_VERBS.length
    ? 'ANY'
    : methods.join('|');

export function renderRoutes(routes: readonly ListedRoute[]): string {
  if (routes.length === 0) return 'No routes match.\n';
  const head = ['METHOD', 'PATH', 'NAME', 'MIDDLEWARE', 'HANDLER'].map((h) => paint('bold', h));
  const rows = routes.map((r) => [
    paint('cyan', methodLabel(r.methods)),
    r.shadowedBy === null ? r.pattern : `${paint('yellow', r.pattern)} ${paint('yellow', '(shadowed)')}`,
    r.name ?? '',
    r.middleware.join(', '),
    paint('dim', r.handler ?? ''),
  ]);
  let out = `${columns([head, ...rows])}\n`;
  const shadowed = routes.filter((r) => r.shadowedBy !== null);
  for (const r of shadowed) {
    const by = r.shadowedBy;
    if (by === null) continue;
    const where = (s: string | null) => (s === null ? '' : ` (${s})`);
    out += `${paint('yellow', 'warning:')} ${methodLabel(r.methods)} ${r.pattern}${where(r.registeredAt)} can never match: ${by.pattern}${where(by.registeredAt)} is defined first and matches every path it matches\n`;
  }
  const summary = `${routes.length} route${routes.length === 1 ? '' : 's'}${shadowed.length ? `, ${shadowed.length} shadowed` : ''}`;
  return `${out}${paint('dim', summary)}\n`;
}

export async function routeList(options: ListOptions): Promise<void> {
  const { app } = await loadApplication(resolveEntry(options.app));
  const routes = listRoutes(app.routeTable(), options);
  await write(options.json ? `${JSON.stringify(routes, null, 2)}\n` : renderRoutes(routes));
}

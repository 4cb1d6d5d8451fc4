/**
 * The middleware names of an application, checked before it serves (`app.ready()`): a name no alias
 * defines is a mistake of the code, not of a request, so it is reported once, naming the route, instead
 * of answering 500 to every request of that route.
 */

import { type MiddlewareRef, parseReference } from '../core/middleware.js';
import { RouteError } from '../errors.js';
import type { MiddlewareAliases } from './aliases.js';
import type { Route } from './route-registration.js';

/** Throws `UNKNOWN_MIDDLEWARE` for the first reference (global first, then routes in order) whose name
 * no alias defines. */
export function checkMiddlewareNames(
  global: readonly MiddlewareRef[],
  routes: readonly Route[],
  aliases: MiddlewareAliases,
): void {
  const check = (ref: MiddlewareRef, where: () => string, pattern?: string): void => {
    if (typeof ref === 'function') return;
    const { name } = parseReference(ref);
    if (aliases.has(name)) return;
    const near = nearest(name, aliases.names());
    const hint = near === null ? '' : ` (did you mean '${near}'?)`;
    throw new RouteError(
      'UNKNOWN_MIDDLEWARE',
      `${where()} uses the middleware '${name}'${ref === name ? '' : ` (as '${ref}')`}, which no alias defines${hint}; register it with app.alias('${name}', fn)`,
      pattern === undefined ? {} : { pattern },
    );
  };
  for (const ref of global) check(ref, () => 'the application');
  for (const route of routes) {
    for (const ref of route.middlewareChain()) {
      check(
        ref,
        () => {
          const site = route.callSite;
          const at = site === null ? '' : ` (${site.file}:${site.line})`;
          return `route ${route.methods.join(',')} ${route.pattern}${at}`;
        },
        route.pattern,
      );
    }
  }
}

/** The alias nearest `name` by edit distance, when it is near enough to be a typo. */
function nearest(name: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of names) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/**
 * The fingerprint of a route table: a SHA-256 over the ordered routes (methods, pattern, name) and the
 * engine options that shape the compiled table. Route ids are positions in this order, which is why the
 * order is part of it: a snapshot can only be re-attached by id to the very same sequence.
 *
 * Middleware, handlers and bindings are deliberately left out: they stay in JavaScript, are re-created by
 * every start, and do not change the compiled table.
 */
import { crypto } from '../builtins.js';
import type { Order } from '../engine/engine.js';

/** What identifies one route to the compiled table. */
export interface RouteKey {
  methods: readonly string[];
  pattern: string;
  name: string | null;
}

/** The engine options the application derives from its config (they are baked into the snapshot). */
export interface TableOptions {
  order: Order;
  trailingSlash: boolean;
}

/** The options as `Application` hands them to the engine (`'redirect'` is routing-level, not engine-level). */
export function tableOptions(config: {
  order?: Order | undefined;
  trailingSlash?: boolean | 'redirect' | undefined;
}): TableOptions {
  return { order: config.order ?? 'definition', trailingSlash: (config.trailingSlash ?? true) === true };
}

/** Upper-cased, duplicates dropped, first occurrence kept: exactly what the engine stores. */
export function normaliseMethods(methods: readonly string[]): string[] {
  // One method is the common case: it needs no `Set`, which a start would otherwise build per route.
  if (methods.length === 1) return [(methods[0] as string).toUpperCase()];
  return [...new Set(methods.map((m) => m.toUpperCase()))];
}

export function fingerprint(routes: readonly RouteKey[], options: TableOptions): string {
  // JSON per route keeps fields unambiguous whatever a regex block in the pattern contains; one string,
  // hashed once (a native call per route costs more than the hashing).
  const lines = routes.map(
    (route) => `${JSON.stringify([normaliseMethods(route.methods), route.pattern, route.name])}\n`,
  );
  return crypto()
    .createHash('sha256')
    .update(`${JSON.stringify(options)}${lines.join('')}`)
    .digest('hex');
}

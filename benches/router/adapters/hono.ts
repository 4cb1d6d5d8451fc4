import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import type { Piece, RouteTable } from '../routes.js';
import type { Adapter, Built } from './types.js';

/** hono's own `*` captures nothing, so the wildcard is a named parameter matching the rest instead. */
const WILDCARD_KEY = 'wildcard';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'static') return p.text;
      if (p.kind === 'wildcard') return `:${WILDCARD_KEY}{.+}`;
      return p.constraint ? `:${p.name}{${p.constraint.regex}}` : `:${p.name}`;
    })
    .join('');
}

/**
 * hono's `match` returns every matching route in definition order (its app runs them as a chain and the
 * first handler that answers wins), so the selected route is the first entry. The RegExpRouter shape is
 * `[[handler, paramIndexMap][], stash]`, the TrieRouter shape `[[handler, params][]]`.
 */
function make(kind: 'RegExpRouter' | 'TrieRouter'): Adapter {
  return {
    name: `hono ${kind}`,
    pkg: 'hono',
    rule: 'definition',
    selection:
      kind === 'RegExpRouter'
        ? '`match()` then the first handler (parameter values stay in the stash, unread)'
        : '`match()` then the first handler (TrieRouter builds the params objects anyway)',
    params:
      kind === 'RegExpRouter'
        ? "`match()`, then `stash[indexMap[name]]` per parameter (what hono's context does)"
        : '`match()`, then `params[name]` of the first entry',
    wildcardKey: WILDCARD_KEY,
    build(table: RouteTable): Built {
      const router: Router<number> =
        kind === 'RegExpRouter' ? new RegExpRouter<number>() : new TrieRouter<number>();
      for (const route of table.routes) router.add(route.method, render(route.pieces), route.id);
      // RegExpRouter compiles its matchers on the first match: part of registration, and where it throws.
      const first = table.requests[0];
      if (first) router.match(first.method, first.path);
      const read = (result: Result<number>, name: string): string | undefined => {
        const entry = result[0][0];
        if (entry === undefined) return undefined;
        const stash = result[1];
        if (stash === undefined) return (entry[1] as Record<string, string>)[name];
        const index = (entry[1] as Record<string, number>)[name];
        return index === undefined ? undefined : stash[index];
      };
      return {
        select(method, path) {
          const entry = router.match(method, path)[0][0];
          return entry === undefined ? -1 : entry[0];
        },
        withParams(method, path, names) {
          const result = router.match(method, path);
          const entry = result[0][0];
          if (entry === undefined) return -1;
          let n = entry[0];
          for (let i = 0; i < names.length; i++) n += (read(result, names[i] as string) as string).length;
          return n;
        },
        answer(method, path) {
          const result = router.match(method, path);
          const entry = result[0][0];
          if (entry === undefined) return null;
          const params: Record<string, string> = {};
          const keys = Object.keys(entry[1]);
          for (const key of keys) {
            const value = read(result, key);
            if (value !== undefined) params[key === WILDCARD_KEY ? '*' : key] = value;
          }
          return { id: entry[0], params };
        },
      };
    },
    notes: (table) =>
      table.routes.some((r) => r.pieces.some((p) => p.kind === 'wildcard'))
        ? [`trailing \`*\` registered as \`:${WILDCARD_KEY}{.+}\` (hono's \`*\` does not capture its value)`]
        : [],
  };
}

export const honoRegExp = make('RegExpRouter');
export const honoTrie = make('TrieRouter');

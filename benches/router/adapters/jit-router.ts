import { Router } from '@jsonjoy.com/jit-router';
import type { Piece, RouteTable } from '../routes.js';
import type { Adapter, Built } from './types.js';

/**
 * jit-router's pattern braces end at the first `}` and split at every `:`, so a count such as `\d{4}`
 * cannot appear inside `{name:regex}`; repeating the atom instead keeps the constraint exact.
 */
function withoutCounts(regex: string): string {
  const expanded = regex.replace(/(\\.|\[[^\]]*\]|[^\\[\]{}])\{(\d+)\}/g, (_, atom: string, n: string) =>
    atom.repeat(Number(n)),
  );
  if (/[{}:]/.test(expanded)) throw new Error(`constraint ${regex} cannot be written in jit-router's syntax`);
  return expanded;
}

/** `{name}` takes the text up to the next `/` (or up to the first character of the static text after it). */
function render(method: string, pieces: readonly Piece[]): string {
  const path = pieces
    .map((p) => {
      if (p.kind === 'static') return p.text;
      // `{name::\n}`: up to the end of the string (a newline cannot occur in a request path).
      if (p.kind === 'wildcard') return '{*::\n}';
      return p.constraint ? `{${p.name}:${withoutCounts(p.constraint.regex)}}` : `{${p.name}}`;
    })
    .join('');
  return `${method} ${path}`;
}

/** The route's data: its id, and where each named parameter sits in the positional `params` array. */
interface Data {
  id: number;
  index: Record<string, number>;
}

/**
 * @jsonjoy.com/jit-router matches one string, `"<METHOD> <path>"`, against a function it generates at
 * `compile()`, and returns the route's data with the parameter values as a positional array. Reading a
 * parameter by name goes through a name → position map stored with the route, which is what its README
 * suggests for named access.
 */
export const jitRouter: Adapter = {
  name: 'jit-router',
  pkg: '@jsonjoy.com/jit-router',
  rule: 'specificity',
  selection: '`matcher(method + " " + path)` then `.data` (the params array is built anyway)',
  params: '`matcher(method + " " + path)`, then `params[data.index[name]]` (a name → position map per route)',
  wildcardKey: '*',
  build(table: RouteTable): Built {
    const router = new Router<Data>();
    for (const route of table.routes) {
      const index: Record<string, number> = {};
      let position = 0;
      for (const p of route.pieces) {
        if (p.kind === 'param') index[p.name] = position++;
        else if (p.kind === 'wildcard') index['*'] = position++;
      }
      router.add(render(route.method, route.pieces), { id: route.id, index });
    }
    const match = router.compile();
    return {
      select(method, path) {
        const found = match(`${method} ${path}`);
        return found === undefined ? -1 : found.data.id;
      },
      withParams(method, path, names) {
        const found = match(`${method} ${path}`);
        if (found === undefined) return -1;
        const data = found.data;
        const params = found.params as string[];
        let n = data.id;
        for (let i = 0; i < names.length; i++)
          n += (params[data.index[names[i] as string] as number] as string).length;
        return n;
      },
      answer(method, path) {
        const found = match(`${method} ${path}`);
        if (found === undefined) return null;
        // The match object is the route's own and is reused by the next lookup: copy now.
        const values = found.params ?? [];
        const params: Record<string, string> = {};
        for (const [name, position] of Object.entries(found.data.index)) {
          const value = values[position];
          if (value !== undefined) params[name] = value;
        }
        return { id: found.data.id, params };
      },
    };
  },
  notes: (table) => [
    ...(table.routes.some((r) => r.pieces.some((p) => p.kind === 'wildcard'))
      ? ['trailing `*` registered as `{*::\\n}` (up to the end of the string)']
      : []),
    ...(table.name === 'github'
      ? [
          'not found: 2 DELETE routes whose static step (`/pulls/`) was registered after a longer one with the same prefix (`/pulls/comments/`): sonic-forest 1.2.1, its tree, returns the longer key for `RadixTree.get` of the shorter',
        ]
      : []),
    ...(table.hasConstraints
      ? ['constraints as `{name:regex}`, `{n}` counts written out (`\\d{4}` → `\\d\\d\\d\\d`)']
      : []),
  ],
};

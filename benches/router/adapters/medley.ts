import MedleyRouter from '@medley/router';
import type { Piece, RouteTable } from '../routes.js';
import { type Adapter, type Built, CONSTRAINTS_DROPPED } from './types.js';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => (p.kind === 'static' ? p.text : p.kind === 'wildcard' ? '*' : `:${p.name}`))
    .join('');
}

/** @medley/router matches the path alone and returns the store of that path; the method is a key of it. */
export const medley: Adapter = {
  name: '@medley/router',
  pkg: '@medley/router',
  rule: 'specificity',
  selection: '`find(path)` then `store[method]` (params are built anyway)',
  params: '`find(path)`, `store[method]`, then `params[name]`',
  wildcardKey: '*',
  build(table: RouteTable): Built {
    const router = new MedleyRouter();
    for (const route of table.routes) router.register(render(route.pieces))[route.method] = route.id;
    return {
      select(method, path) {
        const found = router.find(path);
        if (found === null) return -1;
        return found.store[method] ?? -1;
      },
      withParams(method, path, names) {
        const found = router.find(path);
        if (found === null) return -1;
        const id = found.store[method];
        if (id === undefined) return -1;
        let n = id;
        for (let i = 0; i < names.length; i++) n += (found.params[names[i] as string] as string).length;
        return n;
      },
      answer(method, path) {
        const found = router.find(path);
        const id = found?.store[method];
        return found && id !== undefined ? { id, params: { ...found.params } } : null;
      },
    };
  },
  notes: (table) => (table.hasConstraints ? [CONSTRAINTS_DROPPED] : []),
};

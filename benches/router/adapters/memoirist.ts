import { Memoirist } from 'memoirist';
import type { Piece, RouteTable } from '../routes.js';
import { type Adapter, type Built, CONSTRAINTS_DROPPED } from './types.js';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => (p.kind === 'static' ? p.text : p.kind === 'wildcard' ? '*' : `:${p.name}`))
    .join('');
}

export const memoirist: Adapter = {
  name: 'memoirist',
  pkg: 'memoirist',
  rule: 'specificity',
  selection: '`find()` then `.store` (params are built anyway)',
  params: '`find()` then `params[name]`',
  wildcardKey: '*',
  build(table: RouteTable): Built {
    const router = new Memoirist<number>();
    for (const route of table.routes) router.add(route.method, render(route.pieces), route.id);
    return {
      select(method, path) {
        const found = router.find(method, path);
        return found === null ? -1 : found.store;
      },
      withParams(method, path, names) {
        const found = router.find(method, path);
        if (found === null) return -1;
        let n = found.store;
        for (let i = 0; i < names.length; i++) n += (found.params[names[i] as string] as string).length;
        return n;
      },
      answer(method, path) {
        const found = router.find(method, path);
        return found && { id: found.store, params: { ...found.params } };
      },
    };
  },
  notes: (table) => (table.hasConstraints ? [CONSTRAINTS_DROPPED] : []),
};

import FindMyWay from 'find-my-way';
import type { Piece, RouteTable } from '../routes.js';
import type { Adapter, Built } from './types.js';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'static') return p.text.replaceAll(':', '::');
      if (p.kind === 'wildcard') return '*';
      return p.constraint ? `:${p.name}(^${p.constraint.regex}$)` : `:${p.name}`;
    })
    .join('');
}

function make(compiled: boolean): Adapter {
  return {
    name: compiled ? 'find-my-way (compiled)' : 'find-my-way',
    pkg: 'find-my-way',
    rule: 'specificity',
    selection:
      '`find()` then `.store`: find-my-way has no lookup without params (the object is built anyway)',
    params: '`find()` then `params[name]`',
    wildcardKey: '*',
    build(table: RouteTable): Built {
      const router = FindMyWay();
      const handler = (): void => {};
      // The store is `id + 1`: find-my-way turns a falsy store (route 0) into null.
      for (const route of table.routes) {
        router.on(route.method as 'GET', render(route.pieces), handler, route.id + 1);
      }
      if (compiled) router.compile();
      const first = table.requests[0];
      if (first) router.find(first.method as 'GET', first.path);
      return {
        select(method, path) {
          const found = router.find(method as 'GET', path);
          return found === null ? -1 : (found.store as number) - 1;
        },
        withParams(method, path, names) {
          const found = router.find(method as 'GET', path);
          if (found === null) return -1;
          let n = (found.store as number) - 1;
          for (let i = 0; i < names.length; i++) n += (found.params[names[i] as string] as string).length;
          return n;
        },
        answer(method, path) {
          const found = router.find(method as 'GET', path);
          return (
            found && {
              id: (found.store as number) - 1,
              params: { ...found.params } as Record<string, string>,
            }
          );
        },
      };
    },
    notes: () =>
      compiled ? ['`router.compile()` after registration (generated lookup code per method)'] : [],
  };
}

export const findMyWay = make(false);
export const findMyWayCompiled = make(true);

import KoaTreeRouter from 'koa-tree-router';
import type { Piece, RouteTable } from '../routes.js';
import { type Adapter, type Built, CONSTRAINTS_DROPPED } from './types.js';

/** koa-tree-router's catch-all is `*name` after a `/`; its value keeps that leading `/`. */
const WILDCARD_KEY = 'wildcard';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => (p.kind === 'static' ? p.text : p.kind === 'wildcard' ? `*${WILDCARD_KEY}` : `:${p.name}`))
    .join('');
}

type Handle = (() => void) & { id: number };
interface Found {
  handle: Handle[] | null;
  params: { key: string; value: string }[];
}

export const koaTreeRouter: Adapter = {
  name: 'koa-tree-router',
  pkg: 'koa-tree-router',
  rule: 'specificity',
  selection: '`find()` then the handler (the params array is built anyway)',
  params: '`find()`, then a scan of its `[{ key, value }]` params array per name',
  wildcardKey: WILDCARD_KEY,
  wildcardKeepsSlash: true,
  build(table: RouteTable): Built {
    const router = new KoaTreeRouter();
    for (const route of table.routes) {
      const handle = Object.assign(() => {}, { id: route.id });
      router.on(route.method, render(route.pieces), handle);
    }
    // `find` is public (koa-tree-router's own middleware calls it) but missing from its type declarations.
    const tree = router as unknown as { find(method: string, path: string): Found };
    const find = (method: string, path: string): Found => tree.find(method, path);
    return {
      select(method, path) {
        const handle = find(method, path).handle;
        return handle === null ? -1 : (handle[0] as Handle).id;
      },
      withParams(method, path, names) {
        const found = find(method, path);
        if (found.handle === null) return -1;
        let n = (found.handle[0] as Handle).id;
        const params = found.params;
        for (let i = 0; i < names.length; i++) {
          const name = names[i];
          for (let j = 0; j < params.length; j++) {
            const param = params[j] as { key: string; value: string };
            if (param.key === name) {
              n += param.value.length;
              break;
            }
          }
        }
        return n;
      },
      answer(method, path) {
        const found = find(method, path);
        if (found.handle === null) return null;
        const params: Record<string, string> = {};
        for (const { key, value } of found.params) {
          if (key === WILDCARD_KEY) params['*'] = value.startsWith('/') ? value.slice(1) : value;
          else params[key] = value;
        }
        return { id: (found.handle[0] as Handle).id, params };
      },
    };
  },
  notes: (table) => [
    ...(table.hasConstraints ? [CONSTRAINTS_DROPPED] : []),
    ...(table.routes.some((r) => r.pieces.some((p) => p.kind === 'wildcard'))
      ? [
          `trailing \`*\` registered as \`*${WILDCARD_KEY}\`; its value keeps a leading \`/\` (stripped when verifying)`,
        ]
      : []),
  ],
};

import { addRoute, createRouter, findRoute } from 'rou3';
import { compileRouter } from 'rou3/compiler';
import type { Piece, RouteTable } from '../routes.js';
import type { Adapter, Built } from './types.js';

/** rou3's named catch-all `**:name` captures the rest of the path. */
const WILDCARD_KEY = 'wildcard';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'static') return p.text;
      if (p.kind === 'wildcard') return `**:${WILDCARD_KEY}`;
      return p.constraint ? `:${p.name}(${p.constraint.regex})` : `:${p.name}`;
    })
    .join('');
}

function normalise(params: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) out[key === WILDCARD_KEY ? '*' : key] = value;
  return out;
}

export const rou3: Adapter = {
  name: 'rou3',
  pkg: 'rou3',
  rule: 'specificity',
  selection: '`findRoute(router, method, path, { params: false })`',
  params: '`findRoute(router, method, path)` then `params[name]`',
  wildcardKey: WILDCARD_KEY,
  build(table: RouteTable): Built {
    const router = createRouter<number>();
    for (const route of table.routes) addRoute(router, route.method, render(route.pieces), route.id);
    const noParams = { params: false };
    return {
      select(method, path) {
        const found = findRoute(router, method, path, noParams);
        return found === undefined ? -1 : found.data;
      },
      withParams(method, path, names) {
        const found = findRoute(router, method, path);
        if (found === undefined) return -1;
        let n = found.data;
        const params = found.params as Record<string, string>;
        for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
        return n;
      },
      answer(method, path) {
        const found = findRoute(router, method, path);
        return found === undefined ? null : { id: found.data, params: normalise(found.params) };
      },
    };
  },
  notes: (table) =>
    table.routes.some((r) => r.pieces.some((p) => p.kind === 'wildcard'))
      ? [`trailing \`*\` registered as \`**:${WILDCARD_KEY}\``]
      : [],
};

export const rou3Compiled: Adapter = {
  ...rou3,
  name: 'rou3 (compiled)',
  selection:
    'the `compileRouter()` function, then `.data` (it has no params-free mode: params are built anyway)',
  params: 'the `compileRouter()` function, then `params[name]`',
  build(table: RouteTable): Built {
    const router = createRouter<number>();
    for (const route of table.routes) addRoute(router, route.method, render(route.pieces), route.id);
    const find = compileRouter(router);
    const first = table.requests[0];
    if (first) find(first.method, first.path);
    return {
      select(method, path) {
        const found = find(method, path);
        return found === undefined ? -1 : found.data;
      },
      withParams(method, path, names) {
        const found = find(method, path);
        if (found === undefined) return -1;
        let n = found.data;
        const params = found.params as Record<string, string>;
        for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
        return n;
      },
      answer(method, path) {
        const found = find(method, path);
        return found === undefined ? null : { id: found.data, params: normalise(found.params) };
      },
    };
  },
  notes: (table) => [...rou3.notes(table), '`compileRouter()` (generated JavaScript) after registration'],
};

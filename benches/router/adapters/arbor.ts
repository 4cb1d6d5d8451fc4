import type { RouterOptions } from '../../../ts/src/router/index.js';
import type { Piece, RouteTable } from '../routes.js';
import type { Adapter, Built } from './types.js';

export type ArborEngine = 'wasm' | 'reference';

function render(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'static') return p.text;
      if (p.kind === 'wildcard') return '*';
      return p.constraint ? `:${p.name}<${p.constraint.arbor}>` : `:${p.name}`;
    })
    .join('');
}

interface Variant {
  name: string;
  options: RouterOptions;
  rule: Adapter['rule'];
  note: string | null;
}

/**
 * Arbor's adapters: the default router (definition order; small tables answered by JavaScript generated
 * from the engine's route list), the specificity order, and the WebAssembly engine alone
 * (`compiled: false`).
 * Imported dynamically: until the WebAssembly engine is built, importing `Router` fails, and the
 * peers must still run. Throws with the import error when the engine is not available.
 */
export async function arborAdapters(engine: ArborEngine = 'wasm', isolate = false): Promise<Adapter[]> {
  type RouterModule = typeof import('../../../ts/src/router/index.js');
  const shared = (await import('../../../ts/src/router/index.js')) as RouterModule;
  // `isolate` (paired timing, where all variants share one process): each variant gets its own instance
  // of the router module (router/router.ts, which holds the engine lookups its commit point installs), so
  // that the type feedback of one variant's calls (a different engine class behind `Router#find`) cannot
  // make another's polymorphic. The engine modules and the router room's other modules stay shared.
  const routerModule = async (variant: number): Promise<RouterModule> =>
    isolate
      ? ((await import(`../../../ts/src/router/router.js?variant=${variant}`)) as RouterModule)
      : shared;
  const base: RouterOptions = {};
  let suffix = '';
  if (engine === 'reference') {
    const reference = await import('../../../tests/support/reference-engine/index.js');
    base.engine = reference.createReferenceEngine;
    suffix = ' [reference engine]';
  }
  const variants: Variant[] = [
    { name: 'arbor', options: { ...base }, rule: 'static-first', note: null },
    {
      name: 'arbor (specificity)',
      options: { ...base, order: 'specificity' },
      rule: 'specificity',
      note: "`new Router({ order: 'specificity' })`",
    },
    {
      name: 'arbor (engine only)',
      options: { ...base, compiled: false },
      rule: 'static-first',
      note: '`new Router({ compiled: false })`: every lookup goes to the WebAssembly engine (no generated JavaScript for small tables in front of it)',
    },
  ];
  // ARBOR_BENCH_BEFORE=<another checkout, built>: its router as one more variant, timed in the same run,
  // to show a refactoring of the router leaves it level (see docs/PERFORMANCE.md, "Before and after").
  const before = process.env.ARBOR_BENCH_BEFORE;
  const loaders = variants.map((_, k) => () => routerModule(k));
  if (before !== undefined && before !== '') {
    variants.push({
      name: 'arbor (before)',
      options: { ...base },
      rule: 'static-first',
      note: `the router of the checkout at \`${before}\`, built, in the same run`,
    });
    const { existsSync } = await import('node:fs');
    const entry = ['ts/src/router/index.ts', 'ts/src/router.ts']
      .map((path) => `${before}/${path}`)
      .find((path) => existsSync(path));
    if (entry === undefined) throw new Error(`ARBOR_BENCH_BEFORE=${before} holds no ts/src/router`);
    loaders.push(async () => (await import(entry)) as RouterModule);
  }
  const routers = await Promise.all(loaders.map((load) => load()));
  return variants.map(
    (variant, k): Adapter => ({
      name: variant.name + suffix,
      pkg: 'arbor-router',
      rule: variant.rule,
      selection: '`router.select(method, path)` then `.value` (the route only: no value is sliced)',
      params: '`router.find(method, path)` then `params[name]`',
      wildcardKey: '*',
      build(table: RouteTable): Built {
        const router = new (routers[k] as RouterModule).Router<number>(variant.options);
        for (const route of table.routes) router.add(route.method, render(route.pieces), route.id);
        // Route ids are dense in definition order, one per `add`: the same numbers as the table's ids.
        const first = table.requests[0];
        if (first) router.find(first.method, first.path);
        return {
          select(method, path) {
            return router.select(method, path)?.value ?? -1;
          },
          withParams(method, path, names) {
            const found = router.find(method, path);
            if (found === null) return -1;
            let n = found.value;
            const params = found.params;
            for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
            return n;
          },
          answer(method, path) {
            const found = router.find(method, path);
            if (found === null) return null;
            if (found.id !== found.value)
              throw new Error(`route id ${found.id} is not the definition index ${found.value}`);
            return { id: found.value, params: { ...found.params } };
          },
        };
      },
      notes: () => (variant.note ? [variant.note] : []),
    }),
  );
}

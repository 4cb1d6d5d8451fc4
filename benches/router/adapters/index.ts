import { type ArborEngine, arborAdapters } from './arbor.js';
import { findMyWay, findMyWayCompiled } from './find-my-way.js';
import { honoRegExp, honoTrie } from './hono.js';
import { jitRouter } from './jit-router.js';
import { koaTreeRouter } from './koa-tree-router.js';
import { medley } from './medley.js';
import { memoirist } from './memoirist.js';
import { rou3, rou3Compiled } from './rou3.js';
import type { Adapter } from './types.js';

export type { Adapter, Built } from './types.js';

/** Every peer router, fastest-known first (the order only affects the report's column order). */
export const PEERS: readonly Adapter[] = [
  rou3Compiled,
  rou3,
  memoirist,
  jitRouter,
  findMyWay,
  findMyWayCompiled,
  honoRegExp,
  honoTrie,
  koaTreeRouter,
  medley,
];

export interface Loaded {
  adapters: Adapter[];
  /** Why Arbor's adapters are missing, when they are. */
  arborError: string | null;
}

/** Arbor's adapters (when its engine loads) followed by the peers. */
export async function loadAdapters(engine: ArborEngine = 'wasm', isolate = false): Promise<Loaded> {
  try {
    return { adapters: [...(await arborAdapters(engine, isolate)), ...PEERS], arborError: null };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { adapters: [...PEERS], arborError: `Arbor (${engine} engine) did not load: ${message}` };
  }
}

export function isArbor(adapter: Adapter): boolean {
  return adapter.pkg === 'arbor-router';
}

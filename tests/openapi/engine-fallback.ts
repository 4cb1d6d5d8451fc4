/**
 * The docs tests want the real Application, whose default engine is the WebAssembly one. Where that
 * engine cannot load (the package `ts/src/engine/wasm-pkg/` not built yet, or not loadable under vitest),
 * the reference engine stands in: same interface, same route metadata. Test files that need the
 * Application call
 *   vi.mock('…/engine/wasm-engine.js', async (o) => (await import('…/engine-fallback.js')).wasmOrReference(o))
 * so they run on a fresh checkout; `engineInUse` says which engine served. With `ARBOR_REQUIRE_WASM=1`
 * (npm test, CI) there is no stand-in: the import error fails the file (tests/support/prerequisites.ts).
 */
import { prerequisitesRequired } from '../support/prerequisites.js';

export let engineInUse: 'wasm' | 'reference' = 'wasm';

export async function wasmOrReference(
  importOriginal: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  try {
    const original = (await importOriginal()) as Record<string, unknown>;
    engineInUse = 'wasm';
    return original;
  } catch (error) {
    // Under npm test / CI the wasm engine is a prerequisite: its absence fails every file that mocks
    // the module this way, instead of passing on the reference engine.
    if (prerequisitesRequired) throw error;
    console.warn(
      `[docs tests] the WebAssembly engine did not load (${(error as Error).message.split('\n')[0]}); using the reference engine`,
    );
    const { createReferenceEngine } = await import('../support/reference-engine/index.js');
    engineInUse = 'reference';
    const unavailable = () => {
      throw new Error('the WebAssembly engine is not loadable: snapshots need it');
    };
    // While the engine interface grows, fill `route(id)` from `routes()` if the reference engine lags.
    const createWasmEngine = (options: object) => {
      const engine = createReferenceEngine(options) as ReturnType<typeof createReferenceEngine> & {
        route?: (id: number) => unknown;
      };
      if (typeof engine.route !== 'function') engine.route = (id: number) => engine.routes()[id];
      return engine;
    };
    return { createWasmEngine, createWasmEngineFromSnapshot: unavailable };
  }
}

/**
 * The engines every conformance table runs against. Adding an engine is one line in {@link engines}.
 *
 * - `reference`: the TypeScript reference engine (`tests/support/reference-engine/`), the oracle;
 * - `wasm`: the WebAssembly engine alone (`Router` with `engine: createWasmEngine`, so no front);
 * - `router`: `Router` as users build it, with no `engine` option: small tables are answered by the
 *   generated JavaScript front (`generated-front.ts`), the rest by the wasm engine. Without this row the
 *   front that production uses for small tables would be tested only by its own differential test.
 *
 * The wasm engine is imported dynamically: when its build is absent the suite still runs on the
 * reference engine and reports the wasm engine as skipped, with the reason (never a silent pass). Set
 * `ARBOR_REQUIRE_WASM=1` (CI) to turn its absence into a failure.
 */
import type { Engine, EngineOptions } from '../../ts/src/engine/engine.js';
import type { RouterOptions } from '../../ts/src/router/index.js';
import { createReferenceEngine } from '../support/reference-engine/index.js';

export type EngineName = 'reference' | 'wasm' | 'router';

export interface EngineUnderTest {
  name: EngineName;
  create: (options: EngineOptions) => Engine;
  /** Why the engine cannot run here, or `null` when it can. */
  unavailable: string | null;
  /** `Router` options that select this engine (`engine: create`, or nothing for the default). */
  routerOptions?: (options: EngineOptions) => RouterOptions;
}

/** The `Router` options under which `engine` runs. */
export function routerOptions(engine: EngineUnderTest, options: EngineOptions = {}): RouterOptions {
  return engine.routerOptions?.(options) ?? { ...options, engine: engine.create };
}

async function load(
  name: EngineName,
  importer: () => Promise<Record<string, unknown>>,
  exported: string,
): Promise<EngineUnderTest> {
  let reason: string;
  try {
    const module = await importer();
    const create = module[exported];
    // Only read `unavailable` if present: vitest's module mocks throw on unknown exports.
    const stated = Object.keys(module).includes('unavailable') ? module.unavailable : undefined;
    if (typeof stated === 'string') reason = stated;
    else if (typeof create === 'function')
      return { name, create: create as EngineUnderTest['create'], unavailable: null };
    else reason = `the module does not export ${exported}()`;
  } catch (error) {
    reason = `the ${name} engine did not load: ${error instanceof Error ? error.message : String(error)}`;
  }
  const create = (): never => {
    throw new Error(reason);
  };
  return { name, create, unavailable: reason };
}

const wasm = await load('wasm', () => import('../../ts/src/engine/wasm-engine.js'), 'createWasmEngine');

export const engines: EngineUnderTest[] = [
  { name: 'reference', create: createReferenceEngine, unavailable: null },
  wasm,
  // The default engine: what `new Router()` builds. It needs the wasm build as much as `wasm` does.
  { ...wasm, name: 'router', routerOptions: (options) => ({ ...options }) },
];

export const wasmRequired = process.env.ARBOR_REQUIRE_WASM === '1';

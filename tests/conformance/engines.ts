/**
 * The engines every conformance table runs against. Adding an engine is one line in {@link engines}.
 *
 * The wasm engine is imported dynamically: when its build is absent the suite still runs on the
 * reference engine and reports the wasm engine as skipped, with the reason (never a silent pass). Set
 * `ARBOR_REQUIRE_WASM=1` (CI) to turn its absence into a failure.
 */
import type { Engine, EngineOptions } from '../../ts/src/engine/engine.js';
import { createReferenceEngine } from '../../ts/src/engine/reference/index.js';

export type EngineName = 'reference' | 'wasm';

export interface EngineUnderTest {
  name: EngineName;
  create: (options: EngineOptions) => Engine;
  /** Why the engine cannot run here, or `null` when it can. */
  unavailable: string | null;
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

export const engines: EngineUnderTest[] = [
  { name: 'reference', create: createReferenceEngine, unavailable: null },
  await load('wasm', () => import('../../ts/src/engine/wasm-engine.js'), 'createWasmEngine'),
];

export const wasmRequired = process.env.ARBOR_REQUIRE_WASM === '1';

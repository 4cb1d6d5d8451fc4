/**
 * What the suite uses in place of `ts/src/engine/wasm-engine.ts` when the WebAssembly build is absent.
 *
 * `Router` imports the wasm engine statically (it is the default engine), so without a build nothing
 * that imports `Router` could even load. Each test file therefore mocks that module with
 * {@link loadWasmEngine}: the real module when it loads, otherwise a stand-in that says why, so the
 * reference engine still runs and the wasm rows are reported as skipped with the reason.
 *
 * @example
 * vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
 *   (await import('./wasm-fallback.js')).loadWasmEngine(original));
 */
export async function loadWasmEngine(
  importOriginal: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  try {
    return (await importOriginal()) as Record<string, unknown>;
  } catch (error) {
    const reason = `the WebAssembly engine did not load (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    const unavailable = (): never => {
      throw new Error(reason);
    };
    return { createWasmEngine: unavailable, createWasmEngineFromSnapshot: unavailable, unavailable: reason };
  }
}

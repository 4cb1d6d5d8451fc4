/**
 * Where the router's WebAssembly module comes from, runtime by runtime, read synchronously so that an
 * application can be created the moment the package is imported (no top-level await: Node's
 * `require(esm)` refuses a module that has one).
 *
 * - Node, Bun, Deno: the file beside the package, read with `node:fs` (`process.getBuiltinModule`, loaded
 *   only for this read). The same bytes and the same synchronous compile as ever: Node starts as fast.
 * - Cloudflare Workers (workerd): no file system holds the package; the package's `workerd` entry imports
 *   the `.wasm` file as a compiled module and hands it over (`provideWasm`) before any router exists.
 * - Anything else (a browser, an edge runtime without either): the caller awaits `loadWasm()`, which
 *   fetches the file; creating a router first is an error that says so ({@link WasmNotLoadedError}).
 */

/**
 * The router's module as `provideWasm` takes it: a compiled `WebAssembly.Module`, or its bytes. Spelled
 * without the `WebAssembly` declarations, which a Node program that does not load the DOM library lacks.
 */
export type WasmModuleSource = ArrayBuffer | ArrayBufferView | object;

/** What `loadWasm` accepts: where to fetch the module from, a response under way, or the module itself. */
export type WasmSource = URL | string | Response | PromiseLike<Response> | WasmModuleSource;

/** The router's WebAssembly module is needed and this runtime gave no way to read it synchronously. */
export class WasmNotLoadedError extends Error {
  /** Stable code for programs: `WASM_NOT_LOADED`. */
  readonly code = 'WASM_NOT_LOADED';

  constructor(file: URL, cause?: unknown) {
    super(
      `The router's WebAssembly module (${file.href}) cannot be read on this runtime: it has no file ` +
        'system. Await loadWasm() before creating an application or a router, or hand the module over ' +
        'with provideWasm(module) where your bundler imports .wasm files (docs/RUNTIMES.md).',
      cause === undefined ? undefined : { cause },
    );
    this.name = 'WasmNotLoadedError';
  }
}

type NodeFs = { readFileSync(path: URL): Uint8Array };
type Process = { getBuiltinModule?: (specifier: string) => unknown };

/** The module's bytes from the file system, or a {@link WasmNotLoadedError} where there is none. */
export function readWasmSource(file: URL): Uint8Array {
  const getBuiltinModule = (globalThis as { process?: Process }).process?.getBuiltinModule;
  const fs = file.protocol === 'file:' ? (getBuiltinModule?.('node:fs') as NodeFs | undefined) : undefined;
  if (typeof fs?.readFileSync !== 'function') throw new WasmNotLoadedError(file);
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new WasmNotLoadedError(file, error);
  }
}

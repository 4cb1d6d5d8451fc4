/**
 * A `.wasm` file imported as a module: Cloudflare Workers (and the bundlers that target it) compile it
 * and hand over the `WebAssembly.Module`.
 */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

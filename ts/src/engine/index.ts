// The engine room's public face, for the rest of Arbor: the engine interface and its constants
// (engine.ts), the WebAssembly engine's constructors, and the core's pattern parser (`patternPieces`, for a
// pattern written outside a route). Only wasm-engine.ts, inside the room, imports the wasm-bindgen output.
export type {
  ConstraintKind,
  Engine,
  EngineOptions,
  Order,
  ParamInfo,
  ParamKind,
  PatternPiece,
  RouteInfo,
  RouteShape,
  Snapshots,
} from './engine.js';
export { ESCAPED, NOT_FOUND, ROUTE_ID, shapeOf } from './engine.js';
export {
  createWasmEngine,
  createWasmEngineFromSnapshot,
  loadWasm,
  patternPieces,
  provideWasm,
} from './wasm-engine.js';
export { type WasmModuleSource, WasmNotLoadedError, type WasmSource } from './wasm-source.js';

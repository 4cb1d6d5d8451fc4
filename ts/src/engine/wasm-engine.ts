/**
 * The WebAssembly engine: the only module that imports the wasm-bindgen output (`./wasm-pkg/`).
 *
 * Registration and metadata cross as strings (cold path): a call that fails throws the engine's error as a
 * JSON object, which `crossing` turns into a `RouteError` (one convention for every call). Lookup crosses
 * as numbers only: the path is written into a fixed input area of the module's memory,
 * `lookup(methodId, length)` returns a route id, and parameter spans are read where the engine wrote them
 * (a fixed array): no allocation or copy on either side. Offsets are byte offsets into an ASCII string,
 * hence also string indices: a path with non-ASCII characters is percent-encoded first (ROUTING.md §3.1), and
 * `matchedPath` is that encoded string.
 *
 * The module's bytes are read on first use, not at import, from wherever the runtime keeps them
 * (`wasm-source.ts`): the file beside the package on Node, Bun and Deno, a module that a Workers bundle
 * imports, or a `fetch` where neither exists.
 */
import { RouteError, type RouteErrorCode } from '../errors.js';
import {
  type Engine,
  type EngineOptions,
  NOT_FOUND,
  type PatternPiece,
  type RouteInfo,
  type RouteShape,
  type Snapshots,
} from './engine.js';
import { encodeNonAscii } from './percent-encoding.js';
import { applyTieringFlags } from './v8-tiering.js';
import * as generated from './wasm-pkg/arbor_wasm.js';
import { readWasmSource, type WasmModuleSource, type WasmSource } from './wasm-source.js';

/** The slice of the generated bindings we use (typed here so type checking never needs a build). Calls
 * that can fail throw a JSON error string (see {@link crossing}). */
interface WasmEngine {
  insert(methods: string, pattern: string): string;
  set_name(id: number, name: string): void;
  methods(): string;
  method_id(method: string): number;
  input_ptr(): number;
  input_capacity(): number;
  spans_ptr(): number;
  lookup(methodId: number, length: number): number;
  lookup_str(method: string, path: string): number;
  allowed_methods(path: string): string;
  routes_json(): string;
  route_shapes(): string;
  route_json(id: number): string | undefined;
  serialize(): Uint8Array;
}
interface WasmBindings {
  Engine: {
    new (order: number, trailingSlash: boolean): WasmEngine;
    from_snapshot(bytes: Uint8Array): WasmEngine;
  };
  wasm_memory(): WebAssembly.Memory;
  pattern_pieces(pattern: string): string;
  initSync(options: { module: WebAssembly.Module | BufferSource }): unknown;
}

declare global {
  interface Buffer {
    /** Node's native UTF-8 write (undocumented but stable since Node 0.x); returns bytes written. */
    utf8Write(text: string, offset?: number, length?: number): number;
  }
}

// V8 compiles WebAssembly with its baseline compiler (Liftoff) first and re-compiles hot functions with its
// optimising one only after a budget of work. When the application asks (`ARBOR_V8_TIERING=on`: the flags
// are process-wide, and a plain import sets none), `v8-tiering.ts` sets the few flags that make the lookup
// tier up sooner, only those the running V8 knows, before the module is loaded.
applyTieringFlags();
// Through `../engine/`, not `./`: the package runs this module bundled one directory beside `engine/`
// (scripts/bundle.mjs), and the path must hold from both places.
// Built on use: a runtime whose bundled modules have no `import.meta.url` (Workers) must still import this.
const wasmFile = (): URL => new URL('../engine/wasm-pkg/arbor_wasm_bg.wasm', import.meta.url);
const glue = generated as unknown as WasmBindings;
let ready: WasmBindings | undefined;
let memory: WebAssembly.Memory;

/** The bindings over an instantiated module: instantiated on the first call, from {@link readWasmSource}. */
function bindings(): WasmBindings {
  if (ready === undefined) instantiate(readWasmSource(wasmFile()));
  return ready as WasmBindings;
}

function instantiate(module: WebAssembly.Module | BufferSource): void {
  if (ready !== undefined) return;
  glue.initSync({ module });
  memory = glue.wasm_memory();
  ready = glue;
}

/**
 * Hands the router its WebAssembly module where the runtime cannot read it from the package's files: a
 * Cloudflare Workers bundle imports the `.wasm` file as a compiled module (the package's `workerd` entry
 * does this itself), a browser or another edge runtime may hold the bytes. Call it before the first
 * application or router is created; later calls do nothing.
 *
 * @example
 * import wasm from 'arbor-router/wasm'; // a bundler that compiles .wasm imports
 * provideWasm(wasm);
 */
export function provideWasm(module: WasmModuleSource): void {
  instantiate(module as WebAssembly.Module | BufferSource);
}

/**
 * Loads the router's WebAssembly module asynchronously, for a runtime that has neither a file system nor
 * `.wasm` imports: fetched from `source` (a URL, or a `Response` already under way), by default from the
 * file beside the package (`new URL(…, import.meta.url)`). Await it before creating an application.
 *
 * @example
 * await loadWasm();
 * const app = new Application();
 */
export async function loadWasm(source: WasmSource = wasmFile()): Promise<void> {
  if (ready !== undefined) return;
  if (source instanceof WebAssembly.Module || ArrayBuffer.isView(source) || source instanceof ArrayBuffer)
    return instantiate(source);
  const response = (await (typeof source === 'string' || source instanceof URL
    ? fetch(source)
    : source)) as Response;
  if (!response.ok) throw new Error(`loadWasm: ${response.url} answered ${response.status}`);
  instantiate(await WebAssembly.compile(await response.arrayBuffer()));
}

/** Up to this length a `charCodeAt` loop beats the native write (docs/PERFORMANCE.md, "The crossing"). */
const SHORT_PATH = 24;
const SPANS_CAPACITY = 64;

class WasmRouteEngine implements Engine, Snapshots {
  readonly #wasm: WasmEngine;
  // Each method some route uses, and its engine id at the same index. A lookup scans them with `===`:
  // node hands out one internalized string per method, compared by address, where a `Map` probe would
  // hash and pick a bucket on every lookup whose method differs from the last one.
  readonly #methodNames: string[] = [];
  readonly #methodIds: number[] = [];
  /** The same methods by engine id (what a route's shape names them by), and the method sets of shapes. */
  readonly #methodsById: string[] = [];
  readonly #methodSets = new Map<string, readonly string[]>();
  #lastMethod: string | undefined;
  #lastMethodId = 0;
  readonly #capacity: number;
  #memoryBuffer: ArrayBufferLike | undefined;
  #input = new Uint8Array(0);
  #inputBuffer: Utf8Writer = noWriter;
  #spans = new Uint32Array(0);
  #routes: RouteInfo[] | null = null;
  matchedPath = '';
  readonly snapshots: Snapshots = this;

  constructor(wasm: WasmEngine) {
    this.#wasm = wasm;
    this.#capacity = wasm.input_capacity();
    this.#refreshViews();
    // A loaded snapshot's methods, without reading its route list (all its routes' metadata as JSON).
    for (const method of wasm.methods().split(',')) if (method !== '') this.#learnMethod(method);
  }

  get spans(): Uint32Array {
    return this.#spans;
  }

  insert(methods: readonly string[], pattern: string): RouteShape {
    const json = crossing(() => this.#wasm.insert(methods.join(','), pattern), pattern);
    this.#routes = null;
    for (const method of methods) this.#learnMethod(method);
    this.#refreshViews();
    return this.#shape(JSON.parse(json) as RawShape);
  }

  setName(id: number, name: string): void {
    crossing(() => this.#wasm.set_name(id, name), undefined);
    this.#routes = null;
    this.#refreshViews();
  }

  lookup(method: string, path: string): number {
    // Servers pass the same few method strings over and over (node's parser hands out one string per
    // method), so the last one answers most lookups without a scan.
    let methodId = this.#lastMethodId;
    if (method !== this.#lastMethod) {
      methodId = this.#methodId(method);
      if (methodId < 0) return NOT_FOUND;
      this.#lastMethod = method;
      this.#lastMethodId = methodId;
    }
    const length = path.length;
    // A view over memory that grew is detached (length 0). The engine does not allocate per lookup,
    // but its first lookups may size internal buffers: one load here keeps us from writing into a
    // stale view.
    if (this.#input.length === 0) this.#refreshViews();
    if (length <= SHORT_PATH) {
      const input = this.#input;
      // One test after the loop instead of a branch per character: a non-ASCII path is rare, and the
      // bytes written for it are simply not used.
      let seen = 0;
      for (let i = 0; i < length; i++) {
        const code = path.charCodeAt(i);
        seen |= code;
        input[i] = code;
      }
      if (seen > 0x7f) return this.#lookupEncoded(method, path);
    } else if (length > this.#capacity || this.#inputBuffer.utf8Write(path, 0) !== length) {
      // Longer than the input area, or not ASCII (UTF-8 needed more bytes than characters).
      return this.#lookupEncoded(method, path);
    }
    this.matchedPath = path;
    // The answer carries ESCAPED's bit itself: the core notes a `%` while it checks the path anyway.
    const answer = this.#wasm.lookup(methodId, length);
    if (this.#spans.length === 0) this.#refreshViews();
    return answer;
  }

  #lookupEncoded(method: string, path: string): number {
    const encoded = encodeNonAscii(path);
    this.matchedPath = encoded;
    const answer = this.#wasm.lookup_str(method, encoded);
    this.#refreshViews();
    return answer;
  }

  allowedMethods(path: string): string[] {
    const answer = this.#wasm.allowed_methods(encodeNonAscii(path));
    this.#refreshViews();
    return answer === '' ? [] : answer.split(',');
  }

  routes(): RouteInfo[] {
    if (this.#routes === null) {
      this.#routes = JSON.parse(this.#wasm.routes_json()) as RouteInfo[];
      this.#refreshViews();
    }
    return this.#routes;
  }

  route(id: number): RouteInfo | undefined {
    if (this.#routes !== null) return this.#routes[id];
    const json = this.#wasm.route_json(id);
    this.#refreshViews();
    return json === undefined ? undefined : (JSON.parse(json) as RouteInfo);
  }

  serialize(): Uint8Array {
    const bytes = this.#wasm.serialize();
    this.#refreshViews();
    return bytes;
  }

  shapes(): RouteShape[] {
    const table = JSON.parse(this.#wasm.route_shapes()) as ShapeTable;
    this.#refreshViews();
    // Routes share their name lists and method sets: one frozen array each.
    const names = table.names.map((list) => Object.freeze(list));
    const sets = table.methods.map((ids) => this.#methodSet(ids));
    const numbers = table.routes;
    const shapes: RouteShape[] = [];
    for (let k = 0; k + 4 < numbers.length; k += 5) {
      const shadowedBy = numbers[k + 4] as number;
      shapes.push({
        id: shapes.length,
        methods: sets[numbers[k + 1] as number] ?? [],
        names: names[numbers[k] as number] ?? [],
        hasOptional: numbers[k + 2] === 1,
        captures: numbers[k + 3] as number,
        shadowedBy: shadowedBy < 0 ? null : shadowedBy,
      });
    }
    return shapes;
  }

  #shape([id, methodIds, names, hasOptional, captures, shadowedBy]: RawShape): RouteShape {
    return {
      id,
      methods: this.#methodSet(methodIds),
      names,
      hasOptional: hasOptional === 1,
      captures,
      shadowedBy: shadowedBy < 0 ? null : shadowedBy,
    };
  }

  /** The methods of engine ids `ids`: most routes share one of a few method sets, one frozen array each. */
  #methodSet(ids: readonly number[]): readonly string[] {
    const key = ids.join(',');
    let methods = this.#methodSets.get(key);
    if (methods === undefined) {
      methods = Object.freeze(ids.map((i) => this.#methodsById[i] ?? ''));
      this.#methodSets.set(key, methods);
    }
    return methods;
  }

  #methodId(method: string): number {
    const names = this.#methodNames;
    for (let i = 0; i < names.length; i++) if (names[i] === method) return this.#methodIds[i] as number;
    return NOT_FOUND;
  }

  #learnMethod(method: string): void {
    // Known already: registration calls this for every route, and asking the engine is a crossing.
    if (this.#methodNames.includes(method)) return;
    const id = this.#wasm.method_id(method);
    if (id < 0) return;
    this.#methodNames.push(method);
    this.#methodIds.push(id);
    this.#methodsById[id] = method;
  }

  /** Views over wasm memory are detached when it grows, which only cold calls can cause. */
  #refreshViews(): void {
    if (this.#memoryBuffer === memory.buffer) return;
    this.#memoryBuffer = memory.buffer;
    const inputPtr = this.#wasm.input_ptr();
    this.#input = new Uint8Array(memory.buffer, inputPtr, this.#capacity);
    this.#inputBuffer = utf8Writer(memory.buffer, inputPtr, this.#capacity);
    this.#spans = new Uint32Array(memory.buffer, this.#wasm.spans_ptr(), SPANS_CAPACITY);
  }
}

/** Writes a string's UTF-8 bytes into the input area; returns the bytes written. */
interface Utf8Writer {
  utf8Write(text: string, offset?: number): number;
}
const noWriter: Utf8Writer = { utf8Write: () => -1 };
const encoder = new TextEncoder();

/**
 * A writer over the input area: Node's `Buffer` (its native write is the fastest), else `TextEncoder`
 * (Workers without `nodejs_compat`), whose answer counts as a short write unless it took the whole string.
 */
function utf8Writer(buffer: ArrayBufferLike, offset: number, capacity: number): Utf8Writer {
  if (typeof Buffer === 'function') return Buffer.from(buffer, offset, capacity);
  const view = new Uint8Array(buffer, offset, capacity);
  return {
    utf8Write(text: string): number {
      const { read, written } = encoder.encodeInto(text, view);
      return read === text.length ? written : -1;
    },
  };
}

/** A route's shape as `insert` writes it: `[id, methodIds, names, hasOptional (0/1), captures, shadowedBy
 * (-1: none)]`. */
type RawShape = [number, number[], string[], number, number, number];

/** Every route's shape as `route_shapes` writes it: the name lists and method sets once each, then five
 * numbers per route in id order (name list, method set, hasOptional, captures, shadowedBy or -1). */
interface ShapeTable {
  names: string[][];
  methods: number[][];
  routes: number[];
}

/** The JSON object the engine throws when a call fails. */
interface EngineError {
  code: RouteErrorCode;
  message: string;
  pattern?: string;
  position?: number;
  conflictsWith?: string;
}

/**
 * Calls into the module: the one place where engine errors become JavaScript errors. The engine throws
 * a JSON string; anything else thrown (a JavaScript error) passes through unchanged.
 */
function crossing<T>(call: () => T, pattern: string | undefined): T {
  try {
    return call();
  } catch (thrown) {
    if (typeof thrown !== 'string') throw thrown;
    const error = JSON.parse(thrown) as EngineError;
    const details: ConstructorParameters<typeof RouteError>[2] = {};
    const errorPattern = error.pattern ?? pattern;
    if (errorPattern !== undefined) details.pattern = errorPattern;
    if (error.position !== undefined) details.position = error.position;
    if (error.conflictsWith !== undefined) details.conflictsWith = error.conflictsWith;
    throw new RouteError(error.code, error.message, details);
  }
}

/**
 * The pieces of a pattern written somewhere else than a registration (an `@api` tag), read by the core's
 * parser exactly as a route with that pattern would report them. Throws the `RouteError` its registration
 * would raise.
 *
 * @example
 * patternPieces('/files/*') // [{ kind: 'text', text: '/files/' }, { kind: 'wildcard' }]
 */
export function patternPieces(pattern: string): PatternPiece[] {
  const wasm = bindings();
  return JSON.parse(crossing(() => wasm.pattern_pieces(pattern), pattern)) as PatternPiece[];
}

/** Creates an empty WebAssembly engine. */
export function createWasmEngine(options: EngineOptions = {}): Engine {
  const order = options.order === 'specificity' ? 1 : 0;
  return new WasmRouteEngine(new (bindings().Engine)(order, options.trailingSlash ?? true));
}

/** Recreates an engine from `snapshots.serialize()` bytes. Throws a `RouteError` (`SNAPSHOT_*`) on bad
 * bytes. */
export function createWasmEngineFromSnapshot(bytes: Uint8Array): Engine {
  const wasm = bindings();
  return new WasmRouteEngine(crossing(() => wasm.Engine.from_snapshot(bytes), undefined));
}

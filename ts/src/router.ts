import { type Engine, type EngineOptions, NOT_FOUND, type RouteInfo } from './engine/engine.js';
import { createWasmEngine } from './engine/wasm-engine.js';

export interface RouterOptions extends EngineOptions {
  /** The engine to use; defaults to the WebAssembly engine. Tests pass the reference engine. */
  engine?: (options: EngineOptions) => Engine;
}

/** A successful lookup. `params` holds percent-decoded values; `captures` the regex block's groups. */
export interface RouteMatch<T> {
  value: T;
  /** The id of the matched route (index into {@link Router.routes}). */
  id: number;
  params: Record<string, string>;
  captures: (string | undefined)[];
  /** True when a parameter value carries a malformed percent-escape (`%zz`): the framework answers 400.
   * The affected values are left undecoded. */
  malformed: boolean;
}

const ABSENT = 0xffffffff;

/**
 * The standalone router: register patterns with any value, find them again.
 *
 * @example
 * const router = new Router<string>();
 * router.add('GET', '/tasks/:id<int>', 'show task');
 * router.find('GET', '/tasks/42'); // { value: 'show task', params: { id: '42' }, … }
 */
export class Router<T> {
  readonly #engine: Engine;
  readonly #values: T[] = [];
  /** Per route id: parameter names and capture count, copied once from the engine's metadata. */
  readonly #shapes: { names: string[]; captures: number }[] = [];

  constructor(options: RouterOptions = {}) {
    const { engine = createWasmEngine, ...engineOptions } = options;
    this.#engine = engine(engineOptions);
  }

  /** Registers `pattern` for one method or several. Throws a `RouteError` on a malformed pattern. */
  add(method: string | readonly string[], pattern: string, value: T): RouteInfo {
    const methods = typeof method === 'string' ? [method] : method;
    const { id } = this.#engine.insert(
      methods.map((m) => m.toUpperCase()),
      pattern,
    );
    const info = this.#engine.routes()[id];
    if (info === undefined) throw new Error(`engine lost route ${id}`);
    this.#values[id] = value;
    this.#shapes[id] = { names: info.params.map((p) => p.name), captures: info.captures };
    return info;
  }

  setName(id: number, name: string): void {
    this.#engine.setName(id, name);
  }

  /** Selection only: the route id for a request, or -1. */
  lookup(method: string, path: string): number {
    return this.#engine.lookup(method, path);
  }

  find(method: string, path: string): RouteMatch<T> | null {
    const engine = this.#engine;
    const id = engine.lookup(method, path);
    if (id === NOT_FOUND) return null;
    const shape = this.#shapes[id];
    if (shape === undefined) return null;
    const spans = engine.spans;
    const source = engine.matchedPath;
    const decode = source.includes('%');
    let malformed = false;
    const read = (index: number): string | undefined => {
      const start = spans[index * 2] ?? ABSENT;
      const end = spans[index * 2 + 1] ?? ABSENT;
      if (start === ABSENT) return undefined;
      const raw = source.slice(start, end);
      if (!decode || !raw.includes('%')) return raw;
      try {
        return decodeURIComponent(raw);
      } catch {
        malformed = true;
        return raw;
      }
    };
    const params: Record<string, string> = {};
    const names = shape.names;
    for (let i = 0; i < names.length; i++) {
      const value = read(i);
      const name = names[i];
      if (value !== undefined && name !== undefined) params[name] = value;
    }
    const captures: (string | undefined)[] = [];
    for (let i = 0; i < shape.captures; i++) captures.push(read(names.length + i));
    return { value: this.#values[id] as T, id, params, captures, malformed };
  }

  /** Every method that has a route matching `path` (for 405 `Allow` and automatic OPTIONS). */
  allowedMethods(path: string): string[] {
    return this.#engine.allowedMethods(path);
  }

  /** Route metadata, in definition order. */
  routes(): RouteInfo[] {
    return this.#engine.routes();
  }
}

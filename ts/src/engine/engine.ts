/**
 * The engine interface: what the rest of Arbor needs from a route matcher.
 *
 * Two engines implement it: the WebAssembly engine (`wasm-engine.ts`, the product) and the reference
 * engine (`reference/`, a deliberately simple matcher written in TypeScript) that the conformance suite
 * runs side by side with it (differential testing). Handlers never reach an engine: it stores route ids.
 */

/** How dynamic routes compete (SPEC §3.2). */
export type Order = 'definition' | 'specificity';

export interface EngineOptions {
  /** `'definition'` (default): the first defined dynamic route wins. `'specificity'`: static text, then
   * constrained, then unconstrained parameters, then wildcards, with backtracking. */
  order?: Order;
  /** Tolerate one trailing slash when nothing matches exactly (default `true`). */
  trailingSlash?: boolean;
}

export type ParamKind = 'param' | 'optional' | 'wildcard' | 'regex-group';

/** One parameter of a route, as the core parsed it. */
export interface ParamInfo {
  /** Parameter name; the wildcard tail is `'*'`. */
  name: string;
  kind: ParamKind;
  /** Constraint shortcut (`'int'`, `'uuid'`, …) when one was used. */
  shortcut: string | null;
  /** Regular-expression source of the constraint (the shortcut's expansion included). */
  regex: string | null;
  optional: boolean;
}

/** Route metadata owned by the engine: the single source the exporter, CLI and cache read. */
export interface RouteInfo {
  /** Dense id in definition order. */
  id: number;
  methods: string[];
  /** The pattern as registered. */
  pattern: string;
  /** Normalised template, e.g. `/posts/{id}`. */
  template: string;
  params: ParamInfo[];
  /** Number of capture groups of a `{^regex$}` block. */
  captures: number;
  name: string | null;
  /** Id of an earlier route that matches every path this one matches (SPEC §3.2). */
  shadowedBy: number | null;
  isStatic: boolean;
}

export interface Inserted {
  id: number;
  shadowedBy: number | null;
}

/** Sentinel returned by {@link Engine.lookup} when nothing matches. */
export const NOT_FOUND = -1;

/**
 * Added to a route id in {@link Engine.lookup}'s answer when the matched path holds a `%`: only then can a
 * value need percent-decoding. Route ids fit below it (the core numbers at most 2^30 routes).
 */
export const ESCAPED = 0x4000_0000;

/** The route id of a {@link Engine.lookup} answer that is not {@link NOT_FOUND}. */
export const ROUTE_ID = ESCAPED - 1;

export interface Engine {
  /** Registers a pattern for some methods. Throws a `RouteError` on a malformed pattern or a conflict. */
  insert(methods: readonly string[], pattern: string): Inserted;
  setName(id: number, name: string): void;
  /**
   * Hot path. Returns {@link NOT_FOUND}, or the route id plus {@link ESCAPED} when the matched path holds
   * a `%`. After a match, {@link spans} holds `[start, end, …]` pairs (see docs/ARCHITECTURE.md) that
   * index into {@link matchedPath}; `0xFFFFFFFF` marks an absent optional parameter or a capture group
   * that did not participate.
   */
  lookup(method: string, path: string): number;
  /** Spans of the last successful lookup; read them before the next call. */
  readonly spans: ArrayLike<number>;
  /** The string the spans index into: the path, with non-ASCII characters percent-encoded. */
  readonly matchedPath: string;
  allowedMethods(path: string): string[];
  routes(): RouteInfo[];
  /** One route's metadata (cheap: registration asks for it after every insert). */
  route(id: number): RouteInfo | undefined;
}

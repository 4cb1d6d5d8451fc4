/**
 * The engine interface: what the rest of Arbor needs from a route matcher.
 *
 * The WebAssembly engine (`wasm-engine.ts`) implements it; small tables may be answered by generated code
 * in front of it (`router/generated-front.ts`). The test suite adds a reference engine
 * (`tests/support/reference-engine/`, a deliberately simple matcher written in TypeScript) and runs the
 * conformance tables on all of them (differential testing). Handlers never reach an engine: it stores
 * route ids.
 */

/** How dynamic routes compete (ROUTING.md §3.2). */
export type Order = 'definition' | 'specificity';

/**
 * How the routing engine matches: which dynamic route wins, and whether a trailing slash is tolerated.
 * A `Router` takes them (`RouterOptions` extends them) and so does an `Application` (`order`).
 *
 * @example
 * const router = new Router<string>({ order: 'specificity', trailingSlash: false });
 */
export interface EngineOptions {
  /** `'definition'` (default): the first defined dynamic route wins. `'specificity'`: static text, then
   * constrained, then unconstrained parameters, then wildcards, with backtracking. */
  order?: Order;
  /** Tolerate one trailing slash when nothing matches exactly (default `true`). */
  trailingSlash?: boolean;
}

/**
 * What kind of parameter a route has: `'param'` (`:id`, `{id}`, `:id<int>`: one non-empty piece of a
 * segment), `'optional'` (`:id?`: the whole last segment, may be absent), `'wildcard'` (a trailing `*`: the
 * rest of the path, possibly empty, named `'*'`) or `'regex-group'` (a named capture group of a `{^regex$}`
 * block).
 */
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

/** How a parameter's value is constrained: not at all, by a shortcut (`int`) or by a regex. */
export type ConstraintKind = 'none' | 'shortcut' | 'regex';

/**
 * One piece of a pattern, in textual order, as the core's parser read it. Everything in Arbor that needs
 * a pattern's structure (URL generation, OpenAPI paths, the generated lookup code, the CLI) reads these:
 * no other module parses a pattern, so a pattern means the same thing everywhere.
 *
 * @example
 * // '/v1/:name::publish' →
 * [{ kind: 'text', text: '/v1/' }, { kind: 'param', name: 'name', constraint: 'none', … }, { kind: 'text', text: ':publish' }]
 */
export type PatternPiece =
  /** Literal text as it matches, not percent-encoded (`::` already read as `:`). */
  | { kind: 'text'; text: string }
  | {
      kind: 'param';
      name: string;
      constraint: ConstraintKind;
      /** The shortcut used (`'int'`), if any. */
      shortcut: string | null;
      /** The constraint's regex source, the shortcut's expansion included. */
      regex: string | null;
      optional: boolean;
    }
  /** The trailing `*`: its value is the parameter `'*'`. */
  | { kind: 'wildcard' }
  /** A `{^regex$}` block: the source between the braces; one entry per capture group, `null` if unnamed. */
  | { kind: 'regex'; source: string; captures: (string | null)[] };

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
  /** Id of an earlier route that matches every path this one matches (ROUTING.md §3.2). */
  shadowedBy: number | null;
  isStatic: boolean;
  /** The pattern as the core parsed it. */
  pieces: PatternPiece[];
}

/** Sentinel returned by {@link Engine.lookup} when nothing matches. */
export const NOT_FOUND = -1;

/**
 * Added to a route id in {@link Engine.lookup}'s answer when a value may need percent-decoding: the match
 * has values and the matched path holds a `%`. An engine may set it more often (it only sends the match
 * down the decoding path), never less. Route ids fit below it (the core numbers at most 2^30 routes).
 */
export const ESCAPED = 0x4000_0000;

/** The route id of a {@link Engine.lookup} answer that is not {@link NOT_FOUND}. */
export const ROUTE_ID = ESCAPED - 1;

export interface Engine {
  /** Registers a pattern for some methods and returns what serving the new route needs (its whole
   * metadata is {@link route}'s). Throws a `RouteError` on a malformed pattern or a conflict. */
  insert(methods: readonly string[], pattern: string): RouteShape;
  setName(id: number, name: string): void;
  /**
   * Hot path. Returns {@link NOT_FOUND}, or the route id plus {@link ESCAPED} when a value may need
   * percent-decoding. After a match, {@link spans} holds `[start, end, …]` pairs (see
   * docs/ARCHITECTURE.md) that index into {@link matchedPath}; `0xFFFFFFFF` marks an absent optional
   * parameter or a capture group that did not participate.
   */
  lookup(method: string, path: string): number;
  /** Spans of the last successful lookup; read them before the next call. */
  readonly spans: ArrayLike<number>;
  /** The string the spans index into: the path, with non-ASCII characters percent-encoded. */
  readonly matchedPath: string;
  allowedMethods(path: string): string[];
  routes(): RouteInfo[];
  /** One route's metadata. */
  route(id: number): RouteInfo | undefined;
  /** The snapshot capability (the route cache), or `null` for an engine that has none. */
  readonly snapshots: Snapshots | null;
}

/** An engine's table as bytes, versioned and checksummed; `createWasmEngineFromSnapshot` loads them. */
export interface Snapshots {
  serialize(): Uint8Array;
  /**
   * What attaching values to a loaded snapshot's routes needs of each, for every route in one call: a
   * start from the route cache asks for nothing more, and the full {@link RouteInfo}s stay unread.
   */
  shapes(): RouteShape[];
}

/** The part of a route's {@link RouteInfo} that serving it needs. */
export interface RouteShape {
  id: number;
  /** Shared between routes with the same methods: never mutated. */
  methods: readonly string[];
  /** The names of `params`, in span order. */
  names: readonly string[];
  /** Whether some parameter is optional (its value may be absent). */
  hasOptional: boolean;
  captures: number;
  shadowedBy: number | null;
}

/** A route's {@link RouteShape}, from its whole metadata (for an engine that keeps {@link RouteInfo}s). */
export function shapeOf(info: RouteInfo): RouteShape {
  const { id, methods, params, captures, shadowedBy } = info;
  return {
    id,
    methods,
    names: params.map((p) => p.name),
    hasOptional: params.some((p) => p.optional),
    captures,
    shadowedBy,
  };
}

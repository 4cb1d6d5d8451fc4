/**
 * Builds the {@link RouteMatch} of a lookup from the engine's spans, or in code generated for a small
 * table ({@link answerCode}).
 *
 * One function is generated per route shape (its parameter names), the way rou3's compiled mode does it:
 * the match and its `params` are object literals with fixed keys, so V8 gives every match one hidden class
 * and every shape's params another, and allocates both in one go. The generated code only slices; values
 * that may need percent-decoding (the engine says when the path holds a `%`), absent optional parameters
 * and regex-block captures take the generic {@link readMatch}.
 */

import { codeGenerationAllowed } from '../code-generation.js';
import type { AnswerCode } from './compiled-table.js';

/** A successful lookup. `params` holds percent-decoded values; `captures` the regex block's groups. */
export interface RouteMatch<T> {
  readonly value: T;
  /** The id of the matched route (index into `Router#routes()`). */
  readonly id: number;
  readonly params: Readonly<Record<string, string>>;
  readonly captures: readonly (string | undefined)[];
  /** True when a parameter value carries a malformed percent-escape (`%zz`): the framework answers 400.
   * Such values are left undecoded. `find()` itself never throws on any path. */
  readonly malformed: boolean;
}

/** What `Router#select` answers: the route a request selects, its parameter values not read. One frozen
 * object per route, the same on every lookup: a selection allocates nothing. */
export interface RouteSelection<T> {
  readonly value: T;
  /** The id of the route (index into `Router#routes()`). */
  readonly id: number;
}

/** What the router keeps per route id: everything a lookup needs, in one object. */
export interface RouteEntry<T> {
  readonly value: T;
  readonly id: number;
  /** Parameter names in span order. */
  readonly names: readonly string[];
  /** Number of regex-block capture groups (their spans follow the parameters'). */
  readonly captures: number;
  /** The frozen, shared match of a route without parameters or captures (static routes). */
  readonly fixed: RouteMatch<T> | null;
  /** Builds the match when no value needs decoding (`spans` index into `path`), for a route the router's
   * {@link shapeSwitch} has no case for; {@link readMatch} for the others (never called). */
  readonly make: MatchMaker<T>;
}

/**
 * What the engine's answers read, by route id, as columns: one dense array per field instead of each
 * route's {@link RouteEntry}. On a large table the entry objects lie apart in the heap, and loading the
 * one a lookup needs is a cache miss, where a dense array of the field it reads is not. The router
 * appends to the arrays in place; the {@link shapeSwitch} built over them reads them as they are then.
 */
export interface MatchColumns<T> {
  readonly entries: RouteEntry<T>[];
  readonly values: T[];
  /** The route's case in the {@link shapeSwitch}: {@link FIXED_SHAPE}, {@link OWN_SHAPE}, or the index of
   * its parameter-name list. */
  readonly cases: number[];
  /** {@link RouteEntry.fixed}. */
  readonly fixed: (RouteMatch<T> | null)[];
}

/** Route id → its match, for an engine answer whose values need no decoding; `null` for an id the router
 * holds no route for. */
export type EngineMatcher<T> = (id: number, spans: ArrayLike<number>, path: string) => RouteMatch<T> | null;

/** {@link MatchColumns.cases} of a route without values: the switch answers its fixed match. */
export const FIXED_SHAPE = -1;
/** {@link MatchColumns.cases} of a route the switch leaves to its own {@link RouteEntry.make} (optional
 * parameters, captures, or more shapes than one switch takes). */
export const OWN_SHAPE = -2;
/** Most shapes one {@link shapeSwitch} takes: its code grows with them, and V8 stops optimising a
 * function past ~60 KB of bytecode. Routes of further shapes use their own builder. */
export const MAX_SWITCH_SHAPES = 256;

export type MatchMaker<T> = (entry: RouteEntry<T>, spans: ArrayLike<number>, path: string) => RouteMatch<T>;

/** Start offset of an absent optional parameter or a capture group that did not participate. */
export const ABSENT = 0xffffffff;

const NO_CAPTURES: readonly (string | undefined)[] = Object.freeze([]);

/** A parameter name as an object-literal key: `__proto__` as a literal key would set the prototype, a
 * computed key defines an own property. */
function literalKey(name: string): string {
  return name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name);
}

/**
 * How generated find code (a small table's, `engine/compiled-table.ts`) answers with this router's
 * matches: the route's frozen match for a route without values, else the same object literal as
 * {@link matchMaker}'s ({@link matchLiteral}), the values sliced in place (or the generated code's own value
 * expressions); {@link readMatch} when a value holds `%`. Each route's entry, value and fixed match are
 * constants of the generated code.
 */
export function answerCode<T>(entries: readonly (RouteEntry<T> | undefined)[]): AnswerCode {
  const scope: Record<string, unknown> = { NO_CAPTURES, readMatch };
  entries.forEach((entry, id) => {
    if (entry === undefined) return;
    scope[`E${id}`] = entry;
    scope[`V${id}`] = entry.value;
    scope[`F${id}`] = entry.fixed;
  });
  return {
    scope,
    found(id, spans, escaped, values) {
      const entry = entries[id];
      if (entry === undefined) return 'null';
      if (entry.fixed !== null) return `F${id}`;
      const literal = matchLiteral(
        entry.names,
        (i) => values?.[i] ?? `p.slice(${spans[2 * i]}, ${spans[2 * i + 1]})`,
        `V${id}`,
        `${id}`,
      );
      return `(${escaped} ? readMatch(E${id}, [${spans.join(', ')}], p) : ${literal})`;
    },
  };
}

/**
 * How generated find code answers with the router's selections ({@link RouteSelection}): each route's
 * selection is a constant of the generated code, so a selected route costs no allocation and its values
 * are never sliced.
 */
export function selectionCode<T>(selections: readonly (RouteSelection<T> | undefined)[]): AnswerCode {
  const scope: Record<string, unknown> = {};
  selections.forEach((selection, id) => {
    if (selection !== undefined) scope[`S${id}`] = selection;
  });
  return { scope, found: (id) => (selections[id] === undefined ? 'null' : `S${id}`) };
}

/** The object literal of a match whose values are all present and need no decoding, the `i`th value
 * given by `paramValue(i)`, the route's value and id by the expressions `value` and `id`. Every generated
 * match is written by this one function, so that all have the same fields in the same order: one hidden
 * class for V8. */
function matchLiteral(
  names: readonly string[],
  paramValue: (index: number) => string,
  value: string,
  id: string,
): string {
  const fields = names.map((name, i) => `${literalKey(name)}: ${paramValue(i)}`);
  return `{ value: ${value}, id: ${id}, params: { ${fields.join(', ')} }, captures: NO_CAPTURES, malformed: false }`;
}

/** {@link matchLiteral} with the values sliced from the path `p` at the spans `s` (the parameters of
 * generated builders). */
function slicedMatch(names: readonly string[], value: string, id: string): string {
  return matchLiteral(names, (i) => `p.slice(s[${2 * i}], s[${2 * i + 1}])`, value, id);
}

/** The match of a route without parameters: it is the same on every lookup. */
export function fixedMatch<T>(value: T, id: number): RouteMatch<T> {
  return Object.freeze({ value, id, params: Object.freeze({}), captures: NO_CAPTURES, malformed: false });
}

const returnFixed = <T>(entry: RouteEntry<T>): RouteMatch<T> => entry.fixed as RouteMatch<T>;

/**
 * The maker for a route: the fixed match, a generated builder when every parameter is always present
 * and there are no captures, else {@link readMatch}. `cache` shares builders between routes of one shape.
 */
export function matchMaker<T>(
  names: readonly string[],
  captures: number,
  hasOptional: boolean,
  cache: Map<string, MatchMaker<unknown>>,
): MatchMaker<T> {
  if (names.length === 0 && captures === 0) return returnFixed;
  if (hasOptional || captures > 0 || !codeGenerationAllowed()) return readMatch;
  const key = names.join('\u0000');
  let make = cache.get(key);
  if (make === undefined) {
    make = new Function('NO_CAPTURES', `return (e, s, p) => (${slicedMatch(names, 'e.value', 'e.id')});`)(
      NO_CAPTURES,
    ) as MatchMaker<unknown>;
    cache.set(key, make);
  }
  return make as MatchMaker<T>;
}

/**
 * One builder for every route of a router, given the parameter-name lists of its shapes by index: a
 * `switch` on the route's {@link MatchColumns.cases}, each case the object literal of {@link matchMaker}.
 * Called for every match the engine answers, it is one call target where each shape's own builder would
 * make the call megamorphic (a real API has dozens of shapes).
 */
export function shapeSwitch<T>(
  shapes: readonly (readonly string[])[],
  columns: MatchColumns<T>,
): EngineMatcher<T> {
  if (!codeGenerationAllowed()) return entryMatcher(columns);
  const cases = shapes.map(
    (names, index) => `case ${index}: return ${slicedMatch(names, 'values[id]', 'id')};`,
  );
  return new Function(
    'NO_CAPTURES',
    'entries',
    'values',
    'cases',
    'fixed',
    `return (id, s, p) => {
      switch (cases[id]) {
        case ${FIXED_SHAPE}: return fixed[id];
        ${cases.join('\n        ')}
      }
      const e = entries[id];
      return e === undefined ? null : e.make(e, s, p);
    };`,
  )(NO_CAPTURES, columns.entries, columns.values, columns.cases, columns.fixed) as EngineMatcher<T>;
}

/** An {@link EngineMatcher} that reads each route's entry and builds with {@link readMatch}: correct for
 * every route, and what a router answers with until its first {@link shapeSwitch} is built. */
export function entryMatcher<T>(columns: MatchColumns<T>): EngineMatcher<T> {
  return (id, spans, path) => {
    const entry = columns.entries[id];
    return entry === undefined ? null : (entry.fixed ?? readMatch(entry, spans, path));
  };
}

/** The generic maker: skips absent values, percent-decodes, reports malformed escapes. */
export function readMatch<T>(entry: RouteEntry<T>, spans: ArrayLike<number>, path: string): RouteMatch<T> {
  const params: Record<string, string> = {};
  let malformed = false;
  const names = entry.names;
  for (let i = 0; i < names.length; i++) {
    const value = readSpan(spans, i, path);
    const name = names[i];
    if (value === undefined || name === undefined) continue;
    const decoded = decode(value);
    if (decoded === null) malformed = true;
    setParam(params, name, decoded ?? value);
  }
  const captures: (string | undefined)[] = [];
  for (let i = 0; i < entry.captures; i++) {
    const raw = readSpan(spans, names.length + i, path);
    const decoded = raw === undefined ? undefined : decode(raw);
    if (decoded === null) malformed = true;
    captures.push(decoded ?? raw);
  }
  return {
    value: entry.value,
    id: entry.id,
    params,
    captures: captures.length > 0 ? captures : NO_CAPTURES,
    malformed,
  };
}

/** `params[name] = value`, except that `__proto__` becomes an own property instead of the prototype. */
function setParam(params: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') {
    Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    params[name] = value;
  }
}

/** The raw text of span `index`, or `undefined` for an absent optional parameter or capture group. */
export function readSpan(spans: ArrayLike<number>, index: number, path: string): string | undefined {
  const start = spans[2 * index] ?? ABSENT;
  if (start === ABSENT) return undefined;
  return path.slice(start, spans[2 * index + 1] ?? start);
}

/** Percent-decodes a value (`%2F` → `/`); `null` for a malformed escape such as `%zz` or bad UTF-8. */
export function decode(value: string): string | null {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

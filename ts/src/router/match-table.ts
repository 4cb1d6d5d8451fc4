/**
 * What a router keeps per route for its lookups to answer with, filled at registration: each route's
 * {@link RouteEntry} and the dense columns engine answers read ({@link MatchColumns}), the parameter-name
 * lists ("shapes") the {@link shapeSwitch} has a case for, and the builders of the routes it has none for.
 */
import type { RouteShape } from '../engine/engine.js';
import {
  type EngineMatcher,
  entryMatcher,
  FIXED_SHAPE,
  fixedMatch,
  MAX_SWITCH_SHAPES,
  type MatchColumns,
  type MatchMaker,
  matchMaker,
  OWN_SHAPE,
  readMatch,
  shapeSwitch,
} from './match-builder.js';

export class MatchTable<T> {
  /** Route id → everything a lookup needs to answer with that route. */
  readonly columns: MatchColumns<T> = { entries: [], values: [], cases: [], fixed: [] };
  /** Match builders by parameter-name list: generating code per route would dominate registration. */
  readonly #makers = new Map<string, MatchMaker<unknown>>();
  /** Shape index ({@link MatchColumns.cases}) by parameter-name list, and the lists by index. */
  readonly #shapeIndex = new Map<string, number>();
  readonly #shapes: (readonly string[])[] = [];
  /** The last {@link matcher} and the number of shapes it was built for. */
  #matcher: EngineMatcher<T> = entryMatcher(this.columns);
  #matcherShapes = -1;

  /** Records route `shape.id` and its value. `byList`, when given, keeps each parameter-name list's
   * shape index for the list itself: routes that share one list object work it out once. */
  add(shape: RouteShape, value: T, byList?: Map<readonly string[], number>): void {
    const { id, names, captures, hasOptional } = shape;
    const fixed = names.length === 0 && captures === 0 ? fixedMatch(value, id) : null;
    const index =
      fixed !== null
        ? FIXED_SHAPE
        : hasOptional || captures > 0
          ? OWN_SHAPE
          : (byList?.get(names) ?? this.#shapeOf(names, byList));
    const columns = this.columns;
    columns.entries[id] = {
      value,
      id,
      names,
      captures,
      fixed,
      // A shape with a case in the switch never calls its own builder: generate one only for the others.
      make: index >= 0 ? readMatch : matchMaker<T>(names, captures, hasOptional, this.#makers),
    };
    columns.values[id] = value;
    columns.cases[id] = index;
    columns.fixed[id] = fixed;
  }

  /** The shape index of a parameter-name list, or {@link OWN_SHAPE} past {@link MAX_SWITCH_SHAPES}. */
  #shapeOf(names: readonly string[], byList?: Map<readonly string[], number>): number {
    const key = names.join('\u0000');
    let index = this.#shapeIndex.get(key);
    if (index === undefined) {
      if (this.#shapes.length >= MAX_SWITCH_SHAPES) index = OWN_SHAPE;
      else {
        index = this.#shapes.length;
        this.#shapes.push(names);
        this.#shapeIndex.set(key, index);
      }
    }
    byList?.set(names, index);
    return index;
  }

  /** Builds the match of every engine answer: the {@link shapeSwitch} of the shapes so far, built again
   * only when a route brought a new shape. */
  matcher(): EngineMatcher<T> {
    if (this.#matcherShapes !== this.#shapes.length) {
      this.#matcher = shapeSwitch(this.#shapes, this.columns);
      this.#matcherShapes = this.#shapes.length;
    }
    return this.#matcher;
  }
}

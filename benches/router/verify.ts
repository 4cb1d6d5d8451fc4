/**
 * Proves an adapter correct on a table before anything is timed: for every request, the answer, the
 * selection-only function and the params function must agree with the expectation computed from the
 * table under the router's own rule, and the returned parameters must rebuild the request path.
 *
 * Requests are judged on two levels, because they weigh differently in the report: the route (the
 * handler a user's request would reach) and the parameters. A router that selects the intended route
 * for every request but splits a parameter differently on a few (memoirist reads GitHub's
 * `:base...:head` as one parameter) is still a router a user would compare against: it stays in the
 * headline comparison, flagged with those requests. A router that selects a wrong route, finds nothing,
 * throws, or cannot register the table is flagged and never the figure Arbor is compared with.
 */
import type { Adapter, Built } from './adapters/index.js';
import { type Answer, Expectation, rebuild } from './expect.js';
import { paramNames, patternText, type RouteTable, WILDCARD } from './routes.js';

/**
 * - `exact`: every request answered with the intended route and parameters;
 * - `split`: every request answered with the intended route, some with other parameter values;
 * - `wrong`: some request answered with another route, none, or an error (or the timed functions disagree);
 * - `unregistered`: the router cannot hold the table.
 */
export type Agreement = 'exact' | 'split' | 'wrong' | 'unregistered';

/** What a run file keeps of a verification, per router and table. */
export interface TableVerification {
  ok: boolean;
  /** Absent in files written before it existed: read `ok` and `reason` then. */
  agreement?: Agreement;
  reason: string | null;
  split?: string[];
  /** See `Verified.unintended` (absent in older files). */
  unintended?: string[];
}

export interface Verified {
  /** True when `agreement` is `exact`. */
  ok: boolean;
  agreement: Agreement;
  /** Why the adapter is not exact: registration error, or the first wrong answers. */
  reason: string | null;
  /** Number of requests answered with a wrong route (or none, or an error). */
  wrong: number;
  /** The requests answered with the route its rule selects but other parameters, each with both answers. */
  split: string[];
  /**
   * The requests that the router's own order answers with another route than the one they were made for
   * (`Request.route`): not a wrong answer under its rule, but not the same work as a router answering
   * every request with its intended route. Arbor's definition order does this on 25 GitHub requests.
   */
  unintended: string[];
  built: Built | null;
  /** Per request, the parameter names to read in the router's own naming (for `withParams`). */
  names: string[][];
}

function sameParams(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function show(answer: Answer | null, table: RouteTable): string {
  if (answer === null) return 'not found';
  const route = table.routes[answer.id];
  const pattern = route
    ? route.pieces
        .map((p) => (p.kind === 'static' ? p.text : p.kind === 'wildcard' ? '*' : `:${p.name}`))
        .join('')
    : '?';
  return `#${answer.id} ${pattern} ${JSON.stringify(answer.params)}`;
}

/** The sum `withParams` must return when it reads `params` (route id plus every value's length). */
function total(
  id: number,
  params: Record<string, string>,
  names: readonly string[],
  adapter: Adapter,
): number {
  const slash = (name: string): number => (name === WILDCARD && adapter.wildcardKeepsSlash ? 1 : 0);
  return id + names.reduce((n, name) => n + (params[name] ?? '').length + slash(name), 0);
}

export function verify(adapter: Adapter, table: RouteTable): Verified {
  const names = table.requests.map(() => [] as string[]);
  let built: Built;
  try {
    built = adapter.build(table);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      agreement: 'unregistered',
      reason: `cannot register the table: ${message.split('\n')[0]}`,
      wrong: 0,
      split: [],
      unintended: [],
      built: null,
      names,
    };
  }
  const expectation = Expectation.of(table);
  const problems: string[] = [];
  const split: string[] = [];
  const unintended: string[] = [];
  let wrong = 0;
  const native = (n: string): string => (n === WILDCARD ? adapter.wildcardKey : n);
  /** Calls the timed params function, turning a throw into a problem. */
  const paramsFunction = (method: string, path: string, read: string[], want: number): string | null => {
    let got: number;
    try {
      got = built.withParams(method, path, read);
    } catch (error) {
      return `params function threw ${error instanceof Error ? error.message : String(error)}`;
    }
    return got === want ? null : `params function gave ${got}, expected ${want}`;
  };
  table.requests.forEach((request, i) => {
    const { method, path } = request;
    const expected = expectation.answer(adapter.rule, method, path);
    let actual: Answer | null;
    let selected: number;
    try {
      actual = built.answer(method, path);
      selected = built.select(method, path);
    } catch (error) {
      wrong++;
      problems.push(`${method} ${path}: threw ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (request.route !== undefined && expected?.id !== request.route) {
      const made = table.routes[request.route];
      unintended.push(
        `${method} ${path}: ${show(expected, table)}, made for #${request.route} ${made ? patternText(made.pieces) : '?'}`,
      );
    }
    const route = expected ? table.routes[expected.id] : undefined;
    const routeNames = route ? paramNames(route.pieces) : [];
    names[i] = routeNames.map(native);
    let problem: string | null = null;
    if (expected === null) {
      if (actual !== null || selected !== -1) problem = `expected not found, got ${show(actual, table)}`;
    } else if (actual === null || actual.id !== expected.id) {
      problem = `expected ${show(expected, table)}, got ${show(actual, table)}`;
    } else if (selected !== expected.id) {
      problem = `answer is right but selection-only gave #${selected}`;
    } else if (
      !sameParams(actual.params, expected.params) ||
      rebuild(route?.pieces ?? [], actual.params) !== path
    ) {
      // The intended route with other parameters: time what the router did return, and say so.
      const own = Object.keys(actual.params);
      names[i] = own.map(native);
      problem = paramsFunction(
        method,
        path,
        names[i] as string[],
        total(actual.id, actual.params, own, adapter),
      );
      if (problem === null) {
        split.push(
          `${method} ${path}: ${JSON.stringify(actual.params)} where ${patternText(route?.pieces ?? [])} gives ${JSON.stringify(expected.params)}`,
        );
        return;
      }
    } else {
      problem = paramsFunction(
        method,
        path,
        names[i] as string[],
        total(expected.id, expected.params, routeNames, adapter),
      );
    }
    if (problem !== null) {
      // A wrong answer is still timed (and flagged): read the parameters the router did return.
      names[i] = actual ? Object.keys(actual.params).map(native) : [];
      wrong++;
      if (problems.length < 3) problems.push(`${method} ${path}: ${problem}`);
    }
  });
  const of = `of ${table.requests.length} requests`;
  if (wrong > 0) {
    return {
      ok: false,
      agreement: 'wrong',
      reason: `${wrong} ${of} answered wrongly under its own rule (${adapter.rule}): a wrong route, none, or a timed function disagreeing; e.g. ${problems.join('; ')}`,
      wrong,
      split,
      unintended,
      built,
      names,
    };
  }
  if (split.length > 0) {
    return {
      ok: false,
      agreement: 'split',
      reason: `the intended route for every request; other parameters on ${split.length} ${of}: ${split.join('; ')}`,
      wrong: 0,
      split,
      unintended,
      built,
      names,
    };
  }
  return { ok: true, agreement: 'exact', reason: null, wrong: 0, split, unintended, built, names };
}

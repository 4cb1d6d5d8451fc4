/**
 * Proves an adapter correct on a table before anything is timed: for every request, the answer, the
 * selection-only function and the params function must agree with the expectation computed from the
 * table under the router's own rule, and the returned parameters must rebuild the request path.
 */
import type { Adapter, Built } from './adapters/index.js';
import { type Answer, Expectation, rebuild } from './expect.js';
import { paramNames, type RouteTable, WILDCARD } from './routes.js';

export interface Verified {
  ok: boolean;
  /** Why the adapter failed: registration error or the first wrong answers. */
  reason: string | null;
  /** Number of requests answered wrongly. */
  wrong: number;
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

export function verify(adapter: Adapter, table: RouteTable): Verified {
  const names = table.requests.map(() => [] as string[]);
  let built: Built;
  try {
    built = adapter.build(table);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `cannot register the table: ${message.split('\n')[0]}`,
      wrong: 0,
      built: null,
      names,
    };
  }
  const expectation = Expectation.of(table);
  const problems: string[] = [];
  let wrong = 0;
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
    const route = expected ? table.routes[expected.id] : undefined;
    const routeNames = route ? paramNames(route.pieces) : [];
    const native = (n: string): string => (n === WILDCARD ? adapter.wildcardKey : n);
    names[i] = routeNames.map(native);
    let problem: string | null = null;
    if (expected === null) {
      if (actual !== null || selected !== -1) problem = `expected not found, got ${show(actual, table)}`;
    } else if (actual === null || actual.id !== expected.id || !sameParams(actual.params, expected.params)) {
      problem = `expected ${show(expected, table)}, got ${show(actual, table)}`;
    } else if (route && rebuild(route.pieces, actual.params) !== path) {
      problem = `params do not rebuild the path: ${JSON.stringify(actual.params)}`;
    } else if (selected !== expected.id) {
      problem = `answer is right but selection-only gave #${selected}`;
    } else {
      const slash = (name: string): number => (name === WILDCARD && adapter.wildcardKeepsSlash ? 1 : 0);
      const total =
        expected.id +
        routeNames.reduce((n, name) => n + (expected.params[name] ?? '').length + slash(name), 0);
      let got: number;
      try {
        got = built.withParams(method, path, names[i] as string[]);
      } catch (error) {
        got = Number.NaN;
        problem = `params function threw ${error instanceof Error ? error.message : String(error)}`;
      }
      if (problem === null && got !== total) problem = `params function gave ${got}, expected ${total}`;
    }
    if (problem !== null) {
      // A wrong answer is still timed (and flagged): read the parameters the router did return.
      names[i] = actual ? Object.keys(actual.params).map(native) : [];
      wrong++;
      if (problems.length < 3) problems.push(`${method} ${path}: ${problem}`);
    }
  });
  if (wrong === 0) return { ok: true, reason: null, wrong: 0, built, names };
  return {
    ok: false,
    reason: `${wrong} of ${table.requests.length} requests answered wrongly under its own rule (${adapter.rule}), e.g. ${problems.join('; ')}`,
    wrong,
    built,
    names,
  };
}

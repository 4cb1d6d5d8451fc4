/**
 * The generated JavaScript front (`router/generated-front.ts`) must give exactly the WebAssembly engine's
 * answers. Differential property test: random small tables of the patterns it takes, random paths built
 * from the same words plus everything awkward (query strings, fragments, trailing and double slashes,
 * empty segments, escapes, raw non-ASCII, lone surrogates); every lookup compared as the router reports
 * it (route id, decoded params, malformed flag). A table it does not take must be left to the engine.
 */
import fc from 'fast-check';
import '../support/fast-check.js';
import { describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../../ts/src/engine/engine.js';
import { createWasmEngine } from '../../ts/src/engine/wasm-engine.js';
import { RouteError } from '../../ts/src/errors.js';
import { GeneratedFront, MAX_DYNAMIC_ROUTES, MAX_STATIC_PATHS } from '../../ts/src/router/generated-front.js';
import { Router } from '../../ts/src/router/index.js';
import { paths, patterns, routes } from '../conformance/generators.js';

const METHODS = ['GET', 'POST'] as const;

const segment = fc.constantFrom('a', 'b', 'ab', 'user', 'x.y', ':p#', ':p#', ':p#');
const tail = fc.constantFrom('', '', '/', '/*', '/:t');
const route = routes(METHODS, patterns(segment, tail));

const pathSegment = fc.constantFrom(
  'a',
  'b',
  'ab',
  'user',
  'x.y',
  'abc',
  '',
  'café',
  'caf%C3%A9',
  '%zz',
  'a%2Fb',
  '\ud800',
  'x\udfff',
  'a?q',
  'b#f',
);
const path = paths(pathSegment, ['', '', '?q=1', '#top', '?a/b']);

interface Scenario {
  trailingSlash: boolean;
  routes: { methods: string[]; pattern: string }[];
  paths: string[];
}
const scenario: fc.Arbitrary<Scenario> = fc.record({
  trailingSlash: fc.boolean(),
  routes: fc.array(route, { minLength: 1, maxLength: 10 }),
  paths: fc.array(path, { minLength: 1, maxLength: 12 }),
});

function build(s: Scenario, compiled: boolean): Router<number> {
  const router = new Router<number>({ trailingSlash: s.trailingSlash, compiled, onShadowed: () => {} });
  s.routes.forEach(({ methods, pattern: p }, index) => {
    try {
      router.add(methods, p, index);
    } catch (error) {
      if (!(error instanceof RouteError)) throw error;
    }
  });
  return router;
}

function answers(
  router: Router<number>,
  paths: readonly string[],
  methods: readonly string[] = METHODS,
): unknown[] {
  return paths.flatMap((p) =>
    methods.map((method) => {
      const match = router.find(method, p);
      // `select` answers find's route (the values not read), from the same generated code or engine.
      expect(router.select(method, p)?.id ?? null, `select ${method} ${p}`).toBe(match?.id ?? null);
      return match === null
        ? null
        : { id: match.id, params: { ...match.params }, malformed: match.malformed };
    }),
  );
}

/** Whether the front takes a table: registers it on a bare engine and asks the front, as a router's
 * commit point does. */
function takes(
  patterns: readonly string[],
  methods: readonly string[] = ['GET'],
  options: EngineOptions = {},
): boolean {
  const engine = createWasmEngine(options);
  const front = GeneratedFront.for(engine, options);
  if (front === null) return false;
  for (const p of patterns) front.add(engine.insert(methods, p));
  return front.table() !== null;
}

/** The front of a router with `options` over `engine`, told of its routes by the caller as a router
 * tells it. */
function frontOf(engine: Engine, options: EngineOptions): GeneratedFront {
  const front = GeneratedFront.for(engine, options);
  if (front === null) throw new Error(`no front for ${JSON.stringify(options)}`);
  return front;
}

/** Whether the front takes a scenario's table (routes the engine refuses left out). */
function takesScenario(s: Scenario): boolean {
  const options = { trailingSlash: s.trailingSlash };
  const engine = createWasmEngine(options);
  const front = frontOf(engine, options);
  for (const { methods, pattern: p } of s.routes) {
    try {
      front.add(engine.insert(methods, p));
    } catch {}
  }
  return front.table() !== null;
}

describe('generated JavaScript front for small tables', () => {
  it('gives the WebAssembly engine’s answers on random tables and paths', () => {
    let compiledTables = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        const fast = build(s, true);
        const engineOnly = build(s, false);
        expect(answers(fast, s.paths)).toEqual(answers(engineOnly, s.paths));
        if (takesScenario(s)) compiledTables++;
      }),
      { numRuns: 400 },
    );
    // The generators are meant to exercise the generated code, not the fallback.
    expect(compiledTables).toBeGreaterThan(300);
  });

  it('answers the hand-picked edge cases of ROUTING.md §3.1 like the engine', () => {
    const s: Scenario = {
      trailingSlash: true,
      routes: [
        { methods: ['GET'], pattern: '/path/foo' },
        { methods: ['GET'], pattern: '/path/*' },
        { methods: ['GET'], pattern: '/static/*' },
        { methods: ['GET'], pattern: '/a/:p' },
        { methods: ['GET'], pattern: '/x/' },
        { methods: ['GET', 'POST'], pattern: '/users/:id/posts/:post' },
      ],
      paths: [
        '/path/foo/',
        '/static',
        '/static/',
        '/a/',
        '/a//',
        '/x',
        '/x/',
        '/users/1/posts/2?x',
        '/a/%zz',
      ],
    };
    const fast = build(s, true);
    expect(fast.find('GET', '/path/foo/')?.params).toEqual({ '*': 'foo/' });
    expect(fast.find('GET', '/static')?.params).toEqual({ '*': '' });
    expect(fast.find('GET', '/a/')).toBeNull();
    expect(fast.find('GET', '/a/%zz')?.malformed).toBe(true);
    expect(answers(fast, s.paths)).toEqual(answers(build(s, false), s.paths));
  });

  it('walks the path by positions like the engine: segment ends, empty segments, value bounds', () => {
    // The generated code walks the path by positions: a value ends at the next `/` (scanned once for a
    // group's routes that share it), static text is compared in place, and a wildcard's value is the
    // rest of the path from its segment on. The bounds of a value are needed to decode one with `%`.
    const s: Scenario = {
      trailingSlash: true,
      routes: [
        { methods: ['GET'], pattern: '/a/:x/b/:y' },
        { methods: ['GET'], pattern: '/a/:x/*' },
        { methods: ['GET'], pattern: '/e//:x' },
        { methods: ['GET'], pattern: '/t/:x/' },
        { methods: ['POST'], pattern: '/:p' },
        { methods: ['POST'], pattern: '/:p/c/*' },
        { methods: ['PUT'], pattern: '//g/:x' },
        { methods: ['PUT'], pattern: '//h/:x/:y' },
        { methods: ['PUT'], pattern: '/s/:x' },
        { methods: ['PUT'], pattern: '/s/:x/t' },
        { methods: ['PUT'], pattern: '/s/:x/:y' },
        { methods: ['PUT'], pattern: '/s/*' },
      ],
      paths: [
        '/a/1/b/2',
        '/a/%41%42/b/%43',
        '/a/x%2Fy/b/%zz',
        '/a/1/b/2/',
        '/a/1/c%20d/e',
        '/a/1/',
        '/a/1',
        '/a//b/2',
        '/e//v',
        '/e/v',
        '/e//v/',
        '/t/v',
        '/t/v/',
        '/t/v//',
        'a/1/b/2',
        '',
        '/',
        '//',
        '/q%41',
        '/q/c/r/s',
        '/q/c',
        '/q/c/caf\u00e9',
        '/q/c/a?b',
        '/a/1/b/2#f',
        '//g/1',
        '//h/1/2',
        '//h/1/',
        '/s/1',
        '/s/1/t',
        '/s/1/u',
        '/s/1/t/',
        '/s//t',
        '/s/caf\u00e9/t',
        '/s/%41/t',
        '/s/1?q/t',
        '/s/1/2/3',
      ],
    };
    const fast = build(s, true);
    expect(fast.find('GET', '/a/%41%42/b/%43')?.params).toEqual({ x: 'AB', y: 'C' });
    expect(fast.find('GET', '/a/1/c%20d/e')?.params).toEqual({ x: '1', '*': 'c d/e' });
    expect(fast.find('POST', '/q/c')?.params).toEqual({ p: 'q', '*': '' });
    expect(takesScenario(s)).toBe(true);
    expect(fast.find('PUT', '/s/1/u')?.params).toEqual({ x: '1', y: 'u' });
    expect(fast.find('PUT', '/s/%41/t')?.params).toEqual({ x: 'A' });
    expect(fast.find('PUT', '/s/1/2/3')?.params).toEqual({ '*': '1/2/3' });
    expect(fast.find('PUT', '//h/1/2')?.params).toEqual({ x: '1', y: '2' });
    const all = ['GET', 'POST', 'PUT'];
    expect(answers(fast, s.paths, all)).toEqual(answers(build(s, false), s.paths, all));
  });

  it('takes only tables it can answer exactly, and leaves the rest to the engine', () => {
    expect(takes(['/', '/users', '/users/:id', '/files/*'])).toBe(true);
    expect(takes(['/users/:id<int>'])).toBe(false);
    expect(takes(['/users/:id?'])).toBe(false);
    expect(takes(['/files/:name.:ext'])).toBe(false);
    expect(takes(['/user_:name'])).toBe(false);
    expect(takes(['/files*'])).toBe(false);
    expect(takes(['/café/:x'])).toBe(false);
    expect(takes(['/{^(\\d+)$}'])).toBe(false);
    const many = Array.from({ length: MAX_DYNAMIC_ROUTES + 1 }, (_, k) => `/r${k}/:id`);
    expect(takes(many.slice(0, MAX_DYNAMIC_ROUTES))).toBe(true);
    expect(takes(many)).toBe(false);
    const statics = Array.from({ length: MAX_STATIC_PATHS + 1 }, (_, k) => `/s${k}`);
    expect(takes(statics.slice(0, MAX_STATIC_PATHS))).toBe(true);
    expect(takes(statics)).toBe(false);
    expect(takes(['/users/:id'], ['GET'], { order: 'specificity' })).toBe(false);
    // A router with the front switched off, or on an engine of its own, has none.
    const engine = createWasmEngine();
    expect(GeneratedFront.for(engine, { compiled: false })).toBeNull();
    expect(GeneratedFront.for(engine, { customEngine: true })).toBeNull();
    expect(GeneratedFront.for(engine, {})).not.toBeNull();
  });

  it('declines a table over its limits without asking the engine (its route list would stay cached)', () => {
    const asked: string[] = [];
    /** An engine that records every method called on it. */
    const recorded = () =>
      new Proxy(createWasmEngine(), {
        get(target, key) {
          const value = Reflect.get(target, key);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            asked.push(String(key));
            return value.apply(target, args);
          };
        },
      });
    const large = recorded();
    const front = frontOf(large, {});
    for (let k = 0; k <= MAX_DYNAMIC_ROUTES; k++) front.add(large.insert(['GET'], `/r${k}/:id`));
    asked.length = 0;
    expect(front.table()).toBeNull();
    expect(asked).toEqual([]);
    // Under the limits, the commit reads the route list once: that is what the generator builds from.
    const small = recorded();
    const taken = frontOf(small, {});
    taken.add(small.insert(['GET'], '/p/:id'));
    asked.length = 0;
    expect(taken.table()).not.toBeNull();
    expect(asked).toEqual(['routes']);
    // The limits are per method: 16 dynamic routes for each of two methods are taken.
    const both = Array.from({ length: MAX_DYNAMIC_ROUTES }, (_, k) => `/r${k}/:id`);
    expect(takes(both, ['GET', 'POST'])).toBe(true);
  });
});

/**
 * Differential property test: random route sets and random paths; the reference engine and the
 * WebAssembly engine must agree on every registration outcome (error code or route metadata) and on
 * every lookup (route id, decoded params, captures, malformed flag, allowed methods).
 *
 * Generators draw from small alphabets on purpose, so that routes collide and paths hit them. They avoid
 * what ROUTING.md leaves open (constraints with alternation or lazy quantifiers whose split between two
 * parameters of one segment is not specified), so a difference is a bug in one of the engines.
 */
import fc from 'fast-check';
import '../support/fast-check.js';
import { describe, expect, it, vi } from 'vitest';
import type { EngineOptions } from '../../ts/src/engine/engine.js';
import { RouteError } from '../../ts/src/errors.js';
import { Router } from '../../ts/src/router/index.js';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';
import { type EngineUnderTest, engines, routerOptions } from './engines.js';
import { paths, patterns, routes } from './generators.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./wasm-fallback.js')).loadWasmEngine(original),
);

const METHODS = ['GET', 'POST'] as const;

/** One segment; `#` stands for a parameter-name suffix unique within the route. */
const segment = fc.constantFrom(
  'a',
  'b',
  'ab',
  'x.y',
  'café',
  ':p#',
  ':p#',
  '{p#}',
  ':p#<int>',
  ':p#<[a-c]+>',
  ':p#<slug>',
  '{p#}x',
  ':p#.:q#',
  ':p#-:q#',
  'v:p#<\\d+>',
  'a_:p#',
);
const tail = fc.constantFrom('', '', '/', '/*', '*', '/:o?', '/{^(\\d+)/(a|b)?$}', '/{^(?P<r>[a-z]+)$}');

const pattern = patterns(segment, tail);
const route = routes(METHODS, pattern);

const pathSegment = fc.constantFrom(
  'a',
  'b',
  'ab',
  'x.y',
  'x-y',
  'a.b.c',
  'a_b',
  'v2',
  '1',
  '42',
  'abc',
  'café',
  'caf%C3%A9',
  'a%20b',
  'a%2Fb',
  '%zz',
  '',
  'ax',
  '1/a',
);
const path = paths(pathSegment, ['', '', '?q=1']);

const options: fc.Arbitrary<EngineOptions> = fc.record({
  order: fc.constantFrom('definition' as const, 'specificity' as const),
  trailingSlash: fc.boolean(),
});

interface Scenario {
  options: EngineOptions;
  routes: { methods: string[]; pattern: string }[];
  paths: string[];
}
const scenario: fc.Arbitrary<Scenario> = fc.record({
  options,
  routes: fc.array(route, { minLength: 1, maxLength: 8 }),
  paths: fc.array(path, { minLength: 1, maxLength: 12 }),
});

/** Everything observable about one engine on one scenario, as plain data. */
function observe(engine: EngineUnderTest, { options, routes, paths }: Scenario): unknown {
  const router = new Router<number>(routerOptions(engine, options));
  const registered = routes.map(({ methods, pattern }, index) => {
    try {
      const shape = router.add(methods, pattern, index);
      const info = router.route(shape.id);
      if (info === undefined) throw new Error(`no metadata for route ${shape.id}`);
      const { id, template, params, captures, shadowedBy, isStatic, pieces } = info;
      return { pattern, shape, id, template, params, captures, shadowedBy, isStatic, pieces };
    } catch (error) {
      if (!(error instanceof RouteError)) throw error;
      return { pattern, error: error.code, position: error.position };
    }
  });
  const lookups = paths.map((requested) => ({
    path: requested,
    allowed: router.allowedMethods(requested).sort(),
    found: METHODS.map((method) => {
      const match = router.find(method, requested);
      if (match === null) return null;
      return {
        id: match.id,
        params: { ...match.params },
        captures: [...match.captures],
        malformed: match.malformed,
      };
    }),
  }));
  return { registered, lookups };
}

const [reference, ...others] = engines;

describe('differential: reference engine vs the others', () => {
  it('the reference engine survives the generators (only RouteErrors, and some routes register)', () => {
    if (reference === undefined) throw new Error('no reference engine');
    let registeredSome = false;
    fc.assert(
      fc.property(scenario, (s) => {
        const result = observe(reference, s) as { registered: { error?: string }[] };
        if (result.registered.some((r) => r.error === undefined)) registeredSome = true;
      }),
      { numRuns: 200 },
    );
    expect(registeredSome).toBe(true);
  });

  for (const engine of others) {
    const title = titled(`${engine.name} engine agrees with the reference engine`, engine.unavailable);
    it.skipIf(skipWhenMissing(engine.unavailable))(title, { timeout: 120_000 }, () => {
      assertPresent(engine.unavailable);
      if (reference === undefined) throw new Error('no reference engine');
      fc.assert(
        fc.property(scenario, (s) => {
          expect(observe(engine, s)).toEqual(observe(reference, s));
        }),
        { numRuns: 300 },
      );
    });
  }
});

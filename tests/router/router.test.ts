// The standalone Router's own behaviour (the matching rules themselves are the conformance tables').
import { describe, expect, it } from 'vitest';
import type { RouteInfo } from '../../ts/src/engine/engine.js';
import { MAX_DYNAMIC_ROUTES } from '../../ts/src/router/generated-front.js';
import { Router } from '../../ts/src/router/index.js';
import {
  entryMatcher,
  fixedMatch,
  MAX_SWITCH_SHAPES,
  type MatchColumns,
  readMatch,
} from '../../ts/src/router/match-builder.js';
import { createReferenceEngine } from '../support/reference-engine/index.js';

const table: [string, string][] = [
  ['GET', '/users'],
  ['GET', '/users/:id<int>'],
  ['POST', '/users'],
  ['GET', '/files/*'],
  ['GET', '/café'],
  ['GET', '/search/:q/:page?'],
];
const requests: [string, string][] = [
  ['GET', '/users'],
  ['GET', '/users/'],
  ['POST', '/users'],
  ['PUT', '/users'],
  ['GET', '/users/42'],
  ['GET', '/users/x'],
  ['GET', '/users?sort=asc'],
  ['GET', '/files/a/b.txt'],
  ['GET', '/caf%C3%A9'],
  ['GET', '/café'],
  ['GET', '/search/arbor'],
  ['GET', '/search/arbor/2'],
  ['GET', '/search/a%20b'],
  ['GET', '/search/%zz'],
  // Trailing-slash retries (the engine decides whether the toggled path can match) and misses.
  ['GET', '/search/arbor/'],
  ['GET', '/users/42/'],
  ['GET', '/files'],
  ['GET', '/files/'],
  ['GET', '/zz/users/42'],
  ['GET', '/users/42/zz'],
];

function build(options: ConstructorParameters<typeof Router<number>>[0] = {}): Router<number> {
  const router = new Router<number>(options);
  table.forEach(([method, pattern], i) => {
    router.add(method, pattern, i);
  });
  return router;
}

describe('Router', () => {
  it('answers every request the same with and without the generated front, and as the reference engine', () => {
    const front = build();
    const engineOnly = build({ compiled: false });
    const reference = build({ engine: createReferenceEngine });
    for (const [method, path] of requests) {
      const expected = reference.find(method, path);
      expect(front.find(method, path), `${method} ${path}`).toEqual(expected);
      expect(engineOnly.find(method, path), `${method} ${path}`).toEqual(expected);
    }
  });

  it('selects find’s route for every request, one frozen selection per route, on every kind of router', () => {
    const routers = [
      build(),
      build({ compiled: false }),
      build({ order: 'specificity' }),
      build({ engine: createReferenceEngine }),
    ];
    for (const router of routers) {
      for (const [method, path] of requests) {
        const match = router.find(method, path);
        const selection = router.select(method, path);
        const expected = match === null ? null : { value: match.value, id: match.id };
        expect(selection, `${method} ${path}`).toEqual(expected);
        if (selection === null) continue;
        expect(Object.isFrozen(selection)).toBe(true);
        expect(router.select(method, path), 'the same object on every call').toBe(selection);
      }
      // A malformed value does not stop a selection (find reports it; select never reads values).
      expect(router.select('GET', '/search/%zz')?.id).toBe(5);
    }
  });

  it('selects routes added after the first selection, and from a snapshot', () => {
    for (const compiled of [true, false]) {
      const router = build({ compiled });
      expect(router.select('GET', '/late/7')).toBeNull();
      router.add('GET', '/late/:n', 6);
      expect(router.select('GET', '/late/7')).toEqual({ value: 6, id: 6 });
      expect(router.select('GET', '/users/42')).toEqual({ value: 1, id: 1 });
    }
    const restored = new Router<string>({ snapshot: build().snapshot() });
    restored.attach(table.map(([, pattern]) => pattern));
    expect(restored.select('GET', '/files/a/b.txt')).toEqual({ value: '/files/*', id: 3 });
    expect(restored.select('DELETE', '/files/a/b.txt')).toBeNull();
  });

  it('commits at the first lookup after a change, to the generated front or the engine, and again after an add', () => {
    const router = new Router<number>();
    router.add('GET', '/a/:id', 0);
    const commitAndFind = router.find;
    const commitAndSelect = router.select;
    expect(router.find('GET', '/a/1')?.params).toEqual({ id: '1' });
    expect(router.select('GET', '/a/1')?.id).toBe(0);
    // The commit installed its choice as find and select themselves: the generated code of a small table.
    const generated = router.find;
    expect(generated.name).toBe('find');
    expect(router.select).not.toBe(commitAndSelect);
    expect(router.find('GET', '/a/2')?.id).toBe(0);
    expect(router.find).toBe(generated);
    // Past the front's limits the next commit chooses the engine; the answers stay those of every route.
    for (let k = 1; k <= MAX_DYNAMIC_ROUTES; k++) router.add('GET', `/r${k}/:id`, k);
    expect(router.find).toBe(commitAndFind);
    expect(router.select).toBe(commitAndSelect);
    expect(router.find('GET', `/r${MAX_DYNAMIC_ROUTES}/x`)?.value).toBe(MAX_DYNAMIC_ROUTES);
    expect(router.find('GET', '/a/3')?.params).toEqual({ id: '3' });
    expect(router.find.name).toBe('#findInEngine');
    expect(router.select('GET', '/r1/y')?.id).toBe(1);
    // Without the front, the first commit already chooses the engine.
    const engineOnly = new Router<number>({ compiled: false });
    engineOnly.add('GET', '/a/:id', 0);
    expect(engineOnly.find('GET', '/a/1')?.id).toBe(0);
    expect(engineOnly.find.name).toBe('#findInEngine');
  });

  it('serves static routes with frozen, shared results', () => {
    for (const router of [build(), build({ compiled: false })]) {
      const first = router.find('GET', '/users');
      expect(first?.value).toBe(0);
      expect(Object.isFrozen(first)).toBe(true);
      expect(router.find('GET', '/users')).toBe(first);
    }
  });

  it('keeps a parameter named __proto__ as an own value, on the fast path and the decoding one', () => {
    const router = new Router<number>();
    router.add('GET', '/p/:__proto__', 1);
    expect(Object.getOwnPropertyNames(router.find('GET', '/p/x')?.params)).toEqual(['__proto__']);
    const own = (path: string) =>
      Object.getOwnPropertyDescriptor(router.find('GET', path)?.params, '__proto__');
    expect(own('/p/x')?.value).toBe('x');
    expect(own('/p/a%20b')?.value).toBe('a b');
    expect(Object.getPrototypeOf(router.find('GET', '/p/x')?.params)).toBe(Object.prototype);
  });

  it('builds the engine’s matches of every shape, past the shapes one switch takes and after a late route', () => {
    // One route per parameter name: as many shapes as routes, more than MAX_SWITCH_SHAPES. Values differ
    // from ids, so that a match built from the wrong column (or the wrong route's) shows.
    const router = new Router<string>({ compiled: false });
    const count = MAX_SWITCH_SHAPES + 40;
    for (let i = 0; i < count; i++) router.add('GET', `/r${i}/:a${i}/x/:b${i}`, `route ${i}`);
    router.add('GET', '/static/one', 'static');
    for (const i of [0, 1, MAX_SWITCH_SHAPES - 1, MAX_SWITCH_SHAPES, count - 1]) {
      expect(router.find('GET', `/r${i}/v${i}/x/w`)).toEqual({
        value: `route ${i}`,
        id: i,
        params: { [`a${i}`]: `v${i}`, [`b${i}`]: 'w' },
        captures: [],
        malformed: false,
      });
      expect(router.find('GET', `/r${i}/v%20${i}/x/w`)).toMatchObject({
        value: `route ${i}`,
        id: i,
        params: { [`a${i}`]: `v ${i}`, [`b${i}`]: 'w' },
      });
    }
    expect(router.find('GET', '/static/one')).toMatchObject({ value: 'static', id: count, params: {} });
    // A route of an existing shape and one of a new shape, added after lookups started.
    router.add('GET', '/late/:a0/x/:b0', 'late');
    router.add('GET', '/later/:__proto__', 'later');
    expect(router.find('GET', '/late/1/x/2')).toMatchObject({
      value: 'late',
      id: count + 1,
      params: { a0: '1', b0: '2' },
    });
    const later = router.find('GET', '/later/y');
    expect(later).toMatchObject({ value: 'later', id: count + 2 });
    expect(Object.getOwnPropertyDescriptor(later?.params, '__proto__')?.value).toBe('y');
    expect(router.find('GET', `/r0/v/x/w`)).toMatchObject({ value: 'route 0', params: { a0: 'v', b0: 'w' } });
  });

  it('answers by each route’s entry until the first switch is built', () => {
    const fixed = fixedMatch('static', 0);
    const columns: MatchColumns<string> = { entries: [], values: [], cases: [], fixed: [] };
    columns.entries.push(
      { value: 'static', id: 0, names: [], captures: 0, fixed, make: readMatch },
      { value: 'item', id: 1, names: ['id'], captures: 0, fixed: null, make: readMatch },
    );
    const match = entryMatcher(columns);
    expect(match(0, [], '/s')).toBe(fixed);
    expect(match(1, [7, 9, 0, 0], '/items/42')).toEqual({
      value: 'item',
      id: 1,
      params: { id: '42' },
      captures: [],
      malformed: false,
    });
    expect(match(2, [], '/nothing')).toBeNull();
  });

  it('decodes values, reports malformed escapes, leaves optional parameters out', () => {
    const router = build();
    expect(router.find('GET', '/search/a%20b')).toMatchObject({ params: { q: 'a b' }, malformed: false });
    expect(router.find('GET', '/search/%zz')).toMatchObject({ params: { q: '%zz' }, malformed: true });
    expect(router.find('GET', '/search/arbor')?.params).toEqual({ q: 'arbor' });
    expect(router.find('GET', '/search/arbor/2')?.params).toEqual({ q: 'arbor', page: '2' });
  });

  it('rebuilds from a snapshot with values attached by id and gives the same answers', () => {
    const original = build({ onShadowed: () => {} });
    // Beside the table: a regex block's captures, a route shadowed by an earlier one, a name list shared.
    original.add('GET', '/archive/{^(\\d{4})/(?P<month>\\d{2})$}', 6);
    original.add(['GET', 'POST'], '/search/:q/page', 7);
    original.add('PUT', '/users/:id<int>', 8);
    const restored = new Router<number>({ snapshot: original.snapshot() });
    const shapes = restored.attach(original.routes().map((info) => info.id));
    expect(restored.routes()).toEqual(original.routes());
    expect(shapes).toEqual(
      original.routes().map((info) => ({
        id: info.id,
        methods: info.methods,
        names: info.params.map((p) => p.name),
        hasOptional: info.params.some((p) => p.optional),
        captures: info.captures,
        shadowedBy: info.shadowedBy,
      })),
    );
    expect(shapes.map((s) => [s.captures, s.shadowedBy])).toContainEqual([2, null]);
    expect(shapes.some((s) => s.shadowedBy !== null)).toBe(true);
    for (const [method, path] of requests)
      expect(restored.find(method, path)).toEqual(original.find(method, path));
  });

  it('refuses to attach another number of values than the snapshot has routes', () => {
    const snapshot = build().snapshot();
    const count = build().routes().length;
    const values = Array.from({ length: count }, (_, id) => id);
    expect(() => new Router<number>({ snapshot }).attach(values.slice(1))).toThrow(RangeError);
    expect(() => new Router<number>({ snapshot }).attach([...values, count])).toThrow(RangeError);
  });

  it('refuses corrupt snapshot bytes with a RouteError', () => {
    const bytes = build().snapshot().slice(0, 40);
    expect(() => new Router({ snapshot: bytes })).toThrow(
      expect.objectContaining({ code: 'SNAPSHOT_INVALID' }),
    );
  });

  it('answers add with the route’s shape, and its whole metadata by id', () => {
    for (const router of [build(), build({ engine: createReferenceEngine })]) {
      const shape = router.add(['get', 'HEAD'], '/teams/:team/members/:user<int>/:role?', 100);
      expect(shape).toEqual({
        id: table.length,
        methods: ['GET', 'HEAD'],
        names: ['team', 'user', 'role'],
        hasOptional: true,
        captures: 0,
        shadowedBy: null,
      });
      const info = router.route(shape.id);
      expect(info?.pattern).toBe('/teams/:team/members/:user<int>/:role?');
      expect(info?.template).toBe('/teams/{team}/members/{user}/{role}');
      expect(info?.params.map((p) => [p.name, p.shortcut, p.optional])).toEqual([
        ['team', null, false],
        ['user', 'int', false],
        ['role', null, true],
      ]);
      expect(router.add('GET', '/archive/{^(\\d{4})/(?P<month>\\d{2})$}', 101)).toMatchObject({
        id: table.length + 1,
        names: ['month'],
        captures: 2,
      });
      expect(router.add('GET', '/teams', 102).methods).toEqual(['GET']);
      expect(router.route(table.length + 3)).toBeUndefined();
      expect(router.routes().map((r) => r.id)).toEqual([...table.keys(), 6, 7, 8]);
    }
  });

  it('reports a shadowed route through onShadowed, naming both', () => {
    const seen: [string, string][] = [];
    const router = new Router<number>({
      onShadowed: (route: RouteInfo, by: RouteInfo) => seen.push([route.pattern, by.pattern]),
    });
    router.add('GET', '/repos/:owner/:repo/:format/:ref', 0);
    const info = router.add('GET', '/repos/:owner/:repo/commits/:ref', 1);
    expect(info.shadowedBy).toBe(0);
    expect(seen).toEqual([['/repos/:owner/:repo/commits/:ref', '/repos/:owner/:repo/:format/:ref']]);
  });

  it('lists allowed methods for 405 and OPTIONS', () => {
    expect(build().allowedMethods('/users').sort()).toEqual(['GET', 'POST']);
  });
});

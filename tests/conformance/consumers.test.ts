/**
 * Issue 13: every consumer of a pattern reads it as the matcher does. For each row of the conformance
 * tables that matches a route with path parameters, `route()` (URL generation) fills the pattern with the
 * row's values, `find()` must bring that URL back to the same route and values, and the OpenAPI path of
 * the exporter, filled with the same values, must be that URL. All three read the core's `pieces`, so a
 * pattern such as `/v2/:name::publish` cannot mean one thing to the matcher and another to the docs (it
 * once gave `needs the parameter "publish"` and `/v2/{name}{publish}`).
 */
import { describe, expect, it } from 'vitest';
import { Application } from '../../ts/src/app/application.js';
import { openApiPaths } from '../../ts/src/openapi/paths.js';
import { Router } from '../../ts/src/router/index.js';
import { generateUrl } from '../../ts/src/routing/url.js';
import { skipWhenMissing } from '../support/prerequisites.js';
import { engines } from './engines.js';
import type { MatchTable } from './harness.js';
import { basicTables } from './tables-basics.js';
import { constraintTables } from './tables-constraints.js';
import { pathTables } from './tables-paths.js';
import { segmentTables } from './tables-segments.js';
import { specificityTables } from './tables-specificity.js';

const tables: MatchTable[] = [
  ...basicTables,
  ...segmentTables,
  ...constraintTables,
  ...pathTables,
  ...specificityTables,
];

const pattern = (def: MatchTable['routes'][number]): string => (typeof def === 'string' ? def : def[1]);
const method = (def: MatchTable['routes'][number]): string =>
  typeof def === 'string' ? 'GET' : typeof def[0] === 'string' ? def[0] : (def[0][0] ?? 'GET');

interface Row {
  table: MatchTable;
  method: string;
  route: string;
  params: Record<string, string>;
}

/** Rows that match a route through parameters (a regex block has no URL to generate; malformed values are
 * reported undecoded, so they cannot be generated back). */
const rows: Row[] = tables.flatMap((table) =>
  table.cases.flatMap((c) => {
    const expected = c.expect;
    // A row an engine knowingly fails (a known gap) is not a reading the consumers can be held to.
    if (c.unsupported !== undefined) return [];
    if (expected === null || expected.malformed || (expected.captures ?? []).length > 0) return [];
    if (expected.route.includes('{^')) return [];
    const def = table.routes.find((d) => pattern(d) === expected.route);
    if (def === undefined) return [];
    return [{ table, method: c.method ?? method(def), route: expected.route, params: expected.params ?? {} }];
  }),
);

const wasm = engines.find((e) => e.name === 'wasm');

// `unavailable` is `null` when the engine loaded: `?? 'no wasm engine'` would have skipped it then too.
describe.skipIf(skipWhenMissing(wasm === undefined ? 'no wasm engine' : wasm.unavailable))(
  'find(), route() and the exporter read every pattern alike',
  () => {
    it('there are rows, `::` included', () => {
      expect(rows.length).toBeGreaterThan(100);
      expect(rows.some((r) => r.route.includes('::'))).toBe(true);
    });

    it.each(rows.map((r) => [`${r.route} ${JSON.stringify(r.params)}`, r] as const))('%s', (_, r) => {
      const router = new Router<string>(r.table.options ?? {});
      for (const def of r.table.routes)
        router.add(typeof def === 'string' ? 'GET' : def[0], pattern(def), pattern(def));
      const info = router.routes().find((i) => i.pattern === r.route);
      if (info === undefined) throw new Error(`no route ${r.route}`);
      const url = generateUrl(r.route, info, r.params);
      const found = router.find(r.method, url);
      expect({ route: found?.value, params: { ...found?.params } }).toEqual({
        route: r.route,
        params: r.params,
      });

      // The OpenAPI variant with exactly these parameters, filled with the same values, is the URL.
      const given = new Set(Object.keys(r.params).map((name) => (name === '*' ? 'wildcard' : name)));
      const variants = openApiPaths({
        id: info.id,
        methods: info.methods,
        pattern: info.pattern,
        info,
        name: null,
        callSite: null,
      });
      const variant = variants.find(
        (v) => v.params.length === given.size && v.params.every((p) => given.has(p.name)),
      );
      expect(variant, JSON.stringify(variants)).toBeDefined();
      const filled = variant?.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
        const value = r.params[name === 'wildcard' ? '*' : name] ?? '';
        return name === 'wildcard'
          ? value.split('/').map(encodeURIComponent).join('/')
          : encodeURIComponent(value);
      });
      expect(filled).toBe(url.split('?')[0]);
    });

    it('the reported case: route() and the document of /v1/:name::publish', () => {
      const app = new Application();
      app.get('/v1/:name::publish', (_req, res) => res.send('ok')).name('pub');
      expect(app.route('pub', { name: 'abc' })).toBe('/v1/abc:publish');
      const [route] = app.routeTable();
      expect(route && openApiPaths(route)).toEqual([
        { path: '/v1/{name}:publish', params: [{ name: 'name', schema: { type: 'string' } }] },
      ]);
    });
  },
);

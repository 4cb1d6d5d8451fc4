/**
 * Every conformance table, run through `Router` against every engine of `engines.ts`.
 */
import { describe, expect, it, vi } from 'vitest';
import { RouteError } from '../../ts/src/errors.js';
import { GeneratedFront } from '../../ts/src/router/generated-front.js';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';
import { engines, wasmRequired } from './engines.js';
import { buildRouter, runErrorTable, runMatchTables, runMetadataTables } from './harness.js';
import { basicTables } from './tables-basics.js';
import { constraintTables } from './tables-constraints.js';
import { errorCases } from './tables-errors.js';
import { metadataTables } from './tables-metadata.js';
import { pathTables } from './tables-paths.js';
import { segmentTables } from './tables-segments.js';
import { specificityTables } from './tables-specificity.js';

// Lets `Router` load when the wasm build is absent (see wasm-fallback.ts).
vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./wasm-fallback.js')).loadWasmEngine(original),
);

const matchTables = [
  ...basicTables,
  ...segmentTables,
  ...constraintTables,
  ...pathTables,
  ...specificityTables,
];

for (const engine of engines) {
  // Under npm test / CI (ARBOR_REQUIRE_WASM=1) a missing engine runs, and fails, instead of skipping.
  describe.skipIf(skipWhenMissing(engine.unavailable))(
    titled(`${engine.name} engine`, engine.unavailable),
    () => {
      it('is available', () => assertPresent(engine.unavailable));
      runMatchTables(engine, matchTables);
      runErrorTable(engine, errorCases);
      runMetadataTables(engine, metadataTables);

      describe('route names', () => {
        it('setName stores the name; a second route cannot take it; an unknown id is refused', () => {
          const router = buildRouter(engine, ['/a', '/b/:id']);
          router.setName(1, 'b.show');
          expect(router.routes()[1]?.name).toBe('b.show');
          expect(router.routes()[0]?.name).toBeNull();
          expect(() => router.setName(0, 'b.show')).toThrow(
            expect.objectContaining({ code: 'DUPLICATE_NAME' }),
          );
          expect(() => router.setName(7, 'x')).toThrow(expect.objectContaining({ code: 'UNKNOWN_ROUTE' }));
          expect(() => router.setName(7, 'x')).toThrow(RouteError);
        });
      });

      describe('find never throws', () => {
        it.each(['/%', '/%%', '/%zz/%E0%A4%A', '/\ud800', '/?#', '', '?', '#', '//', '/a/../b', '/\u0000'])(
          'on %j',
          (path) => {
            const router = buildRouter(engine, ['/:a', '/*', '/x/:a<int>', '{^/(.*)$}']);
            expect(() => router.find('GET', path)).not.toThrow();
            expect(() => router.allowedMethods(path)).not.toThrow();
          },
        );
      });
    },
  );
}

describe('engine availability', () => {
  it.runIf(wasmRequired)('the wasm engine is available (ARBOR_REQUIRE_WASM=1)', () => {
    expect(
      engines.filter((engine) => engine.unavailable !== null).map((engine) => engine.unavailable),
    ).toEqual([]);
  });
  it.runIf(engines.find((e) => e.name === 'router')?.unavailable === null)(
    'the router engine runs tables on the generated front (not only on the wasm engine behind it)',
    () => {
      const router = engines.find((e) => e.name === 'router');
      if (router === undefined) throw new Error('no router engine');
      // The router's own decision: the table's routes told to a front over a fresh engine, as a router
      // tells its own.
      const fronted = matchTables.filter((table) => {
        const options = table.options ?? {};
        const engine = router.create(options);
        const front = GeneratedFront.for(engine, options);
        if (front === null) return false;
        for (const route of buildRouter(router, table.routes, options).routes()) {
          front.add(engine.insert(route.methods, route.pattern));
        }
        return front.table() !== null;
      });
      expect(fronted.length).toBeGreaterThanOrEqual(10);
    },
  );
  it('the reference engine is always available', () => {
    expect(engines[0]?.name).toBe('reference');
    expect(engines[0]?.unavailable).toBeNull();
  });
});

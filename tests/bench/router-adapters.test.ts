/**
 * Proves every router benchmark adapter correct (benches/router/verify.ts) without timing anything, so
 * CI catches a broken adapter before a benchmark run would. Peers' known failures are pinned: when a
 * new version fixes one (or breaks another), this test fails and the table below is updated.
 */
import { describe, expect, it } from 'vitest';
import { arborAdapters } from '../../benches/router/adapters/arbor.js';
import { type Adapter, PEERS } from '../../benches/router/adapters/index.js';
import type { TableName } from '../../benches/router/cases.js';
import { Expectation } from '../../benches/router/expect.js';
import { loadTables } from '../../benches/router/routes.js';
import { verify } from '../../benches/router/verify.js';

const tables = loadTables();
const TABLES = ['small', 'github', 'generated'] as const;
/** Building some routers' 10,000-route table (find-my-way's compile mode) takes seconds on a busy machine. */
const SLOW = 120_000;

type Outcome = 'ok' | 'cannot register' | 'wrong answers';

/** What the peers themselves get wrong (not the adapters), with the versions pinned in package.json. */
const KNOWN: Record<string, Partial<Record<TableName, Outcome>>> = {
  // RegExpRouter builds one regex per method and rejects tables it cannot order (`UnsupportedPathError`).
  'hono RegExpRouter': { github: 'cannot register', generated: 'cannot register' },
  // httprouter-style trees: a parameter cannot share a position with static children.
  'koa-tree-router': { github: 'cannot register', generated: 'cannot register' },
  // `:base...:head` is read as one parameter named `base...:head`.
  memoirist: { github: 'wrong answers' },
  '@medley/router': { github: 'wrong answers' },
};

function outcome(adapter: Adapter, table: TableName): { outcome: Outcome; reason: string | null } {
  const result = verify(adapter, tables[table]);
  if (result.ok) return { outcome: 'ok', reason: null };
  return {
    outcome: result.reason?.startsWith('cannot register') ? 'cannot register' : 'wrong answers',
    reason: result.reason,
  };
}

describe('peer adapters answer as their routers document', () => {
  for (const adapter of PEERS) {
    for (const table of TABLES) {
      const expected = KNOWN[adapter.name]?.[table] ?? 'ok';
      it(
        `${adapter.name} on ${table}: ${expected}`,
        () => {
          const got = outcome(adapter, table);
          expect({ outcome: got.outcome, reason: expected === 'ok' ? got.reason : null }).toEqual({
            outcome: expected,
            reason: null,
          });
        },
        SLOW,
      );
    }
  }
});

describe('Arbor adapters (WebAssembly engine)', async () => {
  // No skip: CI builds the engine first, and an Arbor adapter that cannot load is a broken benchmark.
  let adapters: Adapter[] = [];
  let loadError: string | null = null;
  try {
    adapters = await arborAdapters('wasm');
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  it('load (the engine is built and importable)', () => {
    expect(loadError).toBeNull();
  });
  for (const adapter of adapters) {
    for (const table of TABLES) {
      it(
        `${adapter.name} on ${table}`,
        () => {
          expect(outcome(adapter, table).reason).toBeNull();
        },
        SLOW,
      );
    }
  }
});

describe('the verifier', () => {
  it('fails an adapter whose parameters are wrong, even when the route is right', () => {
    const [rou3] = PEERS.filter((a) => a.name === 'rou3');
    if (rou3 === undefined) throw new Error('rou3 adapter missing');
    const broken: Adapter = {
      ...rou3,
      build(table) {
        const built = rou3.build(table);
        return {
          ...built,
          answer(method, path) {
            const answer = built.answer(method, path);
            return answer && { id: answer.id, params: { ...answer.params, extra: 'x' } };
          },
        };
      },
    };
    expect(verify(broken, tables.small).ok).toBe(false);
  });

  it('fails an adapter whose timed selection disagrees with its answer', () => {
    const [rou3] = PEERS.filter((a) => a.name === 'rou3');
    if (rou3 === undefined) throw new Error('rou3 adapter missing');
    const broken: Adapter = {
      ...rou3,
      build(table) {
        const built = rou3.build(table);
        return { ...built, select: (method, path) => (path === '/user' ? 3 : built.select(method, path)) };
      },
    };
    const result = verify(broken, tables.small);
    expect(result.ok).toBe(false);
    expect(result.reason).toContain('selection-only');
  });

  it('distinguishes the two orders on the GitHub table (~25 requests, SPEC §3.2)', () => {
    const expectation = new Expectation(tables.github);
    const differing = tables.github.requests.filter(
      ({ method, path }) =>
        expectation.answer('static-first', method, path)?.id !==
        expectation.answer('specificity', method, path)?.id,
    );
    expect(differing.length).toBe(25);
    expect(differing.map((r) => r.path)).toContainEqual(
      expect.stringMatching(/^\/repos\/[^/]+\/[^/]+\/commits\/[^/]+$/),
    );
  });

  it('finds an answer for every generated request, and the table has 10,000 routes', () => {
    const expectation = new Expectation(tables.generated);
    expect(tables.generated.routes).toHaveLength(10_000);
    for (const { method, path } of tables.generated.requests) {
      expect(expectation.answer('static-first', method, path), `${method} ${path}`).not.toBeNull();
    }
  });
});

/**
 * Proves every router benchmark adapter correct (benches/router/verify.ts) without timing anything, so
 * CI catches a broken adapter before a benchmark run would. Peers' known failures are pinned: when a
 * new version fixes one (or breaks another), this test fails and the table below is updated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../../benches/data/saas-api.js';
import { arborAdapters } from '../../benches/router/adapters/arbor.js';
import { type Adapter, PEERS } from '../../benches/router/adapters/index.js';
import { TABLES, type TableName } from '../../benches/router/cases.js';
import { Expectation } from '../../benches/router/expect.js';
import { arborRatios, fastestPeers, type RunFile } from '../../benches/router/results.js';
import { DATA_DIR, loadTables, paramNames } from '../../benches/router/routes.js';
import { type Agreement, verify } from '../../benches/router/verify.js';

const tables = loadTables();
/** Building some routers' 10,000-route table (find-my-way's compile mode) takes seconds on a busy machine. */
const SLOW = 120_000;

/** What the peers themselves get wrong (not the adapters), with the versions pinned in package-lock.json. */
const KNOWN: Record<string, Partial<Record<TableName, Agreement>>> = {
  // RegExpRouter builds one regex per method and rejects tables it cannot order (`UnsupportedPathError`).
  'hono RegExpRouter': { github: 'unregistered', saas: 'unregistered', generated: 'unregistered' },
  // httprouter-style trees: a parameter cannot share a position with static children.
  'koa-tree-router': { github: 'unregistered', saas: 'unregistered', generated: 'unregistered' },
  // `:base...:head` is read as one parameter named `base...:head`: the right route, other parameters.
  memoirist: { github: 'split' },
  '@medley/router': { github: 'split' },
  // Not found for 2 DELETE requests: a static step registered after a longer one with the same prefix
  // (`/pulls/` after `/pulls/comments/`) lands in the longer one's node, because sonic-forest 1.2.1's
  // `RadixTree.get('/pulls/')` returns the node of `/pulls/comments/`.
  'jit-router': { github: 'wrong' },
};

function outcome(adapter: Adapter, table: TableName): { outcome: Agreement; reason: string | null } {
  const result = verify(adapter, tables[table]);
  return { outcome: result.agreement, reason: result.reason };
}

describe('peer adapters answer as their routers document', () => {
  for (const adapter of PEERS) {
    for (const table of TABLES) {
      const expected = KNOWN[adapter.name]?.[table] ?? 'exact';
      it(
        `${adapter.name} on ${table}: ${expected}`,
        () => {
          const got = outcome(adapter, table);
          expect({ outcome: got.outcome, reason: expected === 'exact' ? got.reason : null }).toEqual({
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
          const result = verify(adapter, tables[table]);
          expect(result.reason).toBeNull();
          // Definition order (Arbor's default) answers 25 GitHub requests with a route defined earlier;
          // specificity answers every request of every table with the route it was made for.
          const expected = table === 'github' && adapter.rule === 'static-first' ? 25 : 0;
          expect(result.unintended).toHaveLength(expected);
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

  it('keeps a router that splits parameters differently apart from one that selects a wrong route', () => {
    const [memoirist] = PEERS.filter((a) => a.name === 'memoirist');
    if (memoirist === undefined) throw new Error('memoirist adapter missing');
    const result = verify(memoirist, tables.github);
    expect(result.agreement).toBe('split');
    expect(result.wrong).toBe(0);
    expect(result.split).toHaveLength(1);
    expect(result.split[0]).toMatch(/^GET \/repos\/[^/]+\/[^/]+\/compare\/[^/]+\.\.\.[^/]+: /);
    // The same router sending one request to another route is a wrong answer, not a split.
    const misrouted: Adapter = {
      ...memoirist,
      build(table) {
        const built = memoirist.build(table);
        const first = table.requests[0];
        const other = (id: number): number =>
          first && id === built.select(first.method, first.path) ? id + 1 : id;
        return {
          select: (method, path) => other(built.select(method, path)),
          withParams: built.withParams,
          answer(method, path) {
            const answer = built.answer(method, path);
            return answer && { ...answer, id: other(answer.id) };
          },
        };
      },
    };
    expect(verify(misrouted, tables.github).agreement).toBe('wrong');
  });

  it('names the GitHub requests that definition order answers with another route than they were made for', () => {
    const counts = Object.fromEntries(
      PEERS.filter((a) => a.name === 'hono TrieRouter' || a.name === 'find-my-way').map((a) => [
        a.name,
        verify(a, tables.github).unintended.length,
      ]),
    );
    expect(counts).toEqual({ 'find-my-way': 0, 'hono TrieRouter': 25 });
  });

  it('distinguishes the two orders on the GitHub table (~25 requests, ROUTING.md §3.2)', () => {
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

describe('the comparison rule (results.ts)', () => {
  const run = (agreements: Record<string, Agreement>): RunFile =>
    ({
      adapters: [
        { name: 'arbor', arbor: true },
        ...Object.keys(agreements).map((name) => ({ name, arbor: false })),
      ],
      verification: {
        arbor: { github: { ok: true, agreement: 'exact', reason: null } },
        ...Object.fromEntries(
          Object.entries(agreements).map(([name, agreement]) => [
            name,
            { github: { ok: agreement === 'exact', agreement, reason: agreement === 'exact' ? null : 'x' } },
          ]),
        ),
      },
      cases: [{ id: 'github/all', table: 'github', title: 'GitHub', requests: [], per: 'request' }],
      timings: {
        'github/all': {
          params: {
            arbor: { p50: 100, avg: 100, rounds: [] },
            split: { p50: 80, avg: 80, rounds: [] },
            exact: { p50: 120, avg: 120, rounds: [] },
            wrong: { p50: 50, avg: 50, rounds: [] },
          },
        },
      },
    }) as unknown as RunFile;

  it('compares with the fastest router selecting the intended route, splits included, wrong routes never', () => {
    const file = run({ split: 'split', exact: 'exact', wrong: 'wrong' });
    const values = { arbor: 100, split: 80, exact: 120, wrong: 50 };
    expect(fastestPeers(file, values, 'github')).toEqual({
      same: { name: 'split', value: 80, split: true },
      exact: { name: 'exact', value: 120 },
    });
    expect(arborRatios(file, 'params')).toEqual([
      {
        id: 'github/all',
        ratio: 0.8,
        peer: 'split',
        split: true,
        exactRatio: 1.2,
        exactPeer: 'exact',
        unintended: 0,
      },
    ]);
  });

  it('never compares with a router whose own order answers a request with another route than intended', () => {
    const file = run({ split: 'exact', exact: 'exact', wrong: 'wrong' });
    const github = file.verification.split?.github;
    if (github === undefined) throw new Error('fixture');
    github.unintended = ['GET /gists/1/star: #96 …, made for #98 …'];
    expect(fastestPeers(file, { arbor: 100, split: 80, exact: 120, wrong: 50 }, 'github').same?.name).toBe(
      'exact',
    );
  });

  it('gives no second ratio when the fastest router agrees exactly', () => {
    const file = run({ split: 'unregistered', exact: 'exact', wrong: 'wrong' });
    expect(arborRatios(file, 'params')).toEqual([
      {
        id: 'github/all',
        ratio: 1.2,
        peer: 'exact',
        split: false,
        exactRatio: null,
        exactPeer: null,
        unintended: 0,
      },
    ]);
  });
});

describe('the SaaS table (benches/data/saas-api.json)', () => {
  it('is what benches/data/saas-api.ts generates', () => {
    const committed = JSON.parse(readFileSync(`${DATA_DIR}/saas-api.json`, 'utf8')) as unknown;
    expect(committed).toEqual(generate());
  });

  it('has 200–1,000 routes of 2–5 parameters, and one request per route selecting it under every rule', () => {
    const { routes, requests } = tables.saas;
    expect(routes.length).toBeGreaterThanOrEqual(200);
    expect(routes.length).toBeLessThanOrEqual(1000);
    for (const route of routes) {
      expect(paramNames(route.pieces).length).toBeGreaterThanOrEqual(2);
      expect(paramNames(route.pieces).length).toBeLessThanOrEqual(5);
    }
    const expectation = new Expectation(tables.saas);
    const selected = requests.map(({ method, path }) => {
      const ids = (['definition', 'static-first', 'specificity'] as const).map(
        (rule) => expectation.answer(rule, method, path)?.id,
      );
      expect(new Set(ids).size, `${method} ${path}: ${ids.join(', ')}`).toBe(1);
      return ids[0];
    });
    expect(new Set(selected).size).toBe(routes.length);
  });
});

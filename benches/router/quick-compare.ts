/**
 * A quick comparison while working on the engine: each request (the 12-route set) or the whole request
 * list (the other tables) in a loop, a few routers interleaved, the fastest of 15 rounds in ns per lookup,
 * every parameter value read through each adapter's `withParams`. The fastest round is robust to a loaded
 * machine; the report's figures come from `run.ts` (paired slices, medians, every router verified).
 *
 *   node --import tsx benches/router/quick-compare.ts small|github|saas|generated ["arbor,rou3 (compiled),…"]
 *   (N=… lookups per request and round on the 12-route set, a hundredth of it elsewhere; ROUNDS=…)
 */
import { loadAdapters } from './adapters/index.js';
import type { Built } from './adapters/types.js';
import { loadTables, type Request } from './routes.js';

const tableName = (process.argv[2] ?? 'small') as keyof ReturnType<typeof loadTables>;
const wanted = (process.argv[3] ?? 'arbor,rou3 (compiled),find-my-way (compiled),memoirist').split(',');
const rounds = Number(process.env.ROUNDS ?? 15);
const table = loadTables()[tableName];
if (table === undefined) throw new Error(`no table ${tableName}`);
const n = Number(process.env.N ?? 200_000) / (tableName === 'small' ? 1 : 100);

const { adapters } = await loadAdapters('wasm');
interface Contender {
  name: string;
  built: Built;
  /** Per request, the parameter names this router answers it with (memoirist splits `compare/:base...:head`
   * differently; the wildcard's key is the router's own). */
  names: Map<Request, string[]>;
}
const contenders: Contender[] = wanted.map((name) => {
  const adapter = adapters.find((a) => a.name === name);
  if (adapter === undefined) throw new Error(`no router ${name}`);
  const built = adapter.build(table);
  const names = new Map(
    table.requests.map((request) => {
      const answer = built.answer(request.method, request.path);
      const own = answer === null ? [] : Object.keys(answer.params);
      return [request, own.map((key) => (key === '*' ? adapter.wildcardKey : key))];
    }),
  );
  return { name, built, names };
});

const groups =
  tableName === 'small'
    ? [
        ...table.requests.map((r) => ({ label: r.label, requests: [r] })),
        { label: 'all', requests: table.requests },
      ]
    : [{ label: 'all', requests: table.requests }];
let sink = 0;
for (const { label, requests } of groups) {
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const { name, built, names } of round % 2 ? contenders : [...contenders].reverse()) {
      const calls = requests.map((r) => ({ method: r.method, path: r.path, names: names.get(r) ?? [] }));
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) for (const c of calls) sink += built.withParams(c.method, c.path, c.names);
      const ns = Number(process.hrtime.bigint() - start) / (n * calls.length);
      best.set(name, Math.min(best.get(name) ?? Number.POSITIVE_INFINITY, ns));
    }
  }
  const arbor = best.get('arbor') ?? Number.NaN;
  const others = [...best].filter(([name]) => name !== 'arbor').sort((a, b) => a[1] - b[1]);
  const fastest = others[0]?.[1] ?? Number.NaN;
  const list = others.map(([name, ns]) => `${name} ${ns.toFixed(1)}`).join(' | ');
  console.log(
    `${label.padEnd(24)} arbor ${arbor.toFixed(1).padStart(6)} | ${list} | fastest other ÷ arbor ${(fastest / arbor).toFixed(2)}`,
  );
}
if (sink === -1) console.log('(sink)');

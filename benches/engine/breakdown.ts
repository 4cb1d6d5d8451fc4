/**
 * Where an Arbor lookup spends its time, layer by layer, on one of the router benchmark's real tables
 * (by default the GitHub API's 516 routes, every request URL once per pass), in one process, beside
 * memoirist (the fastest JavaScript router on GitHub and the SaaS table; on the 10,000-route table
 * @medley/router is faster, see `benches/results/router.md`) as the yardstick. Layers:
 *
 *   engine      the wasm engine's `lookup` (copy the path in, call, walk): selection only
 *   select      `Router.select` (the engine plus the route's frozen selection: no value sliced)
 *   find        `Router.find` (the engine plus the match and params objects)
 *   find+read   `Router.find`, then every parameter value read by name, as a handler does
 *   memoirist   memoirist's `find`, every parameter value read
 *   memoirist (route only)   memoirist's `find`, nothing read (it builds the params anyway)
 *   static      the wasm engine's `lookup` of each static route's own path: the copy, the call and the
 *               static table's probe, with no walk
 *
 * From these it prints the floor of this design: what a request with values would cost if the walk took
 * no time at all (`static`, plus the match: `find` − `engine`, plus the reads: `find+read` − `find`),
 * against half of memoirist's time (issue 12's 2× target).
 *
 * Each layer runs in turn in ~20 ms slices, many rounds, and the median per layer is reported: a shared
 * machine's speed changes then hit every layer alike. Ratios within one run are the figures to read.
 *
 *   node --import tsx benches/engine/breakdown.ts [--seconds 6] [--table github|saas|10k]
 */
import { parseArgs } from 'node:util';
import { createWasmEngine } from '../../ts/src/engine/wasm-engine.js';
import { Router } from '../../ts/src/router/index.js';
import { memoirist as memoiristAdapter } from '../router/adapters/memoirist.js';
import {
  generatedSet,
  githubSet,
  patternText,
  type RouteTable,
  requestPath,
  saasSet,
} from '../router/routes.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '6' }, table: { type: 'string', default: 'github' } },
});
const tables: Record<string, () => RouteTable> = { github: githubSet, saas: saasSet, '10k': generatedSet };
const table: RouteTable = (tables[values.table] ?? githubSet)();

const router = new Router<number>({ onShadowed: () => {} });
const engine = createWasmEngine();
for (const route of table.routes) {
  const pattern = patternText(route.pieces);
  router.add(route.method, pattern, route.id);
  engine.insert([route.method], pattern);
}
// memoirist as the router benchmark builds it (its adapter drops constraints it cannot express).
const memoirist = memoiristAdapter.build(table);
// The parameter names a handler reads, as Arbor names them (the tables use plain `:name` parameters).
// Each path a fresh copy, as a server hands it over (`requestPath`).
const requests = table.requests.map((r) => ({
  method: r.method,
  path: requestPath(r.path),
  names: Object.keys(router.find(r.method, r.path)?.params ?? {}),
  // memoirist splits GitHub's `compare/:base...:head` its own way: read the names it reports.
  memoiristNames: Object.keys(memoirist.answer(r.method, r.path)?.params ?? {}),
}));

// The table's static routes, each looked up by its own path: no walk runs for them.
const staticRequests = table.routes
  .filter((r) => r.pieces.every((p) => p.kind === 'static'))
  .map((r) => ({ method: r.method, path: requestPath(patternText(r.pieces)) }));

// Each layer sums into a local and adds to the module's `sink` once per pass, as the benchmark's timing
// loop does: a module variable is a context slot that, once the sum outgrows a small integer, boxes a new
// number on every store, which a layer updating it per lookup or per value counted as the router's time.
let sink = 0;
const layers: Record<string, () => void> = {
  engine() {
    let s = 0;
    for (const r of requests) s += engine.lookup(r.method, r.path);
    sink += s;
  },
  select() {
    let s = 0;
    for (const r of requests) s += router.select(r.method, r.path)?.id ?? -1;
    sink += s;
  },
  find() {
    let s = 0;
    for (const r of requests) s += router.find(r.method, r.path)?.id ?? -1;
    sink += s;
  },
  'find+read'() {
    // The values read as the benchmark's adapters read them (memoirist's below too): an indexed loop into
    // a local sum.
    let s = 0;
    for (const r of requests) {
      const m = router.find(r.method, r.path);
      if (m === null) continue;
      const names = r.names;
      const params = m.params;
      let n = m.id;
      for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
      s += n;
    }
    sink += s;
  },
  memoirist() {
    let s = 0;
    for (const r of requests) s += memoirist.withParams(r.method, r.path, r.memoiristNames);
    sink += s;
  },
  'memoirist (route only)'() {
    let s = 0;
    for (const r of requests) s += memoirist.select(r.method, r.path);
    sink += s;
  },
  static() {
    let s = 0;
    for (const r of staticRequests) s += engine.lookup(r.method, r.path);
    sink += s;
  },
};
const lookupsPerPass: Record<string, number> = { static: staticRequests.length };
if (staticRequests.length === 0) delete layers.static;

function slice(name: string, ms: number): number {
  const run = layers[name] as () => void;
  let passes = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    run();
    passes++;
    now = performance.now();
  }
  return ((now - start) * 1e6) / (passes * (lookupsPerPass[name] ?? requests.length));
}

const names = Object.keys(layers);
// Warm-up: long enough for V8 to optimise the JavaScript and tier the wasm up.
for (const name of names) slice(name, 300);
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const end = performance.now() + Number(values.seconds) * 1000;
while (performance.now() < end) {
  for (const name of names) samples[name]?.push(slice(name, 20));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const result = Object.fromEntries(names.map((n) => [n, median(samples[n] ?? [])]));
console.log(
  `${values.table} table, ${process.version}, ns per lookup (median of ${samples.engine?.length} slices)`,
);
for (const n of names) console.log(`  ${n.padEnd(22)} ${(result[n] as number).toFixed(1)}`);
const ours = result['find+read'] as number;
const at = (name: string) => result[name] as number;
console.log(`  memoirist ÷ Arbor (params read): ${(at('memoirist') / ours).toFixed(2)}×`);
console.log(
  `  memoirist ÷ Arbor (route only: memoirist's find, Arbor's select): ${(at('memoirist (route only)') / at('select')).toFixed(2)}×`,
);
if (staticRequests.length === 0) {
  console.log('  floor: the table has no static route to time a lookup without a walk on');
} else {
  const match = at('find') - at('engine');
  const reads = at('find+read') - at('find');
  console.log(
    `  floor without any walk: ${(at('static') + match + reads).toFixed(1)} (static ${at('static').toFixed(1)} ` +
      `over ${staticRequests.length} static routes + match ${match.toFixed(1)} + reads ${reads.toFixed(1)}); ` +
      `2× memoirist needs ≤ ${(at('memoirist') / 2).toFixed(1)}`,
  );
}
if (sink === 0.5) console.log(sink);

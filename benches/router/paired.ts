/**
 * Paired timing: every router of a case measured in the same process, in short alternating slices.
 *
 * Why: the machines these benchmarks run on are shared, and their speed was seen to switch for seconds
 * at a time, every router alike (docs/PERFORMANCE.md). Timing each router in its own process, one after the other, lets such a switch
 * land between two routers and move their ratio by that much. Here each round times one slice of every
 * router back to back (~15 ms each, the order rotating), so a switch hits all of them within the same
 * few hundred milliseconds, and the figure of a router is the median of its slices over many rounds.
 *
 * What it costs: the routers share one V8 heap and one set of flags. Each router and case still gets its
 * own copy of the timing loop (`makeLoop`), so no type feedback is shared between them; the garbage one
 * router leaves is collected on everybody's time, which is why the per-router-process mode stays
 * available (`run.ts --separate`).
 */
import type { Built } from './adapters/index.js';
import type { Case, Mode, TableName } from './cases.js';
import { type RouteTable, requestPath } from './routes.js';

export interface PairedEntry {
  name: string;
  /** Per table, the verified router and its parameter names (absent: the router failed the table). */
  built: Partial<Record<TableName, { built: Built; names: string[][] }>>;
}

export interface SliceStats {
  /** Median ns per op (or per request, see the case) over the slices. */
  p50: number;
  /** Mean over the slices. */
  avg: number;
}

type Loop = () => void;
type MakeLoop = (
  fn: Built['select'] | Built['withParams'],
  methods: string[],
  paths: string[],
  names: string[][],
  sink: { value: number; calls: number },
) => Loop;

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
};

/** Runs `loop` `times` times; returns the wall time in ns. */
function slice(loop: Loop, times: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) loop();
  return Number(process.hrtime.bigint() - started);
}

/**
 * Times one case in one mode for every entry that has its table; returns ns per op (or per request) by
 * router name. Throws when a router's results change while it is timed (a dropped result or a router
 * that answers differently under load).
 */
export function timeCasePaired(
  entries: readonly PairedEntry[],
  table: RouteTable,
  c: Case,
  mode: Mode,
  makeLoop: MakeLoop,
  options: { rounds: number; sliceMs: number; warmupMs: number },
): Record<string, SliceStats> {
  const methods = c.requests.map((i) => table.requests[i]?.method as string);
  const paths = c.requests.map((i) => table.requests[i]?.path as string);
  const runners = entries.flatMap((entry) => {
    const found = entry.built[c.table];
    if (found === undefined) return [];
    const names = c.requests.map((i) => found.names[i] ?? []);
    const own = paths.map(requestPath);
    const fn = mode === 'select' ? found.built.select : found.built.withParams;
    let perOp = 0;
    for (let i = 0; i < methods.length; i++)
      perOp += fn(methods[i] as string, own[i] as string, names[i] as string[]);
    const sink = { value: 0, calls: 0 };
    const loop = makeLoop(fn, methods, own, names, sink);
    // Warm up (JIT, wasm tier-up), then size a slice to about `sliceMs`.
    const warmStart = performance.now();
    let calls = 0;
    while (performance.now() - warmStart < options.warmupMs) {
      for (let i = 0; i < 100; i++) loop();
      calls += 100;
    }
    const nsPerCall = (options.warmupMs * 1e6) / calls;
    const times = Math.max(1, Math.round((options.sliceMs * 1e6) / nsPerCall));
    return [{ name: entry.name, loop, sink, perOp, times, samples: [] as number[] }];
  });
  const divide = c.per === 'request' ? c.requests.length : 1;
  for (let round = 0; round < options.rounds; round++) {
    // Rotate the order so that no router always follows the same one.
    for (let k = 0; k < runners.length; k++) {
      const runner = runners[(k + round) % runners.length];
      if (runner === undefined) continue;
      runner.samples.push(slice(runner.loop, runner.times) / runner.times / divide);
    }
  }
  const out: Record<string, SliceStats> = {};
  for (const runner of runners) {
    if (runner.sink.value !== runner.sink.calls * runner.perOp) {
      throw new Error(
        `${runner.name} ${c.id} ${mode}: results changed while timing (${runner.sink.value} ≠ ${runner.sink.calls} × ${runner.perOp})`,
      );
    }
    const mean = runner.samples.reduce((a, b) => a + b, 0) / runner.samples.length;
    out[runner.name] = { p50: median(runner.samples), avg: mean };
  }
  return out;
}

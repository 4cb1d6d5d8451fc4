/**
 * The measuring process that `run.ts` starts. Two ways to time:
 * - paired (the default of `run.ts`): every router in this one process, timed in short alternating
 *   slices (see paired.ts), so a change in the machine's speed hits all of them alike; the file written
 *   holds one result per router;
 * - separate (`run.ts --separate`): one router in one process (as find-my-way's suite does), so the JIT
 *   state one router leaves behind cannot slow down or speed up the next.
 * Registration and memory are always measured with one router per fresh process: a router built many
 * times in one process can slow down (Arbor's wasm memory is not given back when a router is dropped),
 * and an application builds its router once, at start-up.
 *
 *   child.ts --paired --adapters <a,b,…> --out <file> [--quick] [--arbor-engine …] [--cases <substr>]
 *   child.ts --adapter <name> --out <file> [--quick] [--arbor-engine wasm|reference] [--cases <substr>]
 *   child.ts --adapter <name> --out <file> --registration <table> [--quick]   (needs --expose-gc)
 *   child.ts --adapter <name> --out <file> --memory <table>                   (needs --expose-gc)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { measure } from 'mitata';
import { wasm_memory } from '../../ts/src/engine/wasm-pkg/arbor_wasm.js';
import type { ArborEngine } from './adapters/arbor.js';
import { type Adapter, type Built, isArbor, loadAdapters } from './adapters/index.js';
import { buildCases, type Case, MODES, type Mode, TABLES, type TableName } from './cases.js';
import { type PairedEntry, timeCasePaired } from './paired.js';
import { loadTables, type RouteTable, requestPath } from './routes.js';
import { type TableVerification, verify } from './verify.js';

export interface Timing {
  /** ns per op or per request (see the case's `per`). */
  p50: number;
  avg: number;
}

export interface ChildResult {
  adapter: string;
  verification: Partial<Record<TableName, TableVerification>>;
  /** caseId → mode → timing; absent when the router could not register the table. */
  timings: Record<string, Partial<Record<Mode, Timing>>>;
  /** table → median ms to register every route and answer a first request. */
  registration: Partial<Record<TableName, number>>;
  memory?: { table: TableName; heapUsed: number; external: number; rss: number };
}

const { values } = parseArgs({
  options: {
    adapter: { type: 'string' },
    adapters: { type: 'string' },
    paired: { type: 'boolean', default: false },
    out: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'arbor-engine': { type: 'string', default: 'wasm' },
    cases: { type: 'string' },
    memory: { type: 'string' },
    registration: { type: 'string' },
  },
});

const engine = values['arbor-engine'] as ArborEngine;
const { adapters } = await loadAdapters(engine, values.paired ?? false);
const tables = loadTables();
const quick = values.quick ?? false;
if (values.out === undefined) throw new Error('child.ts needs --out <file>');

if (values.paired) {
  const wanted = (values.adapters ?? '').split(',');
  const chosen = adapters.filter((a) => wanted.includes(a.name));
  if (chosen.length === 0)
    throw new Error(`--adapters names none of: ${adapters.map((a) => a.name).join(', ')}`);
  writeFileSync(values.out, JSON.stringify(await timePaired(chosen)));
} else {
  const adapter = adapters.find((a) => a.name === values.adapter);
  if (adapter === undefined) {
    throw new Error(`usage: child.ts --adapter <${adapters.map((a) => a.name).join('|')}> --out <file>`);
  }
  const result: ChildResult = { adapter: adapter.name, verification: {}, timings: {}, registration: {} };
  if (values.memory !== undefined) {
    const memory = measureMemory(adapter, values.memory as TableName, tables[values.memory as TableName]);
    if (memory) result.memory = memory;
  } else if (values.registration !== undefined) {
    const table = values.registration as TableName;
    const ms = registrationTime(adapter, tables[table], quick);
    if (ms !== null) result.registration[table] = ms;
  } else {
    await timeAll(adapter, result);
  }
  writeFileSync(values.out, JSON.stringify(result));
}

/**
 * Builds a loop for one measurement with `new Function`, so every router and case gets its own copy
 * of the loop's code: closures made from one shared function literal share their type feedback, and
 * the second router measured would run in a loop made polymorphic by the first.
 */
function makeLoop(
  fn: Built['select'] | Built['withParams'],
  methods: string[],
  paths: string[],
  names: string[][],
  sink: { value: number; calls: number },
): () => void {
  const factory = new Function(
    'fn',
    'methods',
    'paths',
    'names',
    'sink',
    `const n = methods.length;
     return function op() {
       let s = 0;
       for (let i = 0; i < n; i++) s += fn(methods[i], paths[i], names[i]);
       sink.value += s;
       sink.calls++;
     };`,
  ) as (...args: unknown[]) => () => void;
  return factory(fn, methods, paths, names, sink);
}

async function timeCase(
  built: Built,
  c: Case,
  mode: Mode,
  names: string[][],
  label: string,
): Promise<Timing> {
  const table = tables[c.table];
  const methods = c.requests.map((i) => table.requests[i]?.method as string);
  const paths = c.requests.map((i) => requestPath(table.requests[i]?.path as string));
  const caseNames = c.requests.map((i) => names[i] ?? []);
  const fn = mode === 'select' ? built.select : built.withParams;
  // The sum one op yields, taken once before timing; every timed op must yield it again, so a
  // result the JIT dropped or a router that changed its answer under load fails the run.
  let perOp = 0;
  for (let i = 0; i < methods.length; i++)
    perOp += fn(methods[i] as string, paths[i] as string, caseNames[i] as string[]);
  const sink = { value: 0, calls: 0 };
  const op = makeLoop(fn, methods, paths, caseNames, sink);
  const stats = await measure(op, { min_cpu_time: (quick ? 40 : 600) * 1e6 });
  if (sink.value !== sink.calls * perOp) {
    throw new Error(
      `${label} ${c.id} ${mode}: results changed while timing (${sink.value} ≠ ${sink.calls} × ${perOp})`,
    );
  }
  const divide = c.per === 'request' ? c.requests.length : 1;
  return { p50: stats.p50 / divide, avg: stats.avg / divide };
}

/**
 * Median wall time of three builds (one when quick) of `table` — registration plus the first lookup,
 * where lazy routers compile — in this fresh process, after one build of the 12-route table has loaded
 * the router's code; garbage is collected before each build. Null when the router cannot hold the table.
 */
function registrationTime(a: Adapter, table: RouteTable, quick: boolean): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('registration needs --expose-gc');
  a.build(tables.small);
  const times: number[] = [];
  while (times.length < (quick ? 1 : 3)) {
    gc();
    const t0 = performance.now();
    let built: Built;
    try {
      built = a.build(table);
    } catch {
      return null;
    }
    times.push(performance.now() - t0);
    if (built.select('GET', '/') === -2) throw new Error('unreachable');
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)] as number;
}

/** The cases this run times, and the tables they need (a full run verifies every table). */
function selection(): { cases: Case[]; tables: Set<TableName> } {
  const cases = buildCases(tables).filter((c) => !values.cases || c.id.includes(values.cases));
  const needed = new Set<TableName>(values.cases ? cases.map((c) => c.table) : TABLES);
  return { cases, tables: needed };
}

/** Verifies `a` on every needed table; the verified routers by table. */
function verifyAll(a: Adapter, needed: Set<TableName>, result: ChildResult): PairedEntry['built'] {
  const built: PairedEntry['built'] = {};
  for (const name of needed) {
    const verified = verify(a, tables[name]);
    result.verification[name] = {
      ok: verified.ok,
      agreement: verified.agreement,
      reason: verified.reason,
      split: verified.split,
      unintended: verified.unintended,
    };
    if (verified.built) built[name] = { built: verified.built, names: verified.names };
  }
  return built;
}

async function timeAll(a: Adapter, result: ChildResult): Promise<void> {
  const { cases, tables: needed } = selection();
  const builtBy = verifyAll(a, needed, result);
  for (const c of cases) {
    const entry = builtBy[c.table];
    if (entry === undefined) continue;
    const timings: Partial<Record<Mode, Timing>> = {};
    for (const mode of MODES) timings[mode] = await timeCase(entry.built, c, mode, entry.names, a.name);
    result.timings[c.id] = timings;
  }
}

/** Every chosen router in this process: verified, then each case timed in alternating slices. */
async function timePaired(chosen: readonly Adapter[]): Promise<ChildResult[]> {
  const { cases, tables: needed } = selection();
  const results = chosen.map(
    (a): ChildResult => ({ adapter: a.name, verification: {}, timings: {}, registration: {} }),
  );
  const entries = chosen.map(
    (a, k): PairedEntry => ({
      name: a.name,
      built: verifyAll(a, needed, results[k] as ChildResult),
    }),
  );
  const options = quick
    ? { rounds: 5, sliceMs: 5, warmupMs: 20 }
    : { rounds: 25, sliceMs: 15, warmupMs: 150 };
  for (const c of cases) {
    for (const mode of MODES) {
      const byName = timeCasePaired(entries, tables[c.table], c, mode, makeLoop, options);
      chosen.forEach((a, k) => {
        const stats = byName[a.name];
        if (stats === undefined) return;
        const result = results[k] as ChildResult;
        const timings = result.timings[c.id] ?? {};
        timings[mode] = stats;
        result.timings[c.id] = timings;
      });
    }
  }
  return results;
}

function measureMemory(a: Adapter, name: TableName, table: RouteTable): ChildResult['memory'] {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('memory needs --expose-gc');
  const settle = (): NodeJS.MemoryUsage => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage();
  };
  // Warm the router's code paths on a tiny table first, so the delta is the table, not lazy code.
  a.build(tables.small);
  const wasmBytes = wasmMemoryBytes(a);
  const before = settle();
  let built: Built | null = null;
  try {
    built = a.build(table);
  } catch {
    return undefined;
  }
  const after = settle();
  // Keep the router alive past the second reading.
  if (built.select('GET', '/') === -2) throw new Error('unreachable');
  // Node 24 and 22 count a WebAssembly memory in `external`, Node 26 does not: its growth is taken
  // instead when it is the larger (it never shrinks, so the growth is what the table took).
  const wasmGrowth = wasmMemoryBytes(a) - wasmBytes;
  return {
    table: name,
    heapUsed: after.heapUsed - before.heapUsed,
    external: Math.max(after.external - before.external, wasmGrowth),
    rss: after.rss - before.rss,
  };
}

/** The size of Arbor's WebAssembly memory (0 for another router): the module the adapter already loaded. */
function wasmMemoryBytes(a: Adapter): number {
  if (!isArbor(a)) return 0;
  return wasm_memory().buffer.byteLength;
}

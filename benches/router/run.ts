/**
 * The router benchmark: Arbor beside the fastest JavaScript routers, every adapter proven correct on
 * every table before it is timed. Writes `benches/results/router-node<major>.json` for the Node that runs
 * it, then renders `router.md` and `router.svg` from every such file present (see report.ts).
 *
 *   tsx benches/router/run.ts [--quick] [--node-label "Node 24"] [--rounds 3] [--routers rou3,arbor]
 *                             [--cases github] [--arbor-engine wasm|reference] [--no-memory]
 *                             [--no-registration] [--no-report] [--out file] [--separate]
 *   <node> --expose-gc --import tsx benches/router/run.ts …   (any Node line)
 *
 * `npm run bench` runs it on Node 24 and 26, then Node 22 (scripts/tasks.mjs); the binaries come from
 * scripts/node-binaries.mjs (Node 24: node_modules/.bin/node; 22 and 26: ~/.cache/arbor/node<major>).
 *
 * By default every round is one child process that times all routers in alternating ~15 ms slices
 * (paired.ts): a shared machine's speed changes then hit every router alike. `--separate` runs each
 * router in its own child process per round instead (no shared heap, but a slow minute can fall on one
 * router). The report takes the median over the rounds.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ArborEngine } from './adapters/arbor.js';
import { isArbor, loadAdapters } from './adapters/index.js';
import { BUILD_TABLES, buildCases, type Mode, TABLES, type TableName } from './cases.js';
import type { ChildResult, Timing } from './child.js';
import { renderReport } from './report.js';
import type { RunFile } from './results.js';
import { loadTables } from './routes.js';
import { machine, packageVersion, ROOT } from './system.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'node-label': { type: 'string' },
    rounds: { type: 'string' },
    routers: { type: 'string' },
    cases: { type: 'string' },
    'arbor-engine': { type: 'string', default: 'wasm' },
    'no-memory': { type: 'boolean', default: false },
    'no-registration': { type: 'boolean', default: false },
    'no-report': { type: 'boolean', default: false },
    separate: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});

const quick = values.quick ?? false;
/** Fresh processes per router in which registration is timed (one with `--quick`). */
const REGISTRATION_PROCESSES = 5;
const rounds = Number(values.rounds ?? (quick ? 1 : 3));
const engine = values['arbor-engine'] as ArborEngine;
if (engine !== 'wasm' && engine !== 'reference') throw new Error('--arbor-engine is wasm or reference');
const major = process.versions.node.split('.')[0] as string;
// The supported lines are 22, 24 and 26 (package.json `engines`); `tsx` alone runs on whatever `node` is first
// on PATH, which on some machines is an older system Node.
if (Number(major) < 22) {
  throw new Error(
    `Node ${process.versions.node} is not a supported line: run with node_modules/.bin/node (24) or ~/.cache/arbor/node<22|26>/node_modules/.bin/node (scripts/node-binaries.mjs)`,
  );
}
const label = values['node-label'] ?? `Node ${major}`;
const resultsDir = join(ROOT, 'benches/results');
const out = values.out ?? join(resultsDir, `router-node${major}.json`);

const { adapters: all, arborError } = await loadAdapters(engine);
// Names compared on letters and digits only, so `rou3-compiled` selects `rou3 (compiled)` (it used to
// select nothing, silently).
const folded = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const wanted = values.routers?.split(',').map(folded);
const adapters = wanted ? all.filter((a) => wanted.some((w) => folded(a.name).includes(w))) : all;
if (wanted && adapters.length === 0)
  throw new Error(`--routers ${values.routers} selects none of: ${all.map((a) => a.name).join(', ')}`);
if (arborError) console.warn(`warning: ${arborError}`);
const tables = loadTables();
const cases = buildCases(tables).filter((c) => !values.cases || c.id.includes(values.cases));

const childFile = join(ROOT, 'benches/router/child.ts');
const scratch = mkdtempSync(join(tmpdir(), 'arbor-router-bench-'));
const errors: string[] = [];

/** The line of a child's stderr that says what went wrong (Node prints the source excerpt first). */
function errorLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return lines.find((l) => /^\w*Error\b|^Error:/.test(l.trim())) ?? lines.slice(-3).join(' | ');
}

/**
 * What a child needs to run as this process runs: on Deno, `run` with the permissions and the `.js` → `.ts`
 * resolution the sources need (Node and Bun take the file as it is). The benchmark runs on Bun and Deno as
 * it does on Node: `bun benches/router/run.ts`, `deno run -A --sloppy-imports benches/router/run.ts`.
 */
const RUNTIME_FLAGS =
  'Deno' in globalThis
    ? ['run', '--allow-all', '--no-lock', '--sloppy-imports', '--v8-flags=--expose-gc']
    : [];

/** Runs child.ts with this process's loader flags (tsx's, however it was started). `adapter` is one
 * router's name, or a list of names for a paired run (then the child writes one result per router). */
function child(adapter: string | string[], extra: string[], nodeFlags: string[] = []): ChildResult[] | null {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.json`);
  const who =
    typeof adapter === 'string' ? ['--adapter', adapter] : ['--paired', '--adapters', adapter.join(',')];
  const label = typeof adapter === 'string' ? adapter : `${adapter.length} routers, paired`;
  const args = [
    ...RUNTIME_FLAGS,
    // Deno takes V8's flags through --v8-flags (RUNTIME_FLAGS), not as Node's own.
    ...(RUNTIME_FLAGS.length > 0 ? [] : nodeFlags),
    ...process.execArgv,
    childFile,
    ...who,
    '--out',
    file,
    '--arbor-engine',
    engine,
    ...extra,
  ];
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    const message = `${label} ${extra.join(' ')}: child exited ${run.status}: ${errorLine(run.stderr ?? '')}`;
    errors.push(message);
    console.error(message);
    return null;
  }
  console.log(`  ${label} ${extra.join(' ')} (${seconds} s)`);
  const written = JSON.parse(readFileSync(file, 'utf8')) as ChildResult | ChildResult[];
  return Array.isArray(written) ? written : [written];
}

/** `object[key]`, created by `make` when absent. */
function within<K extends string, V>(object: Partial<Record<K, V>>, key: K, make: () => V): V {
  const value = object[key];
  if (value !== undefined) return value;
  const made = make();
  object[key] = made;
  return made;
}

const timingRounds: Record<string, Partial<Record<Mode, Record<string, number[][]>>>> = {};
const registrationRounds: Partial<Record<TableName, Record<string, number[]>>> = {};
const verification: RunFile['verification'] = {};

for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round} of ${rounds}`);
  const extra = [...(quick ? ['--quick'] : []), ...(values.cases ? ['--cases', values.cases] : [])];
  const results = values.separate
    ? adapters.flatMap((adapter) => child(adapter.name, extra) ?? [])
    : (child(
        // Rotate the order between rounds, as the separate mode does by process.
        adapters.map((_, k) => adapters[(k + round - 1) % adapters.length]?.name as string),
        extra,
      ) ?? []);
  for (const r of results) {
    const adapter = { name: r.adapter };
    verification[adapter.name] = r.verification;
    for (const [caseId, byMode] of Object.entries(r.timings)) {
      for (const [mode, t] of Object.entries(byMode) as [Mode, Timing][]) {
        const byAdapter = within(
          within(timingRounds, caseId, () => ({})),
          mode,
          () => ({}),
        );
        within(byAdapter, adapter.name, () => [] as number[][]).push([t.p50, t.avg]);
      }
    }
  }
}

// Registration, like memory, in fresh processes (see child.ts). One process per router would give one sample
// per run, which a slow second of the shared machine decides: each router registers in several processes,
// taken in turn with the other routers', and the figure is their median (docs/PERFORMANCE.md).
const registrationProcesses = quick ? 1 : REGISTRATION_PROCESSES;
const buildTables = BUILD_TABLES.filter(
  (t) => !values.cases || values.cases.includes(t) || t.includes(values.cases),
);
if (!values['no-registration'] && buildTables.length > 0) {
  for (let pass = 1; pass <= registrationProcesses; pass++) {
    console.log(`registration, pass ${pass} of ${registrationProcesses}`);
    for (const table of buildTables) {
      for (const adapter of adapters) {
        const [r] =
          child(adapter.name, ['--registration', table, ...(quick ? ['--quick'] : [])], ['--expose-gc']) ??
          [];
        const ms = r?.registration[table];
        if (ms !== undefined)
          within(
            within(registrationRounds, table, () => ({})),
            adapter.name,
            () => [] as number[],
          ).push(ms);
      }
    }
  }
}

type MemoryFigure = NonNullable<ChildResult['memory']>;
type RunTiming = { p50: number; avg: number; rounds: number[] };
const memory: RunFile['memory'] = {};
if (!values['no-memory']) {
  console.log('memory after registration');
  for (const table of quick ? (['generated'] as const) : BUILD_TABLES) {
    for (const adapter of adapters) {
      const [r] = child(adapter.name, ['--memory', table], ['--expose-gc']) ?? [];
      if (r?.memory) within(memory, table, (): Record<string, MemoryFigure> => ({}))[adapter.name] = r.memory;
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const timings: RunFile['timings'] = {};
for (const [caseId, byMode] of Object.entries(timingRounds)) {
  for (const [mode, byAdapter] of Object.entries(byMode) as [Mode, Record<string, number[][]>][]) {
    for (const [name, samples] of Object.entries(byAdapter)) {
      within(
        within(timings, caseId, () => ({})),
        mode,
        (): Record<string, RunTiming> => ({}),
      )[name] = {
        p50: median(samples.map((s) => s[0] as number)),
        avg: median(samples.map((s) => s[1] as number)),
        rounds: samples.map((s) => s[0] as number),
      };
    }
  }
}
const registration: RunFile['registration'] = {};
for (const [table, byAdapter] of Object.entries(registrationRounds) as [
  TableName,
  Record<string, number[]>,
][]) {
  const byName = within(registration, table, (): Record<string, number> => ({}));
  for (const [name, ms] of Object.entries(byAdapter)) byName[name] = median(ms);
}

const pkgs = [...new Set(['arbor-router', ...all.map((a) => a.pkg), 'mitata'])];
const runFile: RunFile = {
  label,
  machine: machine(),
  date: new Date().toISOString(),
  quick,
  rounds,
  registrationProcesses,
  paired: !values.separate,
  arborEngine: engine,
  arborError,
  versions: Object.fromEntries(pkgs.map((p) => [p, packageVersion(p)])),
  tables: Object.fromEntries(
    TABLES.map((t) => [t, { routes: tables[t].routes.length, requests: tables[t].requests.length }]),
  ),
  adapters: adapters.map((a) => ({
    name: a.name,
    pkg: a.pkg,
    arbor: isArbor(a),
    rule: a.rule,
    selection: a.selection,
    params: a.params,
    notes: Object.fromEntries(TABLES.map((t) => [t, a.notes(tables[t])])) as Record<TableName, string[]>,
  })),
  cases,
  verification,
  timings,
  registration,
  memory,
  errors,
};
mkdirSync(resultsDir, { recursive: true });
writeFileSync(out, `${JSON.stringify(runFile, null, 1)}\n`);
console.log(`wrote ${out}`);
if (!values['no-report']) {
  for (const file of renderReport(resultsDir)) console.log(`wrote ${file}`);
}
if (errors.length > 0) process.exitCode = 1;

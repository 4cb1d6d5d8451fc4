/**
 * Start-up benchmark: one application with 10,000 routes (static, parameters, constraints, annotations)
 * started with and without the route cache, side by side in one run. Each start is a fresh child process;
 * runs interleave the two modes (alternating which goes first) and the report takes medians, so a slow
 * moment on a shared machine hits both alike. Writes `benches/results/startup.md`.
 *
 *   node scripts/tasks.mjs build && tsx benches/startup/run.ts [--runs 9] [--phases 3] [--routes 10000] [--out file]
 *
 * Time-to-first-request is measured inside the child as `performance.now()` (milliseconds since the
 * process started) when the first HTTP response has been read: Node's own start, importing the app
 * (registration), building the router (compiling, or loading the snapshot) and serving one request over
 * loopback. Memory is `process.memoryUsage()` right after that first request.
 *
 * Then `--phases` more starts per mode, instrumented (`phases.ts`), say where the CPU time goes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, ROOT } from '../router/system.js';
import { applicationSource, startSource } from './generate.js';
import { type Phase, phaseSource } from './phases.js';
import { type Mode, renderStartup, type Sample } from './report.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    phases: { type: 'string', default: '3' },
    routes: { type: 'string', default: '10000' },
    out: { type: 'string', default: join(ROOT, 'benches', 'results', 'startup.md') },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const routes = Number(values.routes);
// The package as users run it: its bundles (scripts/bundle.mjs).
const DIST = join(ROOT, 'dist', 'ts', 'src');
const cli = join(DIST, 'bundle', 'cli.js');
if (!existsSync(cli))
  throw new Error('build first: node scripts/tasks.mjs build (the benchmark runs the compiled dist/)');

const dir = mkdtempSync(join(tmpdir(), 'arbor-startup-'));
const { source, probes } = applicationSource(join(DIST, 'bundle', 'index.js'), routes);
writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
writeFileSync(join(dir, 'app.mjs'), source);
writeFileSync(join(dir, 'start.mjs'), startSource(probes));
const [firstProbe] = probes;
if (firstProbe === undefined) throw new Error('no probe');
const cacheFile = join(dir, '.arbor', 'routes.cache');
// The instrumented starts wrap the framework's internals, which the bundles do not export: they run the
// same app, in a directory of its own (its call sites are its own file's), on the compiled modules.
const phasesDir = join(dir, 'phases');
mkdirSync(phasesDir);
writeFileSync(join(phasesDir, 'package.json'), '{ "private": true, "type": "module" }\n');
writeFileSync(join(phasesDir, 'app.mjs'), applicationSource(join(DIST, 'app', 'index.js'), routes).source);
writeFileSync(join(phasesDir, 'phases.mjs'), phaseSource(DIST, firstProbe));
const phasesCacheFile = join(phasesDir, '.arbor', 'routes.cache');

const env = (extra: Record<string, string>) => {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PORT: '0' };
  for (const key of Object.keys(base))
    if (key.startsWith('ARBOR_') || key === 'NODE_OPTIONS') delete base[key];
  return { ...base, ...extra };
};

const cacheStarted = performance.now();
execFileSync(process.execPath, [cli, 'route:cache', '--app', join(dir, 'app.mjs')], {
  env: env({}),
  stdio: 'pipe',
});
const cacheMs = performance.now() - cacheStarted;
execFileSync(process.execPath, [cli, 'route:cache', '--app', join(phasesDir, 'app.mjs')], {
  env: env({}),
  stdio: 'pipe',
});
const cacheBytes = statSync(cacheFile).size;

/** One start in a fresh process; throws if any probe answered wrongly or the cache was not used as meant. */
function start(mode: Mode): Sample {
  const output = execFileSync(process.execPath, [join(dir, 'start.mjs')], {
    cwd: dir,
    env: env({ ARBOR_ROUTE_CACHE: mode === 'cached' ? cacheFile : 'off' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  const sample = JSON.parse(output.trim().split('\n').at(-1) ?? '') as Sample & { wrong: string | null };
  if (sample.wrong !== null) throw new Error(`${mode} start answered wrongly: ${sample.wrong}`);
  return sample;
}

const samples: Record<Mode, Sample[]> = { compiled: [], cached: [] };
for (let run = 0; run < runs; run++) {
  const order: Mode[] = run % 2 === 0 ? ['compiled', 'cached'] : ['cached', 'compiled'];
  for (const mode of order) samples[mode].push(start(mode));
  process.stderr.write(
    `run ${run + 1}/${runs}: ${order.map((m) => `${m} ${samples[m].at(-1)?.ttfr.toFixed(0)} ms`).join(', ')}\n`,
  );
}

/** One instrumented start: CPU ms per phase. */
function phasesOf(mode: Mode): Partial<Record<Phase, number>> {
  const output = execFileSync(process.execPath, [join(phasesDir, 'phases.mjs')], {
    cwd: phasesDir,
    env: env({ ARBOR_ROUTE_CACHE: mode === 'cached' ? phasesCacheFile : 'off' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Partial<Record<Phase, number>>;
}

const phases: Record<Mode, Partial<Record<Phase, number>>[]> = { compiled: [], cached: [] };
for (let run = 0; run < Number(values.phases); run++) {
  for (const mode of run % 2 === 0 ? (['compiled', 'cached'] as const) : (['cached', 'compiled'] as const))
    phases[mode].push(phasesOf(mode));
}

const markdown = renderStartup({ routes, runs, cacheMs, cacheBytes, machine: machine(), samples, phases });
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, markdown);
process.stdout.write(markdown);
if (!values.keep) rmSync(dir, { recursive: true, force: true });

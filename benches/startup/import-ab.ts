/**
 * Two builds of Arbor started side by side: what a change costs a Node start without the route cache.
 * Each start is a fresh `node` process that imports the package's bundle, registers GitHub's REST API (516
 * routes, `benches/data/medley-github-api.json`) on an application and answers one request per route
 * through `app.fetch` (checked). It reports, from `performance.now()` (the process's own clock, its start
 * at 0): the package imported, the routes registered, the requests answered. The builds alternate start by
 * start, the first one changing each round; a figure is the median over the starts, and the ratio is the
 * median of the per-round ratios (after ÷ before: above 1 is slower).
 *
 *   node --import tsx benches/startup/import-ab.ts --before <dir>/dist/ts/src/bundle/index.js \
 *     [--after dist/ts/src/bundle/index.js] [--rounds 15] [--label …] [--out benches/results]
 *
 * Build the other tree first (`git worktree add`, link node_modules, `node scripts/tasks.mjs build` or
 * `tsc -p tsconfig.json` + the wasm package + `scripts/bundle.mjs`). Writes `startup-ab.md`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { githubRoutes } from '../http/github.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: {
      type: 'string',
      default: join(import.meta.dirname, '..', '..', 'dist', 'ts', 'src', 'bundle', 'index.js'),
    },
    rounds: { type: 'string', default: '15' },
    label: { type: 'string', default: 'before → after' },
    out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
  },
});
if (values.before === undefined)
  throw new Error('--before <path to the other build>/dist/ts/src/bundle/index.js');
const rounds = Number(values.rounds);

const MEASURES = ['imported', 'registered', 'answered'] as const;
type Measure = (typeof MEASURES)[number];
type Start = Record<Measure, number>;

/** The child: imports `bundle`, registers every route, answers each once; prints its three times. */
const CHILD = `
const t0 = performance.now();
const { Application } = await import(process.argv[1]);
const imported = performance.now();
const routes = JSON.parse(process.argv[2]);
// Specificity order, as the HTTP benchmark's GitHub server (in definition order some routes shadow others).
const app = new Application({ order: 'specificity' });
for (const [i, r] of routes.entries()) app.match([r.method], r.pattern, (_req, res) => res.json({ route: i }));
const registered = performance.now();
for (const [i, r] of routes.entries()) {
  const answer = await app.fetch(new Request('http://localhost' + r.request, { method: r.method }));
  const body = await answer.json();
  if (body.route !== i) throw new Error(r.method + ' ' + r.request + ' answered ' + JSON.stringify(body));
}
const answered = performance.now();
console.log(JSON.stringify({ imported, registered, answered, t0 }));
`;

const routes = JSON.stringify(githubRoutes());

function start(bundle: string): Start {
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, pathToFileURL(bundle).href, routes],
    {
      encoding: 'utf8',
    },
  );
  const times = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Start;
  return times;
}

const builds = { before: resolve(values.before), after: resolve(values.after) };
const starts: Record<'before' | 'after', Start[]> = { before: [], after: [] };
const ratios: Record<Measure, number[]> = { imported: [], registered: [], answered: [] };
const load = loadavg();
start(builds.before); // the file system cache warmed for both
start(builds.after);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  const pair = {} as Record<'before' | 'after', Start>;
  for (const which of order) pair[which] = start(builds[which]);
  starts.before.push(pair.before);
  starts.after.push(pair.after);
  for (const m of MEASURES) ratios[m].push(pair.after[m] / pair.before[m]);
  process.stdout.write(`round ${round + 1}/${rounds}\n`);
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ms = (x: number): string => `${x.toFixed(1)} ms`;
const NAMES: Record<Measure, string> = {
  imported: 'package imported',
  registered: '+ 516 routes registered',
  answered: '+ one request per route answered (app.fetch)',
};
const rows = MEASURES.map(
  (m) =>
    `| ${NAMES[m]} | ${ms(median(starts.before.map((s) => s[m])))} | ${ms(median(starts.after.map((s) => s[m])))} | ${median(ratios[m]).toFixed(3)} |`,
);
const report = `# Start-up A/B: ${values.label}

Generated by \`benches/startup/import-ab.ts\`. Each start is a fresh Node process that imports the package's
bundle, registers GitHub's REST API (516 routes) and answers one request per route through \`app.fetch\`;
times are milliseconds since the process started (its own clock), medians over ${rounds} starts per build,
the builds alternating start by start. The ratio is the median of the per-round ratios (after ÷ before;
above 1 is slower).

- before: \`${values.before}\`
- after: \`${values.after}\`
- Node ${process.version}; ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores; load average at start ${load.map((l) => l.toFixed(2)).join(' / ')}.

| measure (since the process started) | before | after | after ÷ before |
|---|--:|--:|--:|
${rows.join('\n')}
`;
writeFileSync(join(values.out, 'startup-ab.md'), report);
process.stdout.write(report);

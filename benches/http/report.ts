/** Turns the runs of the HTTP benchmark into `benches/results/http.md` and `http.svg`. */
import { type ChartRow, renderChart } from './chart.js';
import type { Environment } from './environment.js';
import { max, median, min, thousands } from './stats.js';
import type { RunResult } from './wrk.js';

export interface ServerSummary {
  name: string;
  label: string;
  runs: RunResult[];
  /** Conformance failures found before timing. */
  failures: string[];
  crashed: boolean;
}

export interface ReportInput {
  summaries: ServerSummary[];
  environment: Environment;
  settings: {
    rounds: number;
    duration: number;
    warmup: number;
    connections: number;
    pipelining: number;
    mix: string;
    mixDescription: string;
    smoke: boolean;
    arborEngine: string;
    arborSource: 'dist' | 'src';
  };
}

interface Target {
  /** The contender the target is about (`arbor`: the default server; `arbor-own`: Arbor's own). */
  subject: string;
  against: string;
  ratio: number;
  text: string;
}

/**
 * The targets the project set itself (issue 15): on the tasks API at least Fastify and 90 % of bare
 * node:http; on `GET /tasks/:id` alone (by-id) 1.2 × Fastify; on the GitHub table at least Fastify.
 */
function targetsFor(mix: string): Target[] {
  const bare = {
    subject: 'arbor',
    against: 'bare',
    ratio: 0.9,
    text: 'Arbor (node:http) ≥ 90 % of bare node:http',
  };
  // On the routing-heavy mixes: the default server at least 1.2 × Fastify, the own server 1.4 ×.
  const fast = (text: string): Target[] => [
    { subject: 'arbor', against: 'fastify', ratio: 1.2, text: `Arbor (node:http) ≥ 1.2 × Fastify${text}` },
    {
      subject: 'arbor-own',
      against: 'fastify',
      ratio: 1.4,
      text: `Arbor (own server) ≥ 1.4 × Fastify${text}`,
    },
  ];
  if (mix === 'github') return fast(' (throughput)');
  if (mix === 'by-id') return [...fast(' (throughput)'), bare];
  return [
    { subject: 'arbor', against: 'fastify', ratio: 1.0, text: 'Arbor (node:http) ≥ Fastify (throughput)' },
    bare,
  ];
}

export const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
export const fmtRatio = (r: number) => (Number.isFinite(r) ? r.toFixed(2) : '—');

/** Median over rounds of the within-round ratio: robust to drift of the machine between rounds. */
export function pairedRatio(a: ServerSummary | undefined, b: ServerSummary | undefined): number {
  if (!a || !b) return Number.NaN;
  const n = Math.min(a.runs.length, b.runs.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) ratios.push(ratio((a.runs[i] as RunResult).rps, (b.runs[i] as RunResult).rps));
  return median(ratios);
}

export function renderReport({ summaries, environment, settings }: ReportInput): {
  markdown: string;
  svg: string;
} {
  const byName = new Map(summaries.map((s) => [s.name, s]));
  const medianRps = (s: ServerSummary | undefined) => (s ? median(s.runs.map((r) => r.rps)) : Number.NaN);
  const fastify = medianRps(byName.get('fastify'));
  const bare = medianRps(byName.get('bare'));
  const tooShort = settings.smoke || settings.rounds < 3 || settings.duration < 10;

  const github = settings.mix === 'github';
  const lines: string[] = [];
  lines.push(
    github
      ? '# HTTP benchmark: the GitHub API table (516 routes) on Arbor and its peers'
      : '# HTTP benchmark: the tasks API on Arbor and its peers',
    '',
  );
  if (tooShort) {
    lines.push(
      `> **Short run (${settings.rounds} round(s) × ${settings.duration} s): it checks the machinery, the figures`,
      '> are not a benchmark.** Run `npm run bench:http` (5 rounds × 10 s) on a quiet machine for real figures.',
      '',
    );
  }
  lines.push(
    ...(github
      ? [
          "Each server runs in its own child process and registers GitHub's REST API, 516 routes (medley's",
          'router benchmark table, `benches/data/medley-github-api.json`, the one `benches/router` times routers',
          'on), every route answering `{ route, params }` with the parameters its framework extracted',
          '(`benches/http/github.ts`). wrk drives them from a separate process over loopback, cycling',
          "through every route's real URL. Runs are interleaved: every round runs every server once, starting",
          'one server later each round. Before timing, each server must answer every URL of the table with a',
          "200 and the URL's parameters. The bare node:http server has no router and is left out.",
        ]
      : [
          'Each server runs in its own child process and serves the same in-memory tasks API (that of the tasks',
          'reference application; `benches/http/model.ts` is shared by all of them). wrk drives them from a separate',
          'process over loopback. Runs are interleaved: every round runs every server once, starting one server',
          'later each round. Before timing, each server must pass the same conformance checks (statuses and JSON',
          'bodies of every route, 404/400 cases included).',
        ]),
    '',
    `- Workload: ${settings.mixDescription}; every request expects a 2xx.`,
    `- ${settings.rounds} round(s) × ${settings.duration} s measured, after ${settings.warmup} s of warm-up per run; ` +
      `${settings.connections} connections, pipelining ${settings.pipelining}.`,
    `- Machine: ${environment.cpu}, ${environment.cores} logical cores, ${environment.memory}, ${environment.os}; ` +
      `load average at start ${environment.loadAverage}.`,
    `- Servers on Node ${environment.serverNode}; load generator ${environment.loadGenerator}.`,
    `- Arbor: ${settings.arborEngine === 'wasm' ? 'WebAssembly engine' : 'TypeScript reference engine'}, loaded from ` +
      `${settings.arborSource === 'dist' ? '`dist/` (tsc output)' : '`ts/src` through tsx (dist/ was missing or stale)'}.`,
    `- Versions: ${Object.entries(environment.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    `- Date: ${environment.date}.`,
    '',
    '## Results (median of rounds)',
    '',
    '| Server | req/s | worst – best round | × Fastify | × bare | p99 ms | p50 ms | errors / timeouts / non-2xx | checks |',
    '|---|--:|--:|--:|--:|--:|--:|--:|---|',
  );
  for (const s of summaries) {
    const rps = s.runs.map((r) => r.rps);
    const m = median(rps);
    const errors = s.runs.reduce((a, r) => a + r.errors, 0);
    const timeouts = s.runs.reduce((a, r) => a + r.timeouts, 0);
    const non2xx = s.runs.reduce((a, r) => a + r.non2xx, 0);
    const checks = s.crashed ? 'CRASHED' : s.failures.length === 0 ? 'pass' : `FAIL (${s.failures.length})`;
    lines.push(
      `| ${s.name.startsWith('arbor') ? `**${s.label}**` : s.label} | ${thousands(m)} | ${thousands(min(rps))} – ${thousands(max(rps))} | ` +
        `${fmtRatio(ratio(m, fastify))} | ${fmtRatio(ratio(m, bare))} | ${median(s.runs.map((r) => r.latencyP99)).toFixed(1)} | ` +
        `${median(s.runs.map((r) => r.latencyP50)).toFixed(1)} | ${errors} / ${timeouts} / ${non2xx} | ${checks} |`,
    );
  }

  const arbor = byName.get('arbor');
  if (arbor) {
    lines.push('', '## Targets', '');
    lines.push('| Target | ratio of medians | median of per-round ratios | verdict |', '|---|--:|--:|---|');
    for (const target of targetsFor(settings.mix)) {
      const subject = byName.get(target.subject);
      const other = byName.get(target.against);
      const r = ratio(medianRps(subject), medianRps(other));
      const paired = pairedRatio(subject, other);
      let verdict = !other || !subject ? 'not run' : r >= target.ratio ? 'met' : 'NOT met';
      if (tooShort && other) verdict += ' (short run: indicative only)';
      lines.push(`| ${target.text} | ${fmtRatio(r)} | ${fmtRatio(paired)} | ${verdict} |`);
    }
  }

  const validated = byName.get('arbor-validated');
  if (arbor && validated) {
    // Issue 17: validating requests against the annotations may cost at most 5 % of the throughput.
    const r = ratio(medianRps(validated), medianRps(arbor));
    const paired = pairedRatio(validated, arbor);
    let verdict = r >= 0.95 ? 'met' : 'NOT met';
    if (tooShort) verdict += ' (short run: indicative only)';
    lines.push('', '## Cost of validation', '');
    lines.push('| | ratio of medians | median of per-round ratios | verdict |', '|---|--:|--:|---|');
    lines.push(`| Arbor + validation ≥ 0.95 × Arbor | ${fmtRatio(r)} | ${fmtRatio(paired)} | ${verdict} |`);
  }

  lines.push('', '## Every run', '', `| Round | ${summaries.map((s) => s.label).join(' | ')} |`);
  lines.push(`|---|${summaries.map(() => '--:').join('|')}|`);
  const rounds = Math.max(...summaries.map((s) => s.runs.length));
  for (let i = 0; i < rounds; i++) {
    const cells = summaries.map((s) => {
      const run = s.runs[i];
      return run ? `${thousands(run.rps)} req/s, p99 ${run.latencyP99} ms` : '—';
    });
    lines.push(`| ${i + 1} | ${cells.join(' | ')} |`);
  }

  const failing = summaries.filter((s) => s.failures.length > 0);
  if (failing.length > 0) {
    lines.push('', '## Conformance failures', '');
    for (const s of failing) for (const f of s.failures) lines.push(`- ${s.label}: ${f}`);
  }
  const statusNotes = summaries.filter((s) => s.runs.some((r) => r.non2xx > 0));
  if (statusNotes.length > 0) {
    lines.push('', '## Unexpected statuses during timed runs', '');
    lines.push('Answers with a status ≥ 400 per round (the conformance checks above name the requests).', '');
    for (const s of statusNotes) lines.push(`- ${s.label}: ${s.runs.map((r) => r.non2xx).join(', ')}`);
  }
  lines.push(
    '',
    '## Notes',
    '',
    '- Frameworks run with their defaults: Express computes a weak ETag and sends `X-Powered-By`; Fastify',
    '  has no logger and no response schema (plain `JSON.stringify`, as every other server); Hono uses its',
    '  default router. The bare server is the ceiling of node:http: routing by a `switch`, nothing else.',
    '- "Arbor (node:http)" is the application on its default server, node:http, as every other framework;',
    "  \"Arbor (own server)\" is the same application on Arbor's own HTTP/1.1 server (`server: 'arbor'`,",
    '  `node:net`, `ts/src/http/wire/`).',
    ...(github
      ? [
          '- GitHub table: Arbor routes in specificity order (ROUTING.md §3.2), as find-my-way does under Fastify: in',
          '  definition order 25 routes sit behind an earlier parameter route and could never be reached. Hono',
          '  and Express route in definition order and answer those URLs with the earlier route (the same work).',
          "  Fastify's handlers are synchronous (`reply.send`), its quickest form; the others return their answer.",
        ]
      : []),
    '- On a machine with two cores the server and the load generator each get about one core; absolute',
    '  figures are lower than on a server-class machine, the ratios are what this report is for.',
    '- Chart: `http.svg` (bars: median; line: worst to best round).',
    '',
  );

  const rows: ChartRow[] = summaries.map((s) => ({
    label: s.label,
    rps: {
      median: median(s.runs.map((r) => r.rps)),
      min: min(s.runs.map((r) => r.rps)),
      max: max(s.runs.map((r) => r.rps)),
    },
    p99: {
      median: median(s.runs.map((r) => r.latencyP99)),
      min: min(s.runs.map((r) => r.latencyP99)),
      max: max(s.runs.map((r) => r.latencyP99)),
    },
    highlight: s.name.startsWith('arbor'),
    flagged: s.failures.length > 0 || s.crashed,
  }));
  const title = `${github ? 'GitHub API table (516 routes)' : 'Tasks API'} over HTTP${tooShort ? ' — short run, not a benchmark' : ''}`;
  const subtitle =
    `${environment.cpu}, ${environment.cores} cores, Node ${environment.serverNode.split(' ')[0]}; ` +
    `${settings.rounds} × ${settings.duration} s, ${settings.connections} connections, mix: ${settings.mix}`;
  return { markdown: lines.join('\n'), svg: renderChart(rows, title, subtitle) };
}

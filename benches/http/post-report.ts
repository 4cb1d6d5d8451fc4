/** Turns the runs of the write path (`--mix post`) into `benches/results/http.post.md` and `http.post.svg`. */
import { type ChartRow, renderChart } from './chart.js';
import type { Environment } from './environment.js';
import { fmtRatio, pairedRatio, type ReportInput, ratio, type ServerSummary } from './report.js';
import { max, median, min, thousands } from './stats.js';

export interface PostReportInput {
  /** One entry per body size, in the order they ran within each round. */
  workloads: { name: string; summaries: ServerSummary[] }[];
  environment: Environment;
  settings: ReportInput['settings'];
}

/** Issue 47's targets: on every body size, the default server 1.2 × Fastify, the own server 1.4 ×. */
const TARGETS = [
  { subject: 'arbor', against: 'fastify', ratio: 1.2, text: 'Arbor (node:http) ≥ 1.2 × Fastify' },
  { subject: 'arbor-own', against: 'fastify', ratio: 1.4, text: 'Arbor (own server) ≥ 1.4 × Fastify' },
];

const medianRps = (s: ServerSummary | undefined) => (s ? median(s.runs.map((r) => r.rps)) : Number.NaN);

export function renderPostReport({ workloads, environment, settings }: PostReportInput): {
  markdown: string;
  svg: string;
} {
  const tooShort = settings.smoke || settings.rounds < 3 || settings.duration < 8;
  const lines: string[] = ['# HTTP benchmark: a POST with a JSON body on Arbor and its peers', ''];
  if (tooShort) {
    lines.push(
      `> **Short run (${settings.rounds} round(s) × ${settings.duration} s): it checks the machinery, the figures`,
      '> are not a benchmark.** Run `--mix post` with at least 3 rounds × 8 s on a quiet machine for real figures.',
      '',
    );
  }
  lines.push(
    'Each server runs in its own child process beside the tasks API of `http.md` and answers',
    '`POST /orders/:shop?channel=…&priority=…&coupon=…` with a summary of the order it was sent: the route',
    "parameter, the three query values, and the body's id, field count, item count and total quantity",
    '(`benches/http/orders.ts`, shared by every server, so no server can skip the parse). Each framework parses',
    'the body its own way, under a 1 MiB body limit: Arbor with its eager JSON body, Fastify with its default',
    'parser (secure-json-parse), Hono with `c.req.json()` behind its `bodyLimit` middleware, and bare node:http',
    "(no framework: the ceiling of node:http) with 'data' events, `Buffer#toString` and `JSON.parse`. wrk drives them",
    'from a separate process over loopback. Every round times every body size on every server, the servers',
    'starting one later each round. Before timing, each server must answer every size with the right summary',
    'and malformed JSON with a 400.',
    '',
    `- Workload: ${settings.mixDescription}; every request expects a 2xx.`,
    `- ${settings.rounds} round(s) × ${settings.duration} s measured per body size, after ${settings.warmup} s of ` +
      `warm-up per run; ${settings.connections} connections, pipelining ${settings.pipelining}.`,
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
    '## Targets (median of per-round ratios)',
    '',
    `| Target | ${workloads.map((w) => w.name).join(' | ')} | verdict |`,
    `|---|${workloads.map(() => '--:').join('|')}|---|`,
  );
  for (const target of TARGETS) {
    const cells = workloads.map((w) => {
      const byName = new Map(w.summaries.map((s) => [s.name, s]));
      return pairedRatio(byName.get(target.subject), byName.get(target.against));
    });
    const run = cells.some(Number.isFinite);
    let verdict = !run ? 'not run' : cells.every((r) => r >= target.ratio) ? 'met' : 'NOT met';
    if (tooShort && run) verdict += ' (short run: indicative only)';
    lines.push(`| ${target.text} | ${cells.map(fmtRatio).join(' | ')} | ${verdict} |`);
  }
  const ceiling = workloads.map((w) => {
    const byName = new Map(w.summaries.map((s) => [s.name, s]));
    return pairedRatio(byName.get('bare'), byName.get('fastify'));
  });
  if (ceiling.some(Number.isFinite))
    lines.push(
      `| bare node:http ÷ Fastify (the ceiling on node:http) | ${ceiling.map(fmtRatio).join(' | ')} | — |`,
    );

  for (const workload of workloads) {
    const byName = new Map(workload.summaries.map((s) => [s.name, s]));
    const fastify = byName.get('fastify');
    const hono = byName.get('hono');
    lines.push(
      '',
      `## ${workload.name} body (median of rounds)`,
      '',
      '| Server | req/s | worst – best round | × Fastify | × Hono | × bare | p99 ms | p50 ms | errors / timeouts / non-2xx | checks |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    );
    const bare = byName.get('bare');
    for (const s of workload.summaries) {
      const rps = s.runs.map((r) => r.rps);
      const errors = s.runs.reduce((a, r) => a + r.errors, 0);
      const timeouts = s.runs.reduce((a, r) => a + r.timeouts, 0);
      const non2xx = s.runs.reduce((a, r) => a + r.non2xx, 0);
      const checks = s.crashed ? 'CRASHED' : s.failures.length === 0 ? 'pass' : `FAIL (${s.failures.length})`;
      // The ratios are medians of the per-round ratios: robust to drift of the machine between rounds.
      lines.push(
        `| ${s.name.startsWith('arbor') ? `**${s.label}**` : s.label} | ${thousands(median(rps))} | ` +
          `${thousands(min(rps))} – ${thousands(max(rps))} | ${fmtRatio(pairedRatio(s, fastify))} | ` +
          `${fmtRatio(pairedRatio(s, hono))} | ${fmtRatio(pairedRatio(s, bare))} | ` +
          `${median(s.runs.map((r) => r.latencyP99)).toFixed(1)} | ` +
          `${median(s.runs.map((r) => r.latencyP50)).toFixed(1)} | ${errors} / ${timeouts} / ${non2xx} | ${checks} |`,
      );
    }
    const ofMedians = ratio(medianRps(byName.get('arbor')), medianRps(fastify));
    lines.push('', `Arbor (node:http) ÷ Fastify as a ratio of the medians: ${fmtRatio(ofMedians)}.`);
  }

  const first = workloads[0]?.summaries ?? [];
  lines.push('', '## Every run', '', `| Round | Body | ${first.map((s) => s.label).join(' | ')} |`);
  lines.push(`|---|---|${first.map(() => '--:').join('|')}|`);
  const rounds = Math.max(0, ...workloads.flatMap((w) => w.summaries.map((s) => s.runs.length)));
  for (let i = 0; i < rounds; i++) {
    for (const workload of workloads) {
      const cells = workload.summaries.map((s) => {
        const run = s.runs[i];
        return run ? `${thousands(run.rps)} req/s, p99 ${run.latencyP99} ms` : '—';
      });
      lines.push(`| ${i + 1} | ${workload.name} | ${cells.join(' | ')} |`);
    }
  }

  const failing = first.filter((s) => s.failures.length > 0);
  if (failing.length > 0) {
    lines.push('', '## Conformance failures', '');
    for (const s of failing) for (const f of s.failures) lines.push(`- ${s.label}: ${f}`);
  }
  const statusNotes = workloads.flatMap((w) =>
    w.summaries.filter((s) => s.runs.some((r) => r.non2xx > 0)).map((s) => ({ w, s })),
  );
  if (statusNotes.length > 0) {
    lines.push('', '## Unexpected statuses during timed runs', '');
    for (const { w, s } of statusNotes)
      lines.push(`- ${s.label}, ${w.name}: ${s.runs.map((r) => r.non2xx).join(', ')} per round`);
  }
  lines.push(
    '',
    '## Notes',
    '',
    '- Frameworks run with their defaults but for the body limit (1 MiB everywhere, which is already the',
    "  default of Arbor and Fastify; Hono has none, so its `bodyLimit` middleware sets it). Fastify's handler",
    '  is `async` and returns the summary, as its tasks API does; the others return their answer.',
    '- What each framework does with `__proto__` and `constructor` keys differs (Fastify refuses them with a',
    '  400, Arbor keeps them as plain data, Hono does not look): these bodies have none, so every server does',
    '  the same work.',
    '- No framework on node:http can be cheaper than bare node:http: where bare ÷ Fastify is below a target,',
    '  no framework on node:http could meet it in that run.',
    '- "Arbor (node:http)" is the application on its default server, node:http, as every other framework;',
    "  \"Arbor (own server)\" is the same application on Arbor's own HTTP/1.1 server (`server: 'arbor'`).",
    '- On a machine with two cores the server and the load generator each get about one core; absolute',
    '  figures are lower than on a server-class machine, the ratios are what this report is for.',
    '- Chart: `http.post.svg` (bars: median; line: worst to best round).',
    '',
  );

  const rows: ChartRow[] = workloads.flatMap((w) =>
    w.summaries.map((s) => ({
      label: `${w.name} · ${s.label.replace(' (node-server)', '')}`,
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
    })),
  );
  const title = `POST with a JSON body over HTTP${tooShort ? ' — short run, not a benchmark' : ''}`;
  const subtitle =
    `${environment.cpu}, ${environment.cores} cores, Node ${environment.serverNode.split(' ')[0]}; ` +
    `${settings.rounds} × ${settings.duration} s per size, ${settings.connections} connections`;
  return { markdown: lines.join('\n'), svg: renderChart(rows, title, subtitle) };
}

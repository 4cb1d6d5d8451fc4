/** Turns the runs of the validated write path (`--mix validate`) into `benches/results/http.validate.md` and `.svg`. */
import { type ChartRow, renderChart } from './chart.js';
import type { Environment } from './environment.js';
import { fmtRatio, pairedRatio, type ReportInput, type ServerSummary } from './report.js';
import { max, median, min, thousands } from './stats.js';

export interface ValidateReportInput {
  /** One entry per body size, in the order they ran within each round. */
  workloads: { name: string; summaries: ServerSummary[] }[];
  environment: Environment;
  settings: ReportInput['settings'];
}

/** Each validating server and the same framework unvalidated: the pair gives what validation costs it. */
const PAIRS = [
  { validated: 'arbor-doc', plain: 'arbor', text: 'Arbor, doc-comment contract' },
  { validated: 'arbor-zod', plain: 'arbor', text: 'Arbor, zod schema' },
  { validated: 'fastify-ajv', plain: 'fastify', text: 'Fastify, JSON Schema on ajv' },
  { validated: 'hono-zod', plain: 'hono', text: 'Hono, @hono/zod-validator' },
];

/** Issue 49's targets: Arbor validated 1.2 × Fastify validated; validation at most 10 % of Arbor's throughput. */
const RATIO_TARGETS = [
  { subject: 'arbor-doc', text: 'Arbor + doc-comment contract ≥ 1.2 × Fastify + ajv' },
  { subject: 'arbor-zod', text: 'Arbor + zod schema ≥ 1.2 × Fastify + ajv' },
];
const COST_TARGET = 0.1;

/** What validation takes of a framework's throughput: 1 − validated ÷ unvalidated (median of per-round ratios). */
function cost(validated: ServerSummary | undefined, plain: ServerSummary | undefined): number {
  return 1 - pairedRatio(validated, plain);
}
const fmtCost = (c: number) => (Number.isFinite(c) ? `${(c * 100).toFixed(1)} %` : '—');

export function renderValidateReport({ workloads, environment, settings }: ValidateReportInput): {
  markdown: string;
  svg: string;
} {
  const tooShort = settings.smoke || settings.rounds < 3 || settings.duration < 8;
  const lines: string[] = ['# HTTP benchmark: a validated POST on Arbor, Fastify and Hono', ''];
  if (tooShort) {
    lines.push(
      `> **Short run (${settings.rounds} round(s) × ${settings.duration} s): it checks the machinery, the figures`,
      '> are not a benchmark.** Run `--mix validate` with at least 3 rounds × 8 s on a quiet machine for real figures.',
      '',
    );
  }
  lines.push(
    'Each server runs in its own child process and answers `POST /orders/:shop?channel=…&priority=…&coupon=…`',
    "with the summary of the order it was sent (`benches/http/orders.ts`, the write path's route), after",
    'checking the ten-field body and the three query values against one contract (`benches/http/orders-schema.ts`):',
    'bounded strings, an e-mail and a date-time format, patterns, number bounds, a nested object and an array of',
    'objects in the body; an enum, a bounded integer and an optional bounded string in the query. Arbor checks it',
    'from a doc comment (`validate: true`, `servers/orders-arbor-documented.ts`) or from zod schemas in the',
    "route's `schema` option, Fastify from the same JSON Schema on its default ajv, Hono through",
    '`@hono/zod-validator` with the same zod schemas. Each framework also runs unvalidated (its body parsed, nothing',
    'checked), so that each pair gives what validation costs that framework. wrk drives them from a separate',
    'process over loopback; every round times every body size on every server, the servers starting one later',
    'each round. Before timing, each server must answer a good order of every size with its summary and malformed',
    'JSON with a 400; a validating server must refuse five bad requests (a missing field, a negative total, an item',
    'of quantity 0, a priority of 9, an unknown channel) with a 400 or 422, and an unvalidated one must let them',
    'through.',
    '',
    `- Workload: ${settings.mixDescription}; every request expects a 2xx.`,
    `- ${settings.rounds} round(s) × ${settings.duration} s measured per body size, after ${settings.warmup} s of ` +
      `warm-up per run; ${settings.connections} connections, pipelining ${settings.pipelining}; every server on node:http.`,
    `- Machine: ${environment.cpu}, ${environment.cores} logical cores, ${environment.memory}, ${environment.os}; ` +
      `load average at start ${environment.loadAverage}.`,
    `- Servers on Node ${environment.serverNode}; load generator ${environment.loadGenerator}.`,
    `- Arbor: loaded from ${settings.arborSource === 'dist' ? '`dist/` (tsc output)' : '`ts/src` through tsx (dist/ was missing or stale)'}.`,
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
  const byNameOf = (w: (typeof workloads)[number]) => new Map(w.summaries.map((s) => [s.name, s]));
  const verdictOf = (cells: number[], ok: (value: number) => boolean) => {
    const run = cells.some(Number.isFinite);
    let verdict = !run ? 'not run' : cells.every(ok) ? 'met' : 'NOT met';
    if (tooShort && run) verdict += ' (short run: indicative only)';
    return verdict;
  };
  for (const target of RATIO_TARGETS) {
    const cells = workloads.map((w) =>
      pairedRatio(byNameOf(w).get(target.subject), byNameOf(w).get('fastify-ajv')),
    );
    lines.push(
      `| ${target.text} | ${cells.map(fmtRatio).join(' | ')} | ${verdictOf(cells, (r) => r >= 1.2)} |`,
    );
  }
  for (const pair of PAIRS.filter((p) => p.validated.startsWith('arbor'))) {
    const cells = workloads.map((w) => cost(byNameOf(w).get(pair.validated), byNameOf(w).get(pair.plain)));
    lines.push(
      `| Validation costs ${pair.text} ≤ 10 % | ${cells.map(fmtCost).join(' | ')} | ${verdictOf(cells, (c) => c <= COST_TARGET)} |`,
    );
  }
  const unvalidated = workloads.map((w) => pairedRatio(byNameOf(w).get('arbor'), byNameOf(w).get('fastify')));
  lines.push(
    `| Arbor ÷ Fastify, both unvalidated (for comparison) | ${unvalidated.map(fmtRatio).join(' | ')} | — |`,
  );

  lines.push(
    '',
    '## What validation costs each framework (1 − validated ÷ unvalidated, median of per-round ratios)',
    '',
    `| Framework, contract | ${workloads.map((w) => w.name).join(' | ')} |`,
    `|---|${workloads.map(() => '--:').join('|')}|`,
  );
  for (const pair of PAIRS) {
    const cells = workloads.map((w) => cost(byNameOf(w).get(pair.validated), byNameOf(w).get(pair.plain)));
    lines.push(`| ${pair.text} | ${cells.map(fmtCost).join(' | ')} |`);
  }

  for (const workload of workloads) {
    const byName = byNameOf(workload);
    const fastifyAjv = byName.get('fastify-ajv');
    lines.push(
      '',
      `## ${workload.name} body (median of rounds)`,
      '',
      '| Server | req/s | worst – best round | × Fastify + ajv | × itself unvalidated | p99 ms | p50 ms | errors / timeouts / non-2xx | checks |',
      '|---|--:|--:|--:|--:|--:|--:|--:|---|',
    );
    for (const s of workload.summaries) {
      const rps = s.runs.map((r) => r.rps);
      const errors = s.runs.reduce((a, r) => a + r.errors, 0);
      const timeouts = s.runs.reduce((a, r) => a + r.timeouts, 0);
      const non2xx = s.runs.reduce((a, r) => a + r.non2xx, 0);
      const checks = s.crashed ? 'CRASHED' : s.failures.length === 0 ? 'pass' : `FAIL (${s.failures.length})`;
      const pair = PAIRS.find((p) => p.validated === s.name);
      const self = pair ? fmtRatio(pairedRatio(s, byName.get(pair.plain))) : '—';
      lines.push(
        `| ${s.name.startsWith('arbor') ? `**${s.label}**` : s.label} | ${thousands(median(rps))} | ` +
          `${thousands(min(rps))} – ${thousands(max(rps))} | ${fmtRatio(pairedRatio(s, fastifyAjv))} | ${self} | ` +
          `${median(s.runs.map((r) => r.latencyP99)).toFixed(1)} | ` +
          `${median(s.runs.map((r) => r.latencyP50)).toFixed(1)} | ${errors} / ${timeouts} / ${non2xx} | ${checks} |`,
      );
    }
  }

  const first = workloads[0]?.summaries ?? [];
  lines.push('', '## Every run', '', `| Round | Body | ${first.map((s) => s.label).join(' | ')} |`);
  lines.push(`|---|---|${first.map(() => '--:').join('|')}|`);
  const rounds = Math.max(0, ...workloads.flatMap((w) => w.summaries.map((s) => s.runs.length)));
  for (let i = 0; i < rounds; i++) {
    for (const workload of workloads) {
      const cells = workload.summaries.map((s) => {
        const run = s.runs[i];
        return run ? `${thousands(run.rps)} req/s` : '—';
      });
      lines.push(`| ${i + 1} | ${workload.name} | ${cells.join(' | ')} |`);
    }
  }

  const failing = first.filter((s) => s.failures.length > 0);
  if (failing.length > 0) {
    lines.push('', '## Conformance failures', '');
    for (const s of failing) for (const f of s.failures) lines.push(`- ${s.label}: ${f}`);
  }
  lines.push(
    '',
    '## Where the frameworks differ',
    '',
    "- **Coercion.** Fastify's default ajv (`coerceTypes: 'array'`) coerces body values as well as query values:",
    '  a body `"qty": "3"` passes as 3. Arbor coerces parameters (path, query, header) only and checks a JSON',
    '  body as sent (`"3"` is refused where an integer is declared); zod coerces only where a schema asks',
    "  (`z.coerce.number()`, the query's priority here).",
    "- **Errors reported.** Fastify's ajv stops at the first error (`allErrors: false`) and answers 400 with",
    '  that one; Arbor lists every failing field with its JSON pointer and keyword (400, or the status the',
    "  app's `onInvalid` chooses), whichever way the contract is written; `@hono/zod-validator` answers 400",
    "  with zod's error, which lists every issue.",
    "- **Unknown keys.** zod objects drop keys the schema does not name (with a zod schema, Arbor's",
    "  `req.valid('body')` and Hono's `c.req.valid('json')` are zod's output, without them); ajv under Fastify",
    "  removes them only where a schema says `additionalProperties: false` (this one does not); Arbor's",
    '  doc-comment contract keeps them. These bodies carry no unknown key, so every server does the same work.',
    '- **Formats.** `email` and `date-time` are checked by ajv-formats under Arbor and Fastify, by zod',
    '  (`z.email()`, `z.iso.datetime({ offset: true })`) under Arbor-with-zod and Hono; their definitions of',
    '  a valid e-mail differ at the edges.',
    '- Every server runs on node:http; the own server is measured for the unvalidated path in `http.post.md`.',
    '- On a machine with two cores the server and the load generator each get about one core; absolute',
    '  figures are lower than on a server-class machine, the ratios are what this report is for.',
    '- Chart: `http.validate.svg` (bars: median; line: worst to best round).',
    '',
  );

  const rows: ChartRow[] = workloads.flatMap((w) =>
    w.summaries.map((s) => ({
      label: `${w.name} · ${s.label}`,
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
  const title = `Validated POST over HTTP${tooShort ? ' — short run, not a benchmark' : ''}`;
  const subtitle =
    `${environment.cpu}, ${environment.cores} cores, Node ${environment.serverNode.split(' ')[0]}; ` +
    `${settings.rounds} × ${settings.duration} s per size, ${settings.connections} connections`;
  return { markdown: lines.join('\n'), svg: renderChart(rows, title, subtitle) };
}

/**
 * Renders `benches/results/router.md` and `router.svg` from every `router-node*.json` present, so
 * the Node 24 and Node 20 runs (made separately, by different binaries) land in one report.
 *
 *   tsx benches/router/report.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Case, Mode, TableName } from './cases.js';
import type { Rule } from './expect.js';
import type { Machine } from './system.js';

export interface RunFile {
  label: string;
  machine: Machine;
  date: string;
  quick: boolean;
  rounds: number;
  /** Every router timed in one process per round, in alternating slices (absent in older files: separate). */
  paired?: boolean;
  arborEngine: string;
  arborError: string | null;
  versions: Record<string, string>;
  adapters: {
    name: string;
    pkg: string;
    arbor: boolean;
    rule: Rule;
    selection: string;
    params: string;
    notes: Record<TableName, string[]>;
  }[];
  cases: Case[];
  verification: Record<string, Partial<Record<TableName, { ok: boolean; reason: string | null }>>>;
  /** caseId → mode → adapter → ns (median over rounds of mitata's p50; avg likewise). */
  timings: Record<
    string,
    Partial<Record<Mode, Record<string, { p50: number; avg: number; rounds: number[] }>>>
  >;
  registration: Partial<Record<TableName, Record<string, number>>>;
  memory: Partial<Record<TableName, Record<string, { heapUsed: number; external: number; rss: number }>>>;
  errors: string[];
}

const MODE_TITLE: Record<Mode, string> = {
  select: 'Selection only (which route)',
  params: 'With parameters (route + every parameter read by name)',
};
const TABLE_TITLE: Record<TableName, string> = {
  small: '12 routes',
  github: 'GitHub API',
  generated: 'generated 10k',
};

type Status = 'ok' | 'wrong' | 'unregistered' | 'missing';

function status(run: RunFile, adapter: string, table: TableName): Status {
  const v = run.verification[adapter]?.[table];
  if (v === undefined) return 'missing';
  if (v.ok) return 'ok';
  return v.reason?.startsWith('cannot register') ? 'unregistered' : 'wrong';
}

const fmtNs = (ns: number): string => (ns >= 100 ? ns.toFixed(0) : ns >= 10 ? ns.toFixed(1) : ns.toFixed(2));
const fmtRatio = (r: number): string => `${r.toFixed(2)}×`;
const fmtBytes = (b: number): string =>
  Math.abs(b) >= 1 << 20 ? `${(b / (1 << 20)).toFixed(2)} MiB` : `${(b / 1024).toFixed(0)} KiB`;
const esc = (s: string): string => s.replaceAll('|', '\\|');

/** The fastest verified non-Arbor figure of a row: the figure Arbor is compared with. */
function fastestPeer(
  run: RunFile,
  values: Record<string, number>,
  table: TableName,
): [string, number] | null {
  let best: [string, number] | null = null;
  for (const a of run.adapters) {
    const v = values[a.name];
    if (a.arbor || v === undefined || status(run, a.name, table) !== 'ok') continue;
    if (best === null || v < best[1]) best = [a.name, v];
  }
  return best;
}

function cell(
  run: RunFile,
  adapter: string,
  table: TableName,
  value: number | undefined,
  fmt: (n: number) => string,
): string {
  const s = status(run, adapter, table);
  if (s === 'unregistered') return 'FAILED¹';
  if (value === undefined) return '—';
  return s === 'wrong' ? `✗ ${fmt(value)}²` : fmt(value);
}

/** One table: rows, a column per router, then per Arbor variant its ratio to the fastest other router. */
function figureTable(
  run: RunFile,
  rows: { title: string; table: TableName; values: Record<string, number> }[],
  fmt: (n: number) => string,
  lowerIsBetter = true,
): string[] {
  const arbors = run.adapters.filter((a) => a.arbor);
  const head = [
    'case',
    ...run.adapters.map((a) => a.name),
    'fastest other',
    ...arbors.map((a) => `${a.name} ratio`),
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) {
    const best = fastestPeer(run, row.values, row.table);
    const cells = run.adapters.map((a) => {
      const text = cell(run, a.name, row.table, row.values[a.name], fmt);
      return best?.[0] === a.name ? `**${text}**` : text;
    });
    const ratios = arbors.map((a) => {
      const v = row.values[a.name];
      if (best === null || v === undefined) return '—';
      const s = status(run, a.name, row.table);
      if (s === 'missing') return '—';
      if (s !== 'ok') return 'FAILED';
      return fmtRatio(lowerIsBetter ? best[1] / v : v / best[1]);
    });
    lines.push(`| ${[esc(row.title), ...cells, best ? best[0] : 'none verified', ...ratios].join(' | ')} |`);
  }
  return lines;
}

function timingRows(
  run: RunFile,
  mode: Mode,
): { id: string; title: string; table: TableName; values: Record<string, number> }[] {
  return run.cases
    .filter((c) => run.timings[c.id]?.[mode])
    .map((c) => {
      const values: Record<string, number> = {};
      for (const [name, t] of Object.entries(run.timings[c.id]?.[mode] ?? {})) values[name] = t.p50;
      return {
        id: c.id,
        title: `${c.title}${c.per === 'request' ? ' — ns per request' : ''}`,
        table: c.table,
        values,
      };
    });
}

function renderRun(run: RunFile): string[] {
  const m = run.machine;
  const out: string[] = [`## ${run.label} (${m.node})`, ''];
  if (run.quick)
    out.push(
      '> **Smoke run (`--quick`)**: short measurements on a possibly busy machine. The figures only show that the machinery works; do not draw conclusions from them.',
      '',
    );
  out.push(
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.platform}`,
    ...(run.paired === true
      ? [
          `- Date: ${run.date}; ${run.rounds} round(s), each one process timing every router in alternating slices (paired.ts)`,
          `- Figures: the median of ${run.quick ? 5 : 25} slices of ~${run.quick ? 5 : 15} ms per router and case, in ns, then the median over the rounds (the mean of the slices is in the JSON beside it).`,
        ]
      : [
          `- Date: ${run.date}; ${run.rounds} round(s), each router in its own process per round`,
          `- Figures: mitata's **p50** (median sample; samples batch calls when they are short) in ns, median over the rounds. mitata's avg is in the JSON beside it.`,
        ]),
    `- Arbor's engine: ${run.arborEngine}${run.arborError ? ` — **${run.arborError}**` : ''}`,
    `- Versions: ${Object.entries(run.versions)
      .map(([p, v]) => `${p} ${v}`)
      .join(', ')}`,
    '',
    'Ratio = fastest other (verified) router ÷ Arbor: **> 1 means Arbor is faster.** The fastest other router of each row is in bold.',
    '',
  );
  for (const mode of ['select', 'params'] as const) {
    out.push(`### ${MODE_TITLE[mode]}, ns`, '', ...figureTable(run, timingRows(run, mode), fmtNs), '');
  }
  const regRows = (Object.entries(run.registration) as [TableName, Record<string, number>][]).map(
    ([table, values]) => ({
      title: `${TABLE_TITLE[table]} (${table === 'github' ? 516 : '10,000'} routes), ms`,
      table,
      values,
    }),
  );
  if (regRows.length > 0) {
    out.push(
      '### Registration: every route added and a first request answered (lazy routers compile then), ms',
      '',
      ...figureTable(run, regRows, (n) => n.toFixed(1)),
      '',
    );
  }
  const memTables = Object.entries(run.memory) as [
    TableName,
    Record<string, { heapUsed: number; external: number; rss: number }>,
  ][];
  if (memTables.length > 0) {
    out.push(
      '### Memory after registration (fresh process, `--expose-gc`, delta after gc)',
      '',
      "JS heap used + external memory (ArrayBuffers; Arbor's WebAssembly memory shows here and/or in RSS, which is given too but is coarse). Ratio: fastest other ÷ Arbor on heap + external (> 1: Arbor smaller).",
      '',
    );
    const rows = memTables.map(([table, byAdapter]) => {
      const values: Record<string, number> = {};
      for (const [name, mem] of Object.entries(byAdapter))
        values[name] = mem.heapUsed + Math.max(0, mem.external);
      return { title: `${TABLE_TITLE[table]}: heap + external`, table, values };
    });
    out.push(...figureTable(run, rows, fmtBytes), '');
    out.push('| table | router | heap used | external | RSS |', '|---|---|---:|---:|---:|');
    for (const [table, byAdapter] of memTables) {
      for (const [name, mem] of Object.entries(byAdapter)) {
        out.push(
          `| ${TABLE_TITLE[table]} | ${name} | ${fmtBytes(mem.heapUsed)} | ${fmtBytes(mem.external)} | ${fmtBytes(mem.rss)} |`,
        );
      }
    }
    out.push('');
  }
  out.push(
    '### Verification (before any timing)',
    '',
    '| router | rule | 12 routes | GitHub API | generated 10k |',
    '|---|---|---|---|---|',
  );
  const reasons: string[] = [];
  for (const a of run.adapters) {
    const cells = (['small', 'github', 'generated'] as const).map((t) => {
      const s = status(run, a.name, t);
      if (s === 'ok') return '✓';
      if (s === 'missing') return '—';
      reasons.push(`- **${a.name}**, ${TABLE_TITLE[t]}: ${run.verification[a.name]?.[t]?.reason ?? ''}`);
      return s === 'unregistered' ? 'FAILED¹' : 'FAILED²';
    });
    out.push(`| ${a.name} | ${a.rule} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    '¹ cannot register the table (no figure). ² answers some requests wrongly under its own rule: timed and shown as `✗`, never the fastest other router, and its ratio is not computed.',
    '',
  );
  if (reasons.length > 0) out.push('Failures:', '', ...reasons.map(esc), '');
  if (run.errors.length > 0)
    out.push('Errors during the run:', '', ...run.errors.map((e) => `- ${esc(e)}`), '');
  return out;
}

function renderAdapters(run: RunFile): string[] {
  const out = [
    '## What each figure measures',
    '',
    '| router | rule | selection only | with parameters | notes |',
    '|---|---|---|---|---|',
  ];
  for (const a of run.adapters) {
    const notes = [...new Set(Object.values(a.notes).flat())].join('; ');
    out.push(`| ${a.name} | ${a.rule} | ${esc(a.selection)} | ${esc(a.params)} | ${esc(notes) || '—'} |`);
  }
  return [...out, ''];
}

/** Arbor's ratios, one per case, mode and run: the chart's and the summary's data. */
function ratios(
  run: RunFile,
  mode: Mode,
  arbor = 'arbor',
): { id: string; title: string; ratio: number | null }[] {
  return timingRows(run, mode).map((row) => {
    const best = fastestPeer(run, row.values, row.table);
    const v = row.values[arbor];
    const ok = status(run, arbor, row.table) === 'ok';
    return { id: row.id, title: row.title, ratio: best && v !== undefined && ok ? best[1] / v : null };
  });
}

function renderSvg(runs: RunFile[]): string {
  const series = runs.flatMap((run) =>
    (['select', 'params'] as const).map((mode) => ({ run, mode, data: ratios(run, mode) })),
  );
  const ids = [...new Set(series.flatMap((s) => s.data.map((d) => d.id)))];
  const colors = ['#2b6cb0', '#dd6b20', '#63b3ed', '#f6ad55'];
  const barH = 12;
  const groupH = series.length * barH + 14;
  const left = 190;
  const width = 820;
  const plotW = width - left - 70;
  const top = 58;
  const height = top + ids.length * groupH + 30;
  const max = Math.max(1.5, ...series.flatMap((s) => s.data.map((d) => d.ratio ?? 0)));
  const x = (r: number): number => left + (r / max) * plotW;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="18" font-size="14" font-weight="bold">Arbor vs the fastest other verified router (ratio &gt; 1: Arbor faster)</text>`,
  ];
  series.forEach((s, i) => {
    const lx = left + (i % 2) * 260;
    const ly = 32 + Math.floor(i / 2) * 14;
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${colors[i % colors.length]}"/>`,
      `<text x="${lx + 14}" y="${ly}">${s.run.label}, ${s.mode === 'select' ? 'selection only' : 'with parameters'}${s.run.quick ? ' (smoke run)' : ''}</text>`,
    );
  });
  ids.forEach((id, g) => {
    const y0 = top + g * groupH + 10;
    parts.push(
      `<text x="${left - 6}" y="${y0 + (series.length * barH) / 2 + 4}" text-anchor="end">${id}</text>`,
    );
    series.forEach((s, i) => {
      const d = s.data.find((e) => e.id === id);
      const y = y0 + i * barH;
      if (d?.ratio == null) {
        parts.push(`<text x="${left + 4}" y="${y + barH - 3}" fill="#999">n/a</text>`);
        return;
      }
      parts.push(
        `<rect x="${left}" y="${y}" width="${(x(d.ratio) - left).toFixed(1)}" height="${barH - 2}" fill="${colors[i % colors.length]}"/>`,
        `<text x="${(x(d.ratio) + 4).toFixed(1)}" y="${y + barH - 3}">${d.ratio.toFixed(2)}</text>`,
      );
    });
  });
  parts.push(
    `<line x1="${x(1)}" y1="${top}" x2="${x(1)}" y2="${height - 20}" stroke="#333" stroke-dasharray="4 3"/>`,
    `<text x="${x(1)}" y="${height - 6}" text-anchor="middle">1.0</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}

function renderSummary(runs: RunFile[]): string[] {
  const head = ['case', ...runs.flatMap((r) => [`${r.label} selection`, `${r.label} params`])];
  const out = [
    '## Summary: Arbor (default router) ÷ fastest other verified router',
    '',
    '![Arbor ratio per case](router.svg)',
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  const per = runs.map((r) => ({ select: ratios(r, 'select'), params: ratios(r, 'params') }));
  const ids = [...new Set(per.flatMap((p) => p.select.map((d) => d.id)))];
  for (const id of ids) {
    const cells = per.flatMap((p) =>
      (['select', 'params'] as const).map((mode) => {
        const r = p[mode].find((d) => d.id === id)?.ratio;
        return r == null ? '—' : fmtRatio(r);
      }),
    );
    out.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  return [...out, ''];
}

/** Renders the report from the JSON files in `dir`; returns the files written. */
export function renderReport(dir: string): string[] {
  const files = readdirSync(dir)
    .filter((f) => /^router-node\d+\.json$/.test(f))
    .sort((a, b) => Number(b.match(/\d+/)?.[0]) - Number(a.match(/\d+/)?.[0]));
  const runs = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunFile);
  if (runs.length === 0) return [];
  const md = [
    '# Router benchmark: Arbor and the fastest JavaScript routers',
    '',
    'Generated by `benches/router/report.ts` from ' +
      files.map((f) => `\`${f}\``).join(', ') +
      '. Reproduce: `npm run bench`, or',
    '`PATH=$PWD/node_modules/.bin:$PATH tsx benches/router/run.ts` (Node 24) and `/usr/bin/node --import tsx benches/router/run.ts` (Node 20).',
    '',
    "Every router is first proven correct on every table under the rule it documents (definition order, Arbor's static-first",
    'definition order, or specificity): for each request, the route and every parameter must equal the answer computed from the',
    'table by an independent matcher (`benches/router/expect.ts`), the parameters must rebuild the request path, and the',
    "selection-only and params functions that are timed must give the same answers. During timing, every op's result is summed",
    'into a sink that is checked afterwards. A router that cannot register a table or answers wrongly is flagged, never a winner.',
    '',
    ...renderSummary(runs),
    ...runs.flatMap(renderRun),
    ...renderAdapters(runs[0] as RunFile),
  ];
  const mdFile = join(dir, 'router.md');
  const svgFile = join(dir, 'router.svg');
  writeFileSync(mdFile, `${md.join('\n')}\n`);
  writeFileSync(svgFile, renderSvg(runs));
  return [mdFile, svgFile];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of renderReport(fileURLToPath(new URL('../results/', import.meta.url))))
    console.log(`wrote ${file}`);
}

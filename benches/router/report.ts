/**
 * Renders `benches/results/router.md` and `router.svg` from every `router-node*.json` present, so the
 * runs of each Node line (made separately, by different binaries) land in one report.
 *
 *   tsx benches/router/report.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Mode, TABLES, type TableName } from './cases.js';
import { renderSvg } from './chart.js';
import {
  arborRatios,
  fastestPeers,
  type RunFile,
  ratioOf,
  type Status,
  status,
  timingRows,
  unintended,
} from './results.js';

export type { RunFile } from './results.js';

const MODE_TITLE: Record<Mode, string> = {
  select: 'Selection only (which route)',
  params: 'With parameters (route + every parameter read by name)',
};
const TABLE_TITLE: Record<TableName, string> = {
  small: '12 routes',
  github: 'GitHub API',
  saas: 'SaaS API',
  generated: 'generated 10k',
};
/** The lines the targets are set on come first, then the older one beside them, then anything else. */
const LINE_ORDER = ['24', '26', '22'];
/** The Arbor variant the summary shows beside the default where the default's order misroutes requests. */
const SPECIFICITY = 'arbor (specificity)';

const fmtNs = (ns: number): string => (ns >= 100 ? ns.toFixed(0) : ns >= 10 ? ns.toFixed(1) : ns.toFixed(2));
const fmtRatio = (r: number): string => `${r.toFixed(2)}×`;
const fmtBytes = (b: number): string =>
  Math.abs(b) >= 1 << 20 ? `${(b / (1 << 20)).toFixed(2)} MiB` : `${(b / 1024).toFixed(0)} KiB`;
const esc = (s: string): string => s.replaceAll('|', '\\|');

/** The mark a router's figure carries in a table: see the footnotes under Verification. */
const MARK: Record<Status, string> = { exact: '', split: '³', wrong: '²', unregistered: '¹', missing: '' };

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
  if (s === 'wrong') return `✗ ${fmt(value)}²`;
  return `${fmt(value)}${MARK[s]}${unintended(run, adapter, table) > 0 ? '⁴' : ''}`;
}

interface Row {
  title: string;
  table: TableName;
  values: Record<string, number>;
}

/**
 * One table: rows, a column per router, the fastest other router selecting the intended route and, per
 * Arbor variant, its ratio to it. When that router splits parameters differently in some row, the
 * fastest exactly agreeing router and Arbor's ratios to it follow.
 */
function figureTable(run: RunFile, rows: Row[], fmt: (n: number) => string, lowerIsBetter = true): string[] {
  const arbors = run.adapters.filter((a) => a.arbor);
  const anySplit = rows.some((row) => fastestPeers(run, row.values, row.table).same?.split === true);
  const head = [
    'case',
    ...run.adapters.map((a) => a.name),
    'fastest other (same route)',
    ...arbors.map((a) => `${a.name} ratio`),
    ...(anySplit ? ['fastest exactly agreeing', ...arbors.map((a) => `${a.name} ratio (exact)`)] : []),
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  const orient = (r: number | null): string => (r === null ? '—' : fmtRatio(lowerIsBetter ? r : 1 / r));
  for (const row of rows) {
    const peers = fastestPeers(run, row.values, row.table);
    const cells = run.adapters.map((a) => {
      const text = cell(run, a.name, row.table, row.values[a.name], fmt);
      return peers.same?.name === a.name ? `**${text}**` : text;
    });
    const ratios = arbors.map((a) => ratioOf(run, row.values, row.table, a.name));
    const failed = (a: { name: string }, r: number | null): string => {
      const s = status(run, a.name, row.table);
      if (s === 'wrong' || s === 'unregistered' || s === 'split') return 'FAILED';
      return `${orient(r)}${r !== null && unintended(run, a.name, row.table) > 0 ? '⁴' : ''}`;
    };
    const same = peers.same ? `${peers.same.name}${peers.same.split ? '³' : ''}` : 'none';
    const exactCells = anySplit
      ? [
          peers.same?.split ? (peers.exact?.name ?? 'none') : 'same',
          ...arbors.map((a, k) => (peers.same?.split ? failed(a, ratios[k]?.exactRatio ?? null) : '')),
        ]
      : [];
    lines.push(
      `| ${[esc(row.title), ...cells, same, ...arbors.map((a, k) => failed(a, ratios[k]?.ratio ?? null)), ...exactCells].join(' | ')} |`,
    );
  }
  return lines;
}

function tableSize(run: RunFile, table: TableName): string {
  const routes = run.tables?.[table]?.routes;
  return routes === undefined
    ? TABLE_TITLE[table]
    : `${TABLE_TITLE[table]} (${routes.toLocaleString('en')} routes)`;
}

function header(run: RunFile): string[] {
  const m = run.machine;
  const out: string[] = [`## ${run.label} (${m.node})`, ''];
  if (run.quick)
    out.push(
      '> **Smoke run (`--quick`)**: short measurements on a possibly busy machine. The figures only show that the machinery works; do not draw conclusions from them.',
      '',
    );
  else if (run.rounds < 3)
    out.push(
      `> **${run.rounds} round only**: indicative figures; the published ones are the median of at least three rounds.`,
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
    ...(run.registrationDate
      ? [`- Registration measured again, every router, on ${run.registrationDate}`]
      : []),
    `- Arbor's engine: ${run.arborEngine}${run.arborError ? ` — **${run.arborError}**` : ''}`,
    `- Versions: ${Object.entries(run.versions)
      .map(([p, v]) => `${p} ${v}`)
      .join(', ')}`,
    '',
    'Ratio = fastest other router selecting the intended route ÷ Arbor: **> 1 means Arbor is faster.** That router is in bold in each row.',
    '',
  );
  return out;
}

/** How the registration figures were taken, for the report. */
function registrationMethod(processes: number): string {
  const inEach =
    'one build of the 12-route table loads its code, then the median of three builds of the table, garbage collected before each';
  return processes === 1
    ? `Each router in a fresh process (\`--expose-gc\`): ${inEach}.`
    : `Each router in ${processes} fresh processes (\`--expose-gc\`), taken in turn with the other routers': in each, ${inEach}; the figure is the median of the ${processes}.`;
}

function renderRun(run: RunFile): string[] {
  const out = header(run);
  for (const mode of ['select', 'params'] as const) {
    out.push(`### ${MODE_TITLE[mode]}, ns`, '', ...figureTable(run, timingRows(run, mode), fmtNs), '');
  }
  const regRows = (Object.entries(run.registration) as [TableName, Record<string, number>][]).map(
    ([table, values]) => ({ title: `${tableSize(run, table)}, ms`, table, values }),
  );
  if (regRows.length > 0) {
    out.push(
      '### Registration: every route added and a first request answered (lazy routers compile then), ms',
      '',
      registrationMethod(run.registrationProcesses ?? 1),
      '',
      ...figureTable(run, regRows, (n) => n.toFixed(1)),
      '',
    );
  }
  out.push(...renderMemory(run), ...renderVerification(run));
  if (run.errors.length > 0)
    out.push('Errors during the run:', '', ...run.errors.map((e) => `- ${esc(e)}`), '');
  return out;
}

function renderMemory(run: RunFile): string[] {
  const memTables = Object.entries(run.memory) as [
    TableName,
    Record<string, { heapUsed: number; external: number; rss: number }>,
  ][];
  if (memTables.length === 0) return [];
  const out = [
    '### Memory after registration (fresh process, `--expose-gc`, delta after gc)',
    '',
    "JS heap used + external memory (ArrayBuffers and Arbor's WebAssembly memory, taken as its growth on Node 26, which leaves it out of `external`; RSS is given too but is coarse). Ratio: fastest other ÷ Arbor on heap + external (> 1: Arbor smaller).",
    '',
  ];
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
  return [...out, ''];
}

function renderVerification(run: RunFile): string[] {
  const tables = TABLES.filter((t) => Object.values(run.verification).some((v) => v[t] !== undefined));
  const out = [
    '### Verification (before any timing)',
    '',
    `| router | rule | ${tables.map((t) => TABLE_TITLE[t]).join(' | ')} |`,
    `|---|---|${tables.map(() => '---').join('|')}|`,
  ];
  const reasons: string[] = [];
  for (const a of run.adapters) {
    const cells = tables.map((t) => {
      const s = status(run, a.name, t);
      const v = run.verification[a.name]?.[t];
      const other = v?.unintended ?? [];
      let mark = '';
      if (other.length > 0 && (s === 'exact' || s === 'split')) {
        mark = ` (${other.length} by its order⁴)`;
        const shown = other.slice(0, 5).map((r) => `\`${r}\``);
        reasons.push(
          `- **${a.name}**, ${TABLE_TITLE[t]}: its order answers ${other.length} requests with another route than the one each was made for, e.g. ${shown.join('; ')}${other.length > 5 ? '; …' : ''}`,
        );
      }
      if (s === 'exact') return `✓${mark}`;
      if (s === 'missing') return '—';
      if (s === 'split') {
        const requests = v?.split ?? [];
        reasons.push(
          `- **${a.name}**, ${TABLE_TITLE[t]}: the intended route for every request; other parameters on ${requests.length}: ${requests.map((r) => `\`${r}\``).join('; ')}`,
        );
        return `route ✓, params ≈³${mark}`;
      }
      reasons.push(`- **${a.name}**, ${TABLE_TITLE[t]}: ${v?.reason ?? ''}`);
      return s === 'unregistered' ? 'FAILED¹' : 'FAILED²';
    });
    out.push(`| ${a.name} | ${a.rule} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    '¹ cannot register the table: no figure.',
    '² answers some request with a wrong route, or none, under its own rule: timed and shown as `✗`, never the router Arbor is compared with.',
    '³ selects the intended route for every request but splits some parameter differently (the requests are listed below): it stays in the comparison, since a user choosing a router compares against it, and the ratio against the fastest router that also agrees on every parameter is given beside it.',
    '⁴ correct under its own rule, but that rule (definition order) answers some requests with another route than the one each was made for (a route defined earlier matches them too; Arbor warns `ARBOR_ROUTE_SHADOWED` for these at registration): not the same work as answering every request as intended. A peer marked so is not the router Arbor is compared with; an Arbor variant marked so keeps its ratio, marked, and the summary gives `arbor (specificity)` beside it.',
    '',
  );
  if (reasons.length > 0) out.push('Differences and failures:', '', ...reasons.map(esc), '');
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

function renderSummary(runs: RunFile[]): string[] {
  const head = ['case', ...runs.flatMap((r) => [`${r.label} selection`, `${r.label} params`])];
  const out = [
    '## Summary: Arbor (default router) ÷ the fastest other router selecting the intended route',
    '',
    '![Arbor ratio per case](router.svg)',
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  const per = runs.map((r) => ({
    select: arborRatios(r, 'select'),
    params: arborRatios(r, 'params'),
    specificity: {
      select: arborRatios(r, 'select', SPECIFICITY),
      params: arborRatios(r, 'params', SPECIFICITY),
    },
  }));
  const ids = [...new Set(per.flatMap((p) => p.select.map((d) => d.id)))];
  const splitPeers = new Set<string>();
  let anyUnintended = false;
  for (const id of ids) {
    const cells = per.flatMap((p) =>
      (['select', 'params'] as const).map((mode) => {
        const r = p[mode].find((d) => d.id === id);
        if (r?.ratio == null) return '—';
        // Marks first (⁴ on Arbor's figure, ³ on the peer's), then the figures they point to.
        let text = `${fmtRatio(r.ratio)}${r.unintended > 0 ? '⁴' : ''}${r.split ? '³' : ''}`;
        if (r.split) {
          splitPeers.add(r.peer ?? '');
          const exact = r.exactRatio == null ? '—' : fmtRatio(r.exactRatio);
          text += ` (${exact} vs ${r.exactPeer ?? 'none'})`;
        }
        if (r.unintended > 0) {
          anyUnintended = true;
          const alt = p.specificity[mode].find((d) => d.id === id);
          text += ` [specificity: ${alt?.ratio == null || alt.unintended > 0 ? '—' : fmtRatio(alt.ratio)}]`;
        }
        return text;
      }),
    );
    out.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  out.push('');
  if (splitPeers.size > 0)
    out.push(
      `³ The fastest other router there (${[...splitPeers].join(', ')}) selects the intended route for every request but splits some parameter differently (see Verification); in brackets, the ratio against the fastest router that agrees on every parameter too.`,
      '',
    );
  if (anyUnintended)
    out.push(
      `⁴ Arbor's default order (definition order, static routes first) answers some requests of this table with another route than the one each was made for (listed under Verification); in square brackets, the ratio of \`${SPECIFICITY}\`, which answers every request as intended.`,
      '',
    );
  return out;
}

function lineRank(file: string): number {
  const major = file.match(/\d+/)?.[0] ?? '';
  const known = LINE_ORDER.indexOf(major);
  return known >= 0 ? known : LINE_ORDER.length + 1000 - Number(major);
}

/** Renders the report from the JSON files in `dir`; returns the files written. */
export function renderReport(dir: string): string[] {
  const files = readdirSync(dir)
    .filter((f) => /^router-node\d+\.json$/.test(f))
    .sort((a, b) => lineRank(a) - lineRank(b));
  const runs = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunFile);
  if (runs.length === 0) return [];
  const md = [
    '# Router benchmark: Arbor and the fastest JavaScript routers',
    '',
    `Generated by \`benches/router/report.ts\` from ${files.map((f) => `\`${f}\``).join(', ')}. Reproduce: \`npm run bench\``,
    '(Node 24 and 26, then Node 22; `npm run bench -- --only 26` for one line), or one line by hand:',
    '`<node> --expose-gc --import tsx benches/router/run.ts`, with `<node>` from `scripts/node-binaries.mjs`',
    '(Node 24: `node_modules/.bin/node`; 22 and 26: `~/.cache/arbor/node<major>/node_modules/.bin/node`).',
    '',
    "Every router is first proven correct on every table under the rule it documents (definition order, Arbor's static-first",
    'definition order, or specificity): for each request, the route and every parameter must equal the answer computed from the',
    'table by an independent matcher (`benches/router/expect.ts`), the parameters must rebuild the request path, and the',
    "selection-only and params functions that are timed must give the same answers. During timing, every op's result is summed",
    'into a sink that is checked afterwards. Arbor is compared with the fastest other router that selects the intended route for',
    'every request; one that splits a parameter differently on a few requests stays in that comparison, marked ³, with the ratio',
    'against the fastest exactly agreeing router beside it. A router that selects a wrong route or cannot register a table is',
    'flagged, never the router Arbor is compared with.',
    '',
    'Every router is timed on its own copies of the request paths, made from bytes the way Node’s HTTP parser makes `req.url`',
    '(`requestPath` in `benches/router/routes.ts`): fresh strings that V8 has not internalized. A path string taken from the',
    "source or used as an object key is internalized, and V8 then answers `path.split('/')` from its split cache (~35 ns",
    'against ~150 ns for a fresh string): that made routers that split the path (rou3’s compiled mode among them) look 2–3×',
    'faster on the 12-route set than they are on a real request. docs/PERFORMANCE.md explains the design around it.',
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

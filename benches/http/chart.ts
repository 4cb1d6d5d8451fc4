/**
 * The HTTP benchmark's chart, written by hand as SVG (no chart dependency): two panels of horizontal
 * bars, requests/second (higher is better) and p99 latency (lower is better), one bar per server at the
 * median of the rounds, with a thin line from the worst to the best round.
 */
import { xml } from './stats.js';

export interface ChartRow {
  label: string;
  /** Median, worst and best round. */
  rps: { median: number; min: number; max: number };
  p99: { median: number; min: number; max: number };
  highlight: boolean;
  flagged: boolean;
}

const WIDTH = 760;
const ROW = 30;
const LABEL = 150;
const PANEL_GAP = 46;
const BAR_AREA = WIDTH - LABEL - 90;

function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  // Steps whose quarters are round numbers (the axis has four intervals).
  for (const step of [1, 2, 4, 6, 8, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function panel(
  rows: readonly ChartRow[],
  pick: (row: ChartRow) => { median: number; min: number; max: number },
  title: string,
  unit: (v: number) => string,
  top: number,
): string {
  const scaleMax = niceMax(Math.max(...rows.map((r) => pick(r).max)));
  const x = (v: number) => LABEL + (v / scaleMax) * BAR_AREA;
  const parts: string[] = [`<text x="${LABEL}" y="${top - 10}" class="title">${xml(title)}</text>`];
  for (let tick = 0; tick <= 4; tick++) {
    const value = (scaleMax * tick) / 4;
    const tx = x(value).toFixed(1);
    const bottom = top + rows.length * ROW;
    parts.push(`<line x1="${tx}" y1="${top}" x2="${tx}" y2="${bottom}" class="grid"/>`);
    parts.push(
      `<text x="${tx}" y="${bottom + 14}" class="tick" text-anchor="middle">${xml(unit(value))}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const stats = pick(row);
    const y = top + i * ROW;
    const cls = row.flagged ? 'bar flagged' : row.highlight ? 'bar arbor' : 'bar';
    const label = row.flagged ? `${row.label} (!)` : row.label;
    parts.push(
      `<text x="${LABEL - 8}" y="${y + ROW / 2 + 4}" class="label" text-anchor="end">${xml(label)}</text>`,
    );
    parts.push(
      `<rect x="${LABEL}" y="${y + 5}" width="${(x(stats.median) - LABEL).toFixed(1)}" height="${ROW - 10}" class="${cls}"/>`,
    );
    const mid = y + ROW / 2;
    parts.push(
      `<line x1="${x(stats.min).toFixed(1)}" y1="${mid}" x2="${x(stats.max).toFixed(1)}" y2="${mid}" class="range"/>`,
    );
    parts.push(
      `<text x="${(x(stats.median) + 6).toFixed(1)}" y="${mid + 4}" class="value">${xml(unit(stats.median))}</text>`,
    );
  });
  return parts.join('\n  ');
}

/** The whole SVG document. `subtitle` carries the machine and run parameters. */
export function renderChart(rows: readonly ChartRow[], title: string, subtitle: string): string {
  const panelHeight = rows.length * ROW + 20;
  const firstTop = 70;
  const secondTop = firstTop + panelHeight + PANEL_GAP;
  const height = secondTop + panelHeight + 20;
  const rps = panel(
    rows,
    (r) => r.rps,
    'Requests per second (median of rounds; line: worst–best round) — higher is better',
    (v) => (v >= 1000 ? `${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)}k` : v.toFixed(0)),
    firstTop,
  );
  const p99 = panel(
    rows,
    (r) => r.p99,
    'p99 latency, ms (median of rounds) — lower is better',
    (v) => `${v.toFixed(v < 10 ? 1 : 0)}`,
    secondTop,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif">
  <style>
    .title { font-size: 13px; font-weight: 600; fill: #222; }
    .head { font-size: 16px; font-weight: 700; fill: #111; }
    .sub { font-size: 11px; fill: #555; }
    .label { font-size: 12px; fill: #222; }
    .value { font-size: 11px; fill: #222; }
    .tick { font-size: 10px; fill: #777; }
    .grid { stroke: #e3e3e3; stroke-width: 1; }
    .bar { fill: #9aa9bd; }
    .bar.arbor { fill: #2f7d4f; }
    .bar.flagged { fill: #d08a8a; }
    .range { stroke: #222; stroke-width: 1.5; }
  </style>
  <rect width="100%" height="100%" fill="#fff"/>
  <text x="12" y="24" class="head">${xml(title)}</text>
  <text x="12" y="42" class="sub">${xml(subtitle)}</text>
  ${rps}
  ${p99}
</svg>
`;
}

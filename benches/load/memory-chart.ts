/** The soak run's memory curve as a hand-written SVG: RSS, V8 heap used and external memory over time, in MiB. */
import { xml } from '../http/stats.js';

export interface MemorySample {
  /** Seconds since the start of the run. */
  t: number;
  rss: number;
  heapUsed: number;
  /** Memory outside the V8 heap; the WebAssembly engine's linear memory is counted here. */
  external: number;
  /** Requests answered in the second before the sample. */
  rps: number;
}

const WIDTH = 760;
const HEIGHT = 340;
const LEFT = 60;
const RIGHT = 20;
const TOP = 56;
const BOTTOM = 44;
const MIB = 1024 * 1024;

function niceMax(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export function renderMemoryChart(
  samples: readonly MemorySample[],
  title: string,
  subtitle: string,
  markAt?: number,
): string {
  const tMax = Math.max(1, ...samples.map((s) => s.t));
  const yMax = niceMax((Math.max(1, ...samples.map((s) => s.rss)) / MIB) * 1.1);
  const w = WIDTH - LEFT - RIGHT;
  const h = HEIGHT - TOP - BOTTOM;
  const x = (t: number) => LEFT + (t / tMax) * w;
  const y = (bytes: number) => TOP + h - (bytes / MIB / yMax) * h;
  const line = (pick: (s: MemorySample) => number) =>
    samples.map((s, i) => `${i === 0 ? 'M' : 'L'}${x(s.t).toFixed(1)},${y(pick(s)).toFixed(1)}`).join(' ');
  const grid: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const value = (yMax * i) / 4;
    const gy = (TOP + h - (value / yMax) * h).toFixed(1);
    grid.push(`<line x1="${LEFT}" y1="${gy}" x2="${WIDTH - RIGHT}" y2="${gy}" class="grid"/>`);
    grid.push(
      `<text x="${LEFT - 6}" y="${Number(gy) + 4}" class="tick" text-anchor="end">${value.toFixed(0)}</text>`,
    );
  }
  const step = niceMax(tMax / 6);
  for (let t = 0; t <= tMax; t += step) {
    grid.push(
      `<text x="${x(t).toFixed(1)}" y="${TOP + h + 16}" class="tick" text-anchor="middle">${t}s</text>`,
    );
  }
  const mark =
    markAt === undefined
      ? ''
      : `<line x1="${x(markAt).toFixed(1)}" y1="${TOP}" x2="${x(markAt).toFixed(1)}" y2="${TOP + h}" class="mark"/>
  <text x="${(x(markAt) + 4).toFixed(1)}" y="${TOP + 12}" class="tick">warm-up ends</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif">
  <style>
    .head { font-size: 15px; font-weight: 700; fill: #111; }
    .sub { font-size: 11px; fill: #555; }
    .tick { font-size: 10px; fill: #666; }
    .grid { stroke: #e6e6e6; }
    .mark { stroke: #999; stroke-dasharray: 4 3; }
    .rss { fill: none; stroke: #2f7d4f; stroke-width: 2; }
    .heap { fill: none; stroke: #4a6fa5; stroke-width: 1.5; }
    .ext { fill: none; stroke: #c07a2c; stroke-width: 1.5; }
  </style>
  <rect width="100%" height="100%" fill="#fff"/>
  <text x="12" y="22" class="head">${xml(title)}</text>
  <text x="12" y="40" class="sub">${xml(subtitle)}</text>
  ${grid.join('\n  ')}
  <text x="14" y="${TOP + h / 2}" class="tick" transform="rotate(-90 14 ${TOP + h / 2})" text-anchor="middle">MiB</text>
  ${mark}
  <path d="${line((s) => s.rss)}" class="rss"/>
  <path d="${line((s) => s.heapUsed)}" class="heap"/>
  <path d="${line((s) => s.external)}" class="ext"/>
  <line x1="${WIDTH - 330}" y1="${TOP - 8}" x2="${WIDTH - 310}" y2="${TOP - 8}" class="rss"/>
  <text x="${WIDTH - 305}" y="${TOP - 4}" class="tick">RSS</text>
  <line x1="${WIDTH - 270}" y1="${TOP - 8}" x2="${WIDTH - 250}" y2="${TOP - 8}" class="heap"/>
  <text x="${WIDTH - 245}" y="${TOP - 4}" class="tick">V8 heap used</text>
  <line x1="${WIDTH - 170}" y1="${TOP - 8}" x2="${WIDTH - 150}" y2="${TOP - 8}" class="ext"/>
  <text x="${WIDTH - 145}" y="${TOP - 4}" class="tick">external (incl. wasm)</text>
</svg>
`;
}

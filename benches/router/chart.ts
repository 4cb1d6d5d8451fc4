/** `router.svg`: Arbor's headline ratio per case, one bar per Node line and mode (see results.ts for the rule). */
import { arborRatios, type RunFile } from './results.js';

/** A colour pair per run (selection only, with parameters): up to five Node lines before they repeat. */
const COLORS = ['#2b6cb0', '#63b3ed', '#dd6b20', '#f6ad55', '#2f855a', '#68d391', '#6b46c1', '#b794f4'];

export function renderSvg(runs: RunFile[]): string {
  const series = runs.flatMap((run) =>
    (['select', 'params'] as const).map((mode) => ({ run, mode, data: arborRatios(run, mode) })),
  );
  const ids = [...new Set(series.flatMap((s) => s.data.map((d) => d.id)))];
  const barH = 12;
  const groupH = series.length * barH + 14;
  const left = 190;
  const width = 820;
  const plotW = width - left - 70;
  const legendRows = Math.ceil(series.length / 2);
  const top = 36 + legendRows * 14;
  const height = top + ids.length * groupH + 44;
  const max = Math.max(1.5, ...series.flatMap((s) => s.data.map((d) => d.ratio ?? 0)));
  const x = (r: number): number => left + (r / max) * plotW;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Arbor vs the fastest other router selecting the intended route (&gt; 1: Arbor faster)</text>`,
  ];
  series.forEach((s, i) => {
    const lx = left + (i % 2) * 260;
    const ly = 32 + Math.floor(i / 2) * 14;
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/>`,
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
      // A peer that splits some parameter differently is marked, as in the report's tables.
      const label = `${d.ratio.toFixed(2)}${d.split ? '³' : ''}`;
      parts.push(
        `<rect x="${left}" y="${y}" width="${(x(d.ratio) - left).toFixed(1)}" height="${barH - 2}" fill="${COLORS[i % COLORS.length]}"/>`,
        `<text x="${(x(d.ratio) + 4).toFixed(1)}" y="${y + barH - 3}">${label}</text>`,
      );
    });
  });
  parts.push(
    `<line x1="${x(1)}" y1="${top}" x2="${x(1)}" y2="${height - 34}" stroke="#333" stroke-dasharray="4 3"/>`,
    `<text x="${x(1)}" y="${height - 20}" text-anchor="middle">1.0</text>`,
  );
  if (series.some((s) => s.data.some((d) => d.split)))
    parts.push(
      `<text x="10" y="${height - 6}" fill="#555">³ that router splits a parameter differently on some request (router.md)</text>`,
    );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/**
 * Terminal output: colours only when the stream is a terminal and neither `NO_COLOR` nor `--no-color`
 * asks otherwise (`node:util` `styleText` checks the stream and the environment; `FORCE_COLOR` forces them),
 * and a plain column layout for tables.
 */
import { util } from '../builtins.js';

type Style = Parameters<typeof util.styleText>[0];

let colours = true;

/** `--no-color`: plain text whatever the environment says (`FORCE_COLOR` included). */
export function disableColours(): void {
  colours = false;
}

export function paint(style: Style, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return colours ? util.styleText(style, text, { stream }) : text;
}

/** Pads each column to its widest cell; the last column is never padded. `width` ignores colour codes. */
export function columns(rows: readonly (readonly string[])[], gap = '  '): string {
  const visible = (cell: string) => util.stripVTControlCharacters(cell).length;
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visible(cell));
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visible(cell))))
        .join(gap)
        .trimEnd(),
    )
    .join('\n');
}

/** Writes and waits until the data is handed to the OS, so a following `process.exit` cannot truncate it. */
export function write(text: string, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

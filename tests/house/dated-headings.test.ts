/**
 * The docs are a reference, and history lives in git: no heading of README.md or docs/ (subfolders included) carries a
 * date (`2026-11-27`, `Nov 2026`, `27 November 2026`, a year) or diary phrasing ("Update", "Today",
 * "Day 3", "so far", "as of"). A reader of a dated, append-only journal cannot tell which section is
 * current; the figures of a run belong in its generated report (benches/results/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\\.?';
const DATED = [
  /\b\d{4}-\d{2}(?:-\d{2})?\b/, // 2026-11-27, 2026-11
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/, // 27/11/2026
  new RegExp(`\\b${MONTH}\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?\\d{4}\\b`, 'i'), // Nov 2026, Nov 27, 2026
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\s+\\d{4}\\b`, 'i'), // 27 Nov 2026
  /\b(?:19|20)\d{2}\b/, // a year alone
];
const DIARY = [
  /\b(?:today|tonight|yesterday|this (?:morning|afternoon|evening|week|month|sprint|session|run))\b/i,
  /\b(?:day|week|sprint|session|round|iteration) \d+\b/i,
  /\b(?:updates?|updated|changelog|what changed|what'?s new|news|journal|diary|progress|so far|as of|lately)\b/i,
  /\b(?:latest|recent) (?:changes?|results?|figures?|run|work)\b/i,
  /\b(?:lessons )?learned\b/i,
  /\(new\)|\bnew:/i,
];

/** Why a heading reads as a date or a diary entry, or `null` when it reads as a reference. */
function datedOrDiary(heading: string): string | null {
  for (const pattern of DATED) if (pattern.test(heading)) return `a date (${pattern.exec(heading)?.[0]})`;
  for (const pattern of DIARY)
    if (pattern.test(heading)) return `diary phrasing (${pattern.exec(heading)?.[0]})`;
  return null;
}

/** The headings of a Markdown text (ATX `#` lines and setext underlines), fenced code left out. */
function headings(markdown: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  lines.forEach((line, k) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0] as string;
      else if (marker[0] === fence) fence = null;
      return;
    }
    if (fence !== null) return;
    const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx !== null) found.push({ line: k + 1, text: atx[1] as string });
    const previous = lines[k - 1];
    if (/^\s{0,3}(=+|-+)\s*$/.test(line) && previous !== undefined && /^\s{0,3}[^\s|#>*+-]/.test(previous)) {
      found.push({ line: k, text: previous.trim() });
    }
  });
  return found;
}

const documents = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('headings of the docs', () => {
  it('reads headings, not code', () => {
    const text =
      '# Title\n\nText\n```sh\n# 2026-11-27: a comment in code\n```\nSetext\n---\n\n| a |\n|---|\n## Two ##';
    expect(headings(text)).toEqual([
      { line: 1, text: 'Title' },
      { line: 7, text: 'Setext' },
      { line: 12, text: 'Two' },
    ]);
  });

  it.each([
    'Results (2026-11-27)',
    'Nov 2026 run',
    'Figures of 27 November 2026',
    'November 27, 2026',
    'Benchmarks 2026',
    'Update: faster lookups',
    "Today's figures",
    'Day 3',
    'Round 2 of the HTTP benchmark',
    'What we have so far',
    'Learned from our own house',
    'Latest results',
    'Figures as of the last run',
  ])('knows a dated or diary heading: %s', (heading) => {
    expect(datedOrDiary(heading)).not.toBeNull();
  });

  it.each([
    'Status codes',
    'The request log',
    'Decisions where the specifications are silent',
    'HTTP/1.1 and RFC 9112',
    'Node 22, 24 and 26',
    'Performance: the benchmarks, where the time goes, and the levers measured',
  ])('lets a reference heading be: %s', (heading) => {
    expect(datedOrDiary(heading)).toBeNull();
  });

  it('README.md and every page under docs/ have no dated or diary heading', () => {
    expect(documents).toContain('docs/framework/routes.md');
    const found = documents.flatMap((file) =>
      headings(readFileSync(join(ROOT, file), 'utf8')).flatMap(({ line, text }) => {
        const why = datedOrDiary(text);
        return why === null ? [] : [`${file}:${line} "${text}": ${why}`];
      }),
    );
    expect(found).toEqual([]);
  });
});

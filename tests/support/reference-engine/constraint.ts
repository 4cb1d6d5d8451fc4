/**
 * Parameter constraints (ROUTING.md §2): the shortcuts, user regexes in the Rust dialect, and regex blocks.
 */
import { type CaptureGroup, DialectError, translateRegex } from './regex-dialect.js';

/** The shortcuts of ROUTING.md §2 and the regex each stands for (the metadata reports the expansion). */
export const SHORTCUTS: Readonly<Record<string, string>> = {
  int: '\\d+',
  slug: '[a-z0-9-]+',
  alpha: '[a-zA-Z]+',
  alnum: '[a-zA-Z0-9]+',
  uuid: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
  date: '\\d{4}-\\d{2}-\\d{2}',
  year: '\\d{4}',
  month: '\\d{2}',
  day: '\\d{2}',
};

export interface Constraint {
  shortcut: string | null;
  /** Rust-dialect source, normalised: shortcut expanded, outer `^`/`$` dropped (it is anchored anyway). */
  source: string;
  /** Tests a whole parameter value. */
  test: (value: string) => boolean;
}

export interface RegexBlock {
  /** The text between the braces, as written (`^(\d{4})/(\d{2})$`). */
  source: string;
  /** Anchored at both ends, with `d` so that capture groups report their offsets. */
  regex: RegExp;
  groups: CaptureGroup[];
}

/** A constraint or block that does not compile; `offset` is relative to its source. */
export class ConstraintError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

function compile(rust: string, flags: string): { regex: RegExp; groups: CaptureGroup[] } {
  try {
    const { source, groups } = translateRegex(rust);
    return { regex: new RegExp(`^(?:${source})$`, flags), groups };
  } catch (error) {
    if (error instanceof DialectError) throw new ConstraintError(error.message, error.offset);
    // A JavaScript SyntaxError does not say where: point at the start of the constraint.
    throw new ConstraintError(error instanceof Error ? error.message : String(error), 0);
  }
}

/** Compiles `written` (the text inside `<…>`). Throws {@link ConstraintError}. */
export function compileConstraint(written: string): Constraint {
  const expansion = Object.hasOwn(SHORTCUTS, written) ? SHORTCUTS[written] : undefined;
  if (expansion === undefined && /^[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*$/.test(written)) {
    // As the core: a bare word is a misspelt shortcut, not the regex of that word.
    const names = Object.keys(SHORTCUTS);
    const near = names
      .map((name) => ({ name, d: nearness(written, name) }))
      .filter(({ name, d }) => d <= Math.floor(Math.max(name.length, written.length) / 2))
      .sort((a, b) => a.d - b.d)[0];
    const hint = near === undefined ? '' : `did you mean ${near.name}? `;
    throw new ConstraintError(
      `unknown constraint shortcut '${written}': ${hint}the shortcuts are ${names.join(', ')}; write a regex such as (?:${written}) to match the word itself`,
      0,
    );
  }
  const shortcut = expansion === undefined ? null : written;
  const source = expansion ?? stripAnchors(written);
  const { regex } = compile(source, 'u');
  return { shortcut, source, test: (value) => regex.test(value) };
}

/** Edit distance, a prefix counting as 0 (`integer` → `int`), as the core decides. */
function nearness(a: string, b: string): number {
  if (a.startsWith(b) || b.startsWith(a)) return 0;
  const x = a.toLowerCase();
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = x[i - 1] === b[j - 1] ? 0 : 1;
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** Compiles the text between the braces of `{^…$}`. Throws {@link ConstraintError}. */
export function compileRegexBlock(written: string): RegexBlock {
  const { regex, groups } = compile(written, 'du');
  return { source: written, regex, groups };
}

/** `^v\d+$` and `v\d+` are the same constraint: the value is matched whole either way. */
function stripAnchors(written: string): string {
  let source = written.startsWith('^') ? written.slice(1) : written;
  if (source.endsWith('$')) {
    const body = source.slice(0, -1);
    const backslashes = /\\*$/.exec(body)?.[0].length ?? 0;
    if (backslashes % 2 === 0) source = body;
  }
  return source;
}

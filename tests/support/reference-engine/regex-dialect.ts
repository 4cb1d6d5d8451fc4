/**
 * Translation of the Rust `regex` crate dialect (what ROUTING.md §2 promises to users) into a JavaScript
 * `RegExp` source for the `u` flag.
 *
 * Paths are ASCII when they are matched (non-ASCII is percent-encoded first), so Unicode-aware classes
 * (`\d`, `\w`, `\s`, `\b`) mean the same in both dialects here. What Rust accepts and we translate:
 * `(?P<name>…)` and `(?<name>…)`, `(?flags:…)` with `i m s u`, a leading `(?flags)`, `\A` `\z`, `\<` `\>`,
 * `\pL`, `\x{…}` `\u{…}` `\U{…}`, `\a`, escaped punctuation, POSIX classes `[[:alpha:]]`.
 * What Rust rejects we reject too: look-around and back-references.
 *
 * Known gaps (documented, reported as INVALID_CONSTRAINT by this engine only): class set operations
 * (`[a-z&&[^aeiou]]`, `--`, `~~`) and nested classes, negated POSIX classes, `(?flags)` after the start,
 * the `x` (verbose), `U` (swap greed) and `R` (CRLF) flags, `\b{start}`-style boundaries, Rust-only
 * Unicode property names. Not modelled: Rust's compiled-size limit (`\w{1000}{1000}` compiles here), and
 * `.` also refusing `\r` in JavaScript (paths never carry a raw CR).
 */

/** A translation failure; `offset` is the UTF-16 index in the Rust source. */
export class DialectError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

export interface CaptureGroup {
  /** `null` for an unnamed group. */
  name: string | null;
  /** The group's text in the Rust source (metadata only). */
  source: string;
}

export interface TranslatedRegex {
  source: string;
  /** Every capture group, in textual order of its `(`. */
  groups: CaptureGroup[];
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\x09\\x20',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '\\x21-\\x7E',
  lower: 'a-z',
  print: '\\x20-\\x7E',
  punct: '\\x21-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7E',
  space: '\\x09-\\x0D\\x20',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const hex = (char: string): string =>
  `\\x${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;

/** Translates a Rust-dialect source. Throws {@link DialectError}. */
export function translateRegex(rust: string): TranslatedRegex {
  return new Translator(rust).run();
}

class Translator {
  readonly #src: string;
  #i = 0;
  #out = '';
  readonly #groups: CaptureGroup[] = [];
  /** One entry per open group: index into #groups, or -1 when it does not capture; and where it starts. */
  readonly #open: { group: number; start: number }[] = [];

  constructor(src: string) {
    this.#src = src;
  }

  run(): TranslatedRegex {
    const src = this.#src;
    let close = '';
    // A leading `(?i)` applies to the whole regex: the one place it maps to a JS modifier group.
    const leading = /^\(\?([a-zA-Z-]+)\)/.exec(src);
    if (leading?.[1] !== undefined) {
      this.#out = this.#modifierGroup(leading[1], 0);
      close = ')';
      this.#i = leading[0].length;
    }
    while (this.#i < src.length) this.#step();
    const unclosed = this.#open.at(-1);
    if (unclosed !== undefined) throw new DialectError('unclosed group', unclosed.start);
    return { source: this.#out + close, groups: this.#groups };
  }

  #step(): void {
    const src = this.#src;
    const at = this.#i;
    const char = src[at] ?? '';
    if (char === '\\') {
      this.#out += this.#escape(false);
    } else if (char === '[') {
      this.#out += this.#class();
    } else if (char === '(') {
      this.#out += this.#openGroup();
    } else if (char === ')') {
      const open = this.#open.pop();
      if (open === undefined) throw new DialectError('unopened group', at);
      const group = this.#groups[open.group];
      if (group !== undefined) group.source = src.slice(open.start, at);
      this.#out += ')';
      this.#i++;
    } else if (char === '{') {
      // Rust accepts `{m}`, `{m,}`, `{m,n}` only; anything else is an error there as well.
      const repeat = /^\{\d+(,\d*)?\}/.exec(src.slice(at));
      if (repeat === null) throw new DialectError('invalid repetition', at);
      this.#out += repeat[0];
      this.#i += repeat[0].length;
    } else if (char === '}') {
      this.#out += '\\}';
      this.#i++;
    } else {
      this.#out += char;
      this.#i++;
    }
  }

  #openGroup(): string {
    const src = this.#src;
    const at = this.#i;
    const rest = src.slice(at);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named?.[1] !== undefined) {
      this.#i += named[0].length;
      this.#open.push({ group: this.#groups.length, start: this.#i });
      this.#groups.push({ name: named[1], source: '' });
      return '(';
    }
    if (/^\(\?(=|!|<=|<!)/.test(rest)) throw new DialectError('look-around is not supported', at);
    if (rest.startsWith('(?:')) {
      this.#i += 3;
      this.#open.push({ group: -1, start: this.#i });
      return '(?:';
    }
    const flags = /^\(\?([a-zA-Z-]*)(:|\))/.exec(rest);
    if (flags?.[1] !== undefined) {
      if (flags[2] === ')') throw new DialectError('inline flags are only supported at the start', at);
      this.#i += flags[0].length;
      this.#open.push({ group: -1, start: this.#i });
      return this.#modifierGroup(flags[1], at);
    }
    if (rest.startsWith('(?')) throw new DialectError('unknown group syntax', at);
    this.#i++;
    this.#open.push({ group: this.#groups.length, start: this.#i });
    this.#groups.push({ name: null, source: '' });
    return '(';
  }

  /** `(?im-s:` as a JS modifier group; `u` is dropped (ASCII input: Unicode mode changes nothing). */
  #modifierGroup(spec: string, at: number): string {
    const [on = '', off = '', extra] = spec.split('-');
    if (extra !== undefined) throw new DialectError('invalid flags', at);
    const keep = (flags: string): string => {
      for (const flag of flags) {
        if (!'imsu'.includes(flag)) throw new DialectError(`unsupported flag '${flag}'`, at);
      }
      return [...new Set(flags.replaceAll('u', ''))].join('');
    };
    const add = keep(on);
    const remove = keep(off);
    if (add === '' && remove === '') return '(?:';
    return `(?${add}${remove === '' ? '' : `-${remove}`}:`;
  }

  #class(): string {
    const src = this.#src;
    const start = this.#i;
    let out = '[';
    this.#i++;
    if (src[this.#i] === '^') {
      out += '^';
      this.#i++;
    }
    // A `]` first in the class is a literal member in Rust (an empty class in JavaScript).
    if (src[this.#i] === ']') {
      out += '\\]';
      this.#i++;
    }
    while (this.#i < src.length) {
      const at = this.#i;
      const char = src[at] ?? '';
      const next = src[at + 1] ?? '';
      if (char === ']') {
        this.#i++;
        return `${out}]`;
      }
      if (char === '\\') {
        out += this.#escape(true);
      } else if (char === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(at));
        const ranges = posix?.[2] === undefined ? undefined : POSIX[posix[2]];
        if (posix === null || ranges === undefined || posix[1] === '^') {
          throw new DialectError('nested classes are not supported by the reference engine', at);
        }
        out += ranges;
        this.#i += posix[0].length;
      } else if ((char === '&' || char === '-' || char === '~') && next === char) {
        throw new DialectError('class set operations are not supported by the reference engine', at);
      } else {
        out += char;
        this.#i++;
      }
    }
    throw new DialectError('unclosed character class', start);
  }

  #escape(inClass: boolean): string {
    const src = this.#src;
    const at = this.#i;
    const char = src[at + 1];
    if (char === undefined) throw new DialectError('trailing backslash', at);
    this.#i += 2;
    if ('dDwWsS'.includes(char)) return `\\${char}`;
    if ('nrtfv'.includes(char)) return `\\${char}`;
    if (char === 'a') return '\\x07';
    if (!inClass) {
      if (char === 'b' || char === 'B') {
        if (src[this.#i] === '{') throw new DialectError('\\b{…} boundaries are not supported', at);
        return `\\${char}`;
      }
      if (char === 'A') return '^';
      if (char === 'z') return '$';
      if (char === '<') return '\\b(?=\\w)';
      if (char === '>') return '\\b(?<=\\w)';
    }
    if (char === 'p' || char === 'P') {
      const braced = /^\{[^}]*\}/.exec(src.slice(this.#i));
      const name = braced === null ? src[this.#i] : braced[0];
      if (name === undefined) throw new DialectError('incomplete Unicode class', at);
      this.#i += name.length;
      return `\\${char}${braced === null ? `{${name}}` : name}`;
    }
    if (char === 'x' || char === 'u' || char === 'U') {
      const digits = { x: 2, u: 4, U: 8 }[char];
      const form = new RegExp(`^(?:\\{([0-9A-Fa-f]{1,8})\\}|([0-9A-Fa-f]{${digits}}))`).exec(
        src.slice(this.#i),
      );
      const code = form?.[1] ?? form?.[2];
      if (form === null || code === undefined) throw new DialectError('invalid hex escape', at);
      this.#i += form[0].length;
      return `\\u{${code}}`;
    }
    if (/[0-9]/.test(char)) throw new DialectError('back-references are not supported', at);
    if (/[\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E ]/.test(char)) return hex(char);
    throw new DialectError(`unknown escape '\\${char}'`, at);
  }
}

/**
 * Finds the `/** … *\/` doc blocks of a JavaScript or TypeScript source file, with line numbers.
 *
 * A small lexer rather than a regular expression: it skips strings, template literals and line comments so
 * that `"/**"` inside a string is not mistaken for a block, and it knows where each block ends, which is
 * how a block is tied to the registration call on the next line.
 */

/** One line of a block's text, leading `*` and one space removed. */
export interface BlockLine {
  line: number;
  text: string;
}

export interface DocBlock {
  /** 1-based line of the opening `/**`. */
  startLine: number;
  /** 1-based line of the closing `*\/`. */
  endLine: number;
  lines: BlockLine[];
}

/**
 * @example
 * findDocBlocks('/** @summary Hi *\/\napp.get("/", h);')
 * // → [{ startLine: 1, endLine: 1, lines: [{ line: 1, text: '@summary Hi' }] }]
 */
export function findDocBlocks(source: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      const body = source.slice(i + 2, stop);
      const startLine = line;
      const newlines = countNewlines(body);
      // `/**/` is an empty plain comment, not a doc block.
      if (body.startsWith('*') && body !== '*') {
        blocks.push({
          startLine,
          endLine: startLine + newlines,
          lines: blockLines(body.slice(1), startLine),
        });
      }
      line += newlines;
      i = stop + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') {
          line++;
          // An unterminated quote ends at the line end; a template literal may span lines.
          if (c !== '`') break;
        }
        i++;
      }
      i++;
    } else {
      i++;
    }
  }
  return blocks;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}

function blockLines(body: string, startLine: number): BlockLine[] {
  return body.split('\n').map((raw, index) => {
    const text = raw
      .replace(/\r$/, '')
      .replace(/^\s*\*(?: ?)/, '')
      .trimEnd();
    return { line: startLine + index, text };
  });
}

/** Whether only blank lines separate `block` from the line `line` (the registration call). */
export function endsJustAbove(block: DocBlock, line: number, sourceLines: readonly string[]): boolean {
  if (block.endLine >= line) return false;
  for (let l = block.endLine + 1; l < line; l++) {
    if ((sourceLines[l - 1] ?? '').trim() !== '') return false;
  }
  // The closing `*/` must end its line: `/** x */ foo(); app.get(...)` documents foo, not the route.
  const closing = sourceLines[block.endLine - 1] ?? '';
  return closing.slice(closing.lastIndexOf('*/') + 2).trim() === '';
}

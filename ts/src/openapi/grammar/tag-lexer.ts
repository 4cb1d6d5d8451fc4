/**
 * The first step of reading a doc block: its lines grouped into tags. A tag starts a line (`@name rest`);
 * the lines that follow until the next tag continue it (multi-line descriptions, the JSON of `@example`).
 * Free text before the first tag is kept apart: it is the description when no tag gives one.
 */
import type { DocBlock } from './comments.js';

/** One `@name …` of a block, with its continuation lines. */
export interface RawTag {
  name: string;
  /** Text on the tag's own line. */
  head: string;
  /** Head and continuation lines, joined by newlines and trimmed. */
  text: string;
  line: number;
}

/**
 * @example
 * splitTags(findDocBlocks('/**\n * Lists.\n * @summary List\n *\/')[0]!)
 * // → { leading: 'Lists.', tags: [{ name: 'summary', head: 'List', text: 'List', line: 3 }] }
 */
export function splitTags(block: DocBlock): { leading: string; tags: RawTag[] } {
  const leading: string[] = [];
  const tags: RawTag[] = [];
  for (const { line, text } of block.lines) {
    const tag = /^\s*@([A-Za-z][\w-]*)\s*(.*)$/.exec(text);
    const current = tags[tags.length - 1];
    if (tag) {
      const head = (tag[2] ?? '').trim();
      tags.push({ name: tag[1] ?? '', head, text: head, line });
    } else if (current) {
      current.text = `${current.text}\n${text}`;
    } else {
      leading.push(text.trim());
    }
  }
  // Only the ends of the whole text are trimmed: continuation lines keep their indentation (`@example` JSON).
  for (const tag of tags) tag.text = tag.text.trim();
  return { leading: leading.join('\n').trim(), tags };
}

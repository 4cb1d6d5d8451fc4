/**
 * Text helpers of the reference engine: the request-path normalisation of ROUTING.md §3 (query string cut,
 * non-ASCII percent-encoded) and byte positions for error messages.
 *
 * Written independently of `../percent-encoding.ts` on purpose: the differential tests compare two
 * engines, and a shared helper would hide a shared bug.
 */

const utf8 = new TextEncoder();

/** ROUTING.md §3.1: the query string and the fragment are not part of matching. */
export function stripQuery(path: string): string {
  let end = path.length;
  const query = path.indexOf('?');
  if (query !== -1) end = query;
  const fragment = path.indexOf('#');
  if (fragment !== -1 && fragment < end) end = fragment;
  return end === path.length ? path : path.slice(0, end);
}

/**
 * Percent-encodes every non-ASCII character as UTF-8 with uppercase hex (`é` → `%C3%A9`), the form
 * clients send. ASCII is left alone, existing escapes included (no other normalisation, ROUTING.md §3.1).
 * Never throws: `TextEncoder` turns a lone surrogate into U+FFFD.
 */
export function encodeNonAscii(text: string): string {
  let out = '';
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) {
      out += char;
      continue;
    }
    for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Errors report byte offsets (as the Rust core does); JavaScript indexes UTF-16 units. */
export function bytePosition(text: string, index: number): number {
  return utf8.encode(text.slice(0, index)).length;
}

export function byteLength(text: string): number {
  return utf8.encode(text).length;
}

const encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';

/**
 * Percent-encodes the non-ASCII characters of a path as UTF-8 with uppercase hex, the way clients send
 * them (ROUTING.md §3.1), leaving everything else — existing escapes included — untouched. Never throws: a lone
 * surrogate becomes U+FFFD, as `TextEncoder` does.
 */
export function encodeNonAscii(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: anything non-ASCII.
  if (!/[^\x00-\x7f]/.test(path)) return path;
  let out = '';
  for (const byte of encoder.encode(path)) {
    out += byte < 0x80 ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

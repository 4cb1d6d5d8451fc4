/**
 * Reads a byte stream of HTTP/1.1 responses, as a client on a raw socket receives it: the responses, in
 * order, and what follows the last whole one. Used by the raw-socket harness in the test process and in
 * its client process (raw-client-process.ts), so both read the bytes alike.
 */

export interface WireResponse {
  status: number;
  /** Field names lower-cased; a repeated field keeps its last value (`fields` has them all). */
  headers: Record<string, string>;
  /** Every field line, in order, its name lower-cased and its value trimmed: repeats stay visible. */
  fields: [name: string, value: string][];
  body: Buffer;
}

/**
 * Splits a byte stream of HTTP/1.1 responses into its responses: 1xx, 204 and 304 have no body, nor has
 * the answer to a HEAD (`heads`, indexes among final responses); another has a chunked body when its
 * Transfer-Encoding says chunked, else a Content-Length body, else every byte that follows (a body ended by
 * the close). Stops at the first response not whole yet, or at bytes that are none.
 */
export function parseResponses(
  raw: Buffer,
  heads: Iterable<number> = [],
): { responses: WireResponse[]; leftover: Buffer } {
  const headIndexes = new Set(heads);
  const responses: WireResponse[] = [];
  let at = 0;
  let finals = 0;
  while (at < raw.byteLength) {
    const end = raw.indexOf('\r\n\r\n', at, 'latin1');
    if (end === -1) break;
    const lines = raw.toString('latin1', at, end).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] ?? '');
    if (match === null) break;
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    const fields: [string, string][] = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = value;
      fields.push([name, value]);
    }
    const bodyless = status < 200 || status === 204 || status === 304 || headIndexes.has(finals);
    const length = headers['content-length'];
    const body = bodyless
      ? { data: Buffer.alloc(0), next: end + 4 }
      : headers['transfer-encoding']?.toLowerCase() === 'chunked'
        ? dechunk(raw, end + 4)
        : length === undefined
          ? { data: raw.subarray(end + 4), next: raw.byteLength }
          : sized(raw, end + 4, Number(length));
    if (body === null) break;
    if (status >= 200) finals++;
    responses.push({ status, headers, fields, body: body.data });
    at = body.next;
  }
  return { responses, leftover: raw.subarray(at) };
}

type Body = { data: Buffer; next: number } | null;

function sized(raw: Buffer, from: number, length: number): Body {
  return from + length > raw.byteLength
    ? null
    : { data: raw.subarray(from, from + length), next: from + length };
}

/** A chunked body from `from`, trailers skipped; `null` while incomplete. */
function dechunk(raw: Buffer, from: number): Body {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return null;
    const size = Number.parseInt(raw.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2;
    if (size === 0) break;
    if (at + size + 2 > raw.byteLength) return null;
    parts.push(raw.subarray(at, at + size));
    at += size + 2;
  }
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return null;
    const empty = lineEnd === at;
    at = lineEnd + 2;
    if (empty) return { data: Buffer.concat(parts), next: at };
  }
}

/**
 * One raw exchange over `node:net`, told as what a client sees: the responses in the order they came
 * (100 Continue included), and whether the server closed the connection. For comparing the two servers
 * byte for byte where fetch cannot go (malformed heads, pipelines, split deliveries, half-close).
 */
import { connect } from 'node:net';

export interface WireResponse {
  status: number;
  /** Field names lower-cased; a repeated field keeps its last value (enough for these tests). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface Exchange {
  /** Every response received, interim ones (1xx) included, in order. */
  responses: WireResponse[];
  /** The server closed the connection (FIN or reset) before the wait ran out. */
  closed: boolean;
  /** It was a reset (ECONNRESET), not an orderly close. */
  reset: boolean;
  /** Bytes after the last whole response: a response cut short, or something that is no response. */
  leftover: Buffer;
  /** Everything received. */
  raw: Buffer;
}

export interface ExchangeOptions {
  /** Half-close after the last write (`socket.end()`): the client sends nothing more. */
  end?: boolean;
  /** Milliseconds to wait between the pieces of an array payload (default: one `setImmediate`). */
  pauseMs?: number;
  /** Longest wait for the server to close (default 1,500 ms). */
  waitMs?: number;
  /**
   * Once the bytes received parse into whole final responses, this much silence (default 250 ms) means
   * the server is done and keeps the connection open: keep-alive exchanges need not wait `waitMs`.
   */
  quietMs?: number;
  /** Indexes (among final responses) of the answers to HEAD: Content-Length without a body. */
  heads?: number[];
}

/**
 * Sends `payload` (an array is written piece by piece, with a pause between) on a fresh connection and
 * reads until the server closes, or goes quiet after whole responses, or `waitMs` passes.
 */
export function exchange(
  port: number,
  payload: string | Buffer | (string | Buffer)[],
  options: ExchangeOptions = {},
): Promise<Exchange> {
  const { end = false, pauseMs, waitMs = 1500, quietMs = 250, heads = [] } = options;
  const pieces = Array.isArray(payload) ? payload : [payload];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    // Each piece leaves as its own segment: a split delivery is really split.
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let quiet: NodeJS.Timeout | undefined;
    let sent = false;
    let done = false;
    const deadline = setTimeout(() => finish(false, false), waitMs);

    const finish = (closed: boolean, reset: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(quiet);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const { responses, leftover } = parseResponses(raw, heads);
      resolve({ responses, closed, reset, leftover, raw });
    };

    /** Whole final responses and every piece sent: silence from here on means the server is done. */
    const settleSoon = () => {
      clearTimeout(quiet);
      if (!sent) return;
      const { responses, leftover } = parseResponses(Buffer.concat(chunks), heads);
      if (leftover.byteLength === 0 && responses.some((r) => r.status >= 200)) {
        quiet = setTimeout(() => finish(false, false), quietMs);
      }
    };

    socket.on('connect', async () => {
      for (let i = 0; i < pieces.length; i++) {
        if (i > 0) await pause(pauseMs);
        if (done || socket.destroyed) return;
        socket.write(pieces[i] as string | Buffer);
      }
      if (end) socket.end();
      sent = true;
      settleSoon();
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      settleSoon();
    });
    socket.on('end', () => finish(true, false));
    socket.on('close', () => finish(true, false));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true, true);
      else if (!done) {
        done = true;
        clearTimeout(deadline);
        clearTimeout(quiet);
        reject(error);
      }
    });
  });
}

function pause(ms: number | undefined): Promise<void> {
  return new Promise((resolve) => (ms === undefined ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

/**
 * Splits a byte stream of HTTP/1.1 responses into its responses: 1xx have no body; a final response has
 * a Content-Length body (node:http's own answers, a 400 for a missing Host or a 417, are chunked), except
 * one that answers a HEAD (`heads`). Stops at the first response not whole yet, or at bytes that are none.
 */
export function parseResponses(
  raw: Buffer,
  heads: number[] = [],
): { responses: WireResponse[]; leftover: Buffer } {
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
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyless = status < 200 || heads.includes(finals);
    const body = bodyless
      ? { data: Buffer.alloc(0), next: end + 4 }
      : headers['transfer-encoding']?.toLowerCase() === 'chunked'
        ? dechunk(raw, end + 4)
        : sized(raw, end + 4, Number(headers['content-length'] ?? 0));
    if (body === null) break;
    if (status >= 200) finals++;
    responses.push({ status, headers, body: body.data });
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

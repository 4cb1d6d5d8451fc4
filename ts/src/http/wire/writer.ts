/**
 * A response on the wire: status line, header fields, the connection's own fields, then the body, in one
 * socket write. The kernel has already framed it (Content-Length from the real body; no body on HEAD, 204,
 * 304), so this only serialises; it adds what a bare `OutgoingResponse` may lack.
 */
import type { Socket } from 'node:net';
import { headerPairs, type OutgoingResponse } from '../dispatch.js';
import { StreamBody } from '../response-stream.js';
import { STATUS_CODES } from '../status-codes.js';

/** What the connection decided about itself for this response. */
export interface WireOptions {
  /** Keep the connection open after it: `Connection: keep-alive`, else `Connection: close`. */
  keepAlive: boolean;
  /** The request was HEAD: its answer never carries a body. */
  head: boolean;
  /** Seconds an idle keep-alive connection stays open (`Keep-Alive: timeout=`). */
  idleSeconds: number;
  /** The `Date` field's value. */
  date: string;
  /** The request was HTTP/1.1: a streamed body of unknown length may be chunked. */
  http11: boolean;
}

/** What {@link writeResponse} wrote, and what is left for a streamed body. */
export interface WrittenHead {
  /** The connection closes after this response. */
  close: boolean;
  /** How the streamed body that follows is framed; `null` when the body was written whole. */
  framing: StreamFraming | null;
  /** The Content-Length the application set (the streamed body must match it), else -1. */
  length: number;
}

/** How a streamed body's end is told to the client. */
export const StreamFraming = {
  /** `Transfer-Encoding: chunked`. */
  Chunked: 0,
  /** The Content-Length the application set. */
  Length: 1,
  /** The connection closes after it (HTTP/1.0). */
  Close: 2,
} as const;
export type StreamFraming = (typeof StreamFraming)[keyof typeof StreamFraming];

const statusLines = new Map<number, string>();

function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n`;
    statusLines.set(status, line);
  }
  return line;
}

/**
 * Writes `response` and says whether the connection must close after it (it set `Connection: close`, or
 * the connection said so). A `Connection` or `Transfer-Encoding` field set by the application is not
 * written as is: the connection decides its own fate (an `upgrade` option is kept) and the body's framing.
 * A streamed body ({@link StreamBody}) gets its head only: the caller pumps it (see stream-pump.ts).
 */
export function writeResponse(socket: Socket, response: OutgoingResponse, options: WireOptions): WrittenHead {
  const status = response.getStatus();
  if (!Number.isInteger(status) || status < 100 || status > 999)
    throw new TypeError(`Cannot write a response with status ${String(status)}`);
  const fields = headerPairs(response);
  let head = statusLine(status);
  let hasLength = false;
  let declared = -1;
  let hasDate = false;
  let keepAlive = options.keepAlive;
  /** The application's Connection field names `upgrade` (a 426 or 101 with an `Upgrade` field: RFC 9110
   * §7.8 requires it beside that field): kept in the connection's own field. */
  let upgrade = '';
  for (let i = 0; i < fields.length; i += 2) {
    const name = fields[i] as string;
    const value = fields[i + 1] as string;
    // Only names of these lengths can be the fields that need a look: no lower-casing for the others.
    const size = name.length;
    if (size === 4 && name.toLowerCase() === 'date') hasDate = true;
    else if (size === 14 && name.toLowerCase() === 'content-length') {
      hasLength = true;
      declared = Number(value);
    } else if (size === 10 && name.toLowerCase() === 'connection') {
      if (/(?:^|,)\s*close\s*(?:,|$)/i.test(value)) keepAlive = false;
      if (/(?:^|,)\s*upgrade\s*(?:,|$)/i.test(value)) upgrade = 'Upgrade, ';
      continue;
    } else if (size === 17 && name.toLowerCase() === 'transfer-encoding') continue;
    head += `${name}: ${value}\r\n`;
  }
  // Everything is checked before the first byte is written: a throw here leaves the connection clean
  // for the 500 that answers it, never a response cut in half followed by another.
  const raw = options.head || !mayHaveBody(status) ? null : response.getBody();
  let framing: StreamFraming | null = null;
  let body: string | Uint8Array | null = null;
  if (raw instanceof StreamBody) {
    framing = hasLength ? StreamFraming.Length : options.http11 ? StreamFraming.Chunked : StreamFraming.Close;
    if (framing === StreamFraming.Chunked) head += 'Transfer-Encoding: chunked\r\n';
    // HTTP/1.0 has no chunked coding: the body ends where the connection does.
    else if (framing === StreamFraming.Close) keepAlive = false;
  } else {
    body = writableBody(raw);
    // A HEAD answer without a length is one whose GET would be streamed: it says nothing of a length,
    // as node:http does, rather than a Content-Length of 0 the GET would not have.
    if (!hasLength && mayHaveBody(status) && !(options.head && response.getBody() === null)) {
      const length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      head += `Content-Length: ${length}\r\n`;
    }
  }
  if (!hasDate) head += `Date: ${options.date}\r\n`;
  head += keepAlive
    ? `Connection: ${upgrade}keep-alive\r\nKeep-Alive: timeout=${options.idleSeconds}\r\n\r\n`
    : `Connection: ${upgrade}close\r\n\r\n`;
  if (body !== null && body.length === 0) body = null;
  if (body === null) socket.write(head, 'latin1');
  // node:http writes a string body the same way: head and body as one UTF-8 string, one write.
  else if (typeof body === 'string') socket.write(head + body);
  else {
    socket.cork();
    socket.write(head, 'latin1');
    socket.write(body);
    socket.uncork();
  }
  return { close: !keepAlive, framing, length: declared };
}

/** A body written whole: a string or bytes. */
function writableBody(body: unknown): string | Uint8Array | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  const kind = typeof body === 'object' ? (body.constructor?.name ?? 'object') : typeof body;
  throw new TypeError(`Cannot write a response body of type ${kind}: a string or a Uint8Array is needed`);
}

/** 1xx, 204 and 304 answers have no body and no Content-Length (RFC 9110 §8.6, §15.3.5, §15.4.5). */
function mayHaveBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/** The `Date` field (RFC 9110 §6.6.1), formatted once a second. */
export class HttpDate {
  #value = '';
  #until = 0;

  at(now: number): string {
    if (now >= this.#until) {
      this.#value = new Date(now).toUTCString();
      this.#until = now - (now % 1000) + 1000;
    }
    return this.#value;
  }
}

/** The connection's own refusal (or its 500, see refusal.ts), as its last answer: `Connection: close`. */
export function writeLast(socket: Socket, answer: OutgoingResponse, date: string): void {
  writeResponse(socket, answer, {
    keepAlive: false,
    head: false,
    idleSeconds: 0,
    date,
    http11: true,
  });
}

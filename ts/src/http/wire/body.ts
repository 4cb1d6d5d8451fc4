/**
 * A request body as it arrives on the connection: framed by Content-Length or by chunks (RFC 9112 §6–§7).
 * The connection feeds it whatever bytes follow the head; it takes what belongs to the body, keeps it for
 * whoever reads the body, and hands back the rest (the next pipelined request). Reading waits for the last
 * byte, fails with 413 past the limit and 400 on a malformed chunk.
 */

import { HttpError } from '../errors.js';
import { clientAborted, tooLarge } from '../request-body.js';
import { fieldColon, TOKEN_CHARS as TOKEN } from './head.js';
import { FORBIDDEN_TRAILERS } from './trailer-fields.js';

/** Longest chunk-size line (size, extensions) and trailer section accepted: RFC 9112 §7.1.1 sets none. */
const MAX_CHUNK_LINE = 4096;
const MAX_TRAILERS = 16 * 1024;
/** `"…"` with backslash escapes, visible ASCII, spaces, tabs and obs-text (RFC 9110 §5.6.4). */
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
/**
 * A chunk-size line (RFC 9112 §7.1.1) as node's parser (llhttp) reads it: hex digits, then extensions
 * `;name` or `;name=value`, then CR (its LF ended the line). RFC 9112 allows whitespace around an
 * extension's `;` and `=` (BWS); llhttp refuses it, as it refuses whitespace after the size (`7 `, `0\t;c`),
 * and so does this: a proxy that read such a line otherwise could see a different body, and a request
 * hidden in it.
 */
const CHUNK_SIZE_LINE = new RegExp(`^([0-9A-Fa-f]{1,13})(?:;${TOKEN}(?:=(?:${TOKEN}|${QUOTED}))?)*\\r$`);
/** Where a chunked body's reader is. */
const Chunk = {
  /** Reading a chunk-size line up to its LF. */
  SizeLine: 0,
  /** Inside a chunk's data. */
  Data: 1,
  /** The CRLF after a chunk's data. */
  DataEnd: 2,
  /** The trailer section after the last chunk, up to an empty line. */
  Trailers: 3,
  Done: 4,
} as const;
type Chunk = (typeof Chunk)[keyof typeof Chunk];

/** Where a body's bytes go: the connection reads `buffered` to decide whether to pause the socket. */
export abstract class IncomingBody {
  /** Bytes received and not yet read. */
  buffered = 0;
  #parts: Buffer[] = [];
  #total = 0;
  #limit = Number.POSITIVE_INFINITY;
  #failure: HttpError | null = null;
  #waiting: { resolve: (body: Uint8Array) => void; reject: (error: HttpError) => void } | null = null;
  /** A streaming reader waiting for the next chunk (see {@link stream}). */
  #wake: (() => void) | null = null;

  /** Every byte of the body has arrived. */
  abstract get complete(): boolean;

  /**
   * Takes the body's bytes from `chunk` (from `offset`): the offset where the body ended in it (the rest
   * belongs to the next request), or the chunk's length when all of it was body.
   */
  abstract feed(chunk: Buffer, offset: number): number;

  /**
   * The whole body: its bytes now when all of them are in (most bodies come with their head), else once
   * they have arrived; rejected with 413 past `limit` bytes.
   */
  read(limit: number, declared: number | undefined): Uint8Array | Promise<Uint8Array> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    // Refused by its declared length: what arrives of it is dropped, not kept (an upload of many MiB would
    // otherwise pile up until its answer is written).
    if (declared !== undefined && declared > limit) return Promise.reject(this.#fail(tooLarge(limit)));
    this.#limit = limit;
    if (this.#total > limit) return Promise.reject(this.#fail(tooLarge(limit)));
    if (this.complete) return this.#take();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  /**
   * The body's chunks as they arrive, rejected with 413 past `limit` bytes; `taken` is called each time a
   * chunk is taken (the connection reads more when the chunks held drop below its high-water mark).
   * Stopping early (the iterator's `return()`) drops the rest: the connection closes after its answer.
   */
  stream(limit: number, declared: number | undefined, taken: () => void): AsyncIterable<Uint8Array> {
    if (this.#failure === null) {
      if (declared !== undefined && declared > limit) this.#fail(tooLarge(limit));
      else if (this.#total > limit) this.#fail(tooLarge(limit));
      else this.#limit = limit;
    }
    const next = async (): Promise<IteratorResult<Uint8Array>> => {
      for (;;) {
        const part = this.#parts.shift();
        if (part !== undefined) {
          this.buffered -= part.byteLength;
          taken();
          return { done: false, value: part };
        }
        if (this.#failure !== null) throw this.#failure;
        if (this.complete) return { done: true, value: undefined };
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    };
    const stop = async (): Promise<IteratorResult<Uint8Array>> => {
      if (!this.complete) this.#fail(new HttpError(400, 'Request body not read to its end'));
      return { done: true, value: undefined };
    };
    return { [Symbol.asyncIterator]: () => ({ next, return: stop }) };
  }

  /** Nothing more will arrive (the client went away, the request timed out): a read fails with `error`. */
  abort(error?: HttpError): void {
    // The error is built only for a body still arriving: a complete one (most) costs no Error and stack.
    if (!this.complete) this.#fail(error ?? clientAborted());
  }

  /** The body failed (413, a malformed chunk): nothing more of it is kept. */
  get failed(): boolean {
    return this.#failure !== null;
  }

  protected keep(data: Buffer): void {
    if (this.#failure !== null || data.byteLength === 0) return;
    this.#total += data.byteLength;
    if (this.#total > this.#limit) {
      this.#fail(tooLarge(this.#limit));
      return;
    }
    this.#parts.push(data);
    this.buffered += data.byteLength;
    this.#wakeReader();
  }

  protected finished(): void {
    this.#wakeReader();
    const waiting = this.#waiting;
    if (waiting === null || this.#failure !== null) return;
    this.#waiting = null;
    waiting.resolve(this.#take());
  }

  protected fail(error: HttpError): void {
    this.#fail(error);
  }

  #fail(error: HttpError): HttpError {
    if (this.#failure === null) {
      this.#failure = error;
      this.#parts = [];
      this.buffered = 0;
      const waiting = this.#waiting;
      this.#waiting = null;
      waiting?.reject(error);
      this.#wakeReader();
    }
    return this.#failure;
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #take(): Uint8Array {
    const parts = this.#parts;
    this.#parts = [];
    this.buffered = 0;
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, this.#total);
  }
}

/** A body of `Content-Length` bytes. */
export class LengthBody extends IncomingBody {
  #remaining: number;

  constructor(length: number) {
    super();
    this.#remaining = length;
  }

  get complete(): boolean {
    return this.#remaining === 0;
  }

  feed(chunk: Buffer, offset: number): number {
    const take = Math.min(this.#remaining, chunk.byteLength - offset);
    this.keep(chunk.subarray(offset, offset + take));
    this.#remaining -= take;
    if (this.#remaining === 0) this.finished();
    return offset + take;
  }
}

/** A chunked body (RFC 9112 §7.1): sizes in hex, extensions skipped, trailers read and dropped. */
export class ChunkedBody extends IncomingBody {
  #state: Chunk = Chunk.SizeLine;
  /** The chunk-size line so far, or the trailer section so far. */
  #line = '';
  /** Bytes left in the current chunk. */
  #left = 0;
  /** The CRLF after a chunk's data: how much of it was seen. */
  #crlfSeen = 0;
  /** Bytes of trailer section seen so far. */
  #trailerBytes = 0;

  get complete(): boolean {
    return this.#state === Chunk.Done;
  }

  feed(chunk: Buffer, offset: number): number {
    let at = offset;
    while (at < chunk.byteLength && this.#state !== Chunk.Done && !this.failed) {
      switch (this.#state) {
        case Chunk.SizeLine:
          at = this.#sizeLine(chunk, at);
          break;
        case Chunk.Data: {
          const take = Math.min(this.#left, chunk.byteLength - at);
          this.keep(chunk.subarray(at, at + take));
          this.#left -= take;
          at += take;
          if (this.#left === 0) this.#state = Chunk.DataEnd;
          break;
        }
        case Chunk.DataEnd:
          if (chunk[at] !== (this.#crlfSeen === 0 ? 0x0d : 0x0a)) {
            this.fail(badChunk('chunk data not followed by CRLF'));
            return chunk.byteLength;
          }
          at++;
          if (++this.#crlfSeen === 2) {
            this.#crlfSeen = 0;
            this.#state = Chunk.SizeLine;
          }
          break;
        case Chunk.Trailers:
          at = this.#trailers(chunk, at);
          break;
      }
    }
    if (this.#state === Chunk.Done) this.finished();
    return this.failed ? chunk.byteLength : at;
  }

  /** Reads the chunk-size line up to its LF; then the chunk's data follows, or the trailers after size 0. */
  #sizeLine(chunk: Buffer, at: number): number {
    const lf = chunk.indexOf(0x0a, at);
    const end = lf === -1 ? chunk.byteLength : lf;
    this.#line += chunk.toString('latin1', at, end);
    if (this.#line.length > MAX_CHUNK_LINE) {
      this.fail(badChunk('chunk-size line too long'));
      return chunk.byteLength;
    }
    if (lf === -1) return end;
    const line = this.#line;
    this.#line = '';
    const match = CHUNK_SIZE_LINE.exec(line);
    if (match === null) {
      this.fail(badChunk('malformed chunk size'));
      return chunk.byteLength;
    }
    this.#left = Number.parseInt(match[1] as string, 16);
    this.#state = this.#left === 0 ? Chunk.Trailers : Chunk.Data;
    return lf + 1;
  }

  /** Skips the trailer section: field lines, then an empty line (the body's last CRLF). */
  #trailers(chunk: Buffer, at: number): number {
    let pos = at;
    while (pos < chunk.byteLength) {
      const lf = chunk.indexOf(0x0a, pos);
      const end = lf === -1 ? chunk.byteLength : lf;
      this.#line += chunk.toString('latin1', pos, end);
      this.#trailerBytes += end - pos + 1;
      if (this.#trailerBytes > MAX_TRAILERS) {
        this.fail(badChunk('trailer section too long'));
        return chunk.byteLength;
      }
      if (lf === -1) return end;
      pos = lf + 1;
      const line = this.#line;
      this.#line = '';
      if (!line.endsWith('\r')) {
        this.fail(badChunk('trailer line without CRLF'));
        return chunk.byteLength;
      }
      if (line === '\r') {
        this.#state = Chunk.Done;
        return pos;
      }
      // A trailer is a field line like any other: anything else (a request line that followed a body
      // cut short, say) is refused, never skipped, so no request can hide in the trailer section.
      const colon = fieldColon(line.slice(0, -1));
      if (colon === -1) {
        this.fail(badChunk('malformed trailer field'));
        return chunk.byteLength;
      }
      const forbidden = FORBIDDEN_TRAILERS.get(line.slice(0, colon).toLowerCase());
      if (forbidden !== undefined) {
        this.fail(new HttpError(400, `${forbidden} is not allowed in a trailer section`));
        return chunk.byteLength;
      }
    }
    return pos;
  }
}

function badChunk(what: string): HttpError {
  return new HttpError(400, `Malformed chunked body: ${what}`);
}

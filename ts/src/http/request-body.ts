/** Reading a request body from a stream, bounded: what both transports hand the kernel as `readBody`. */
import { Transform, type TransformCallback } from 'node:stream';
import { HttpError } from './errors.js';

/**
 * Collects a body stream into one buffer, failing with 413 as soon as it exceeds `limit` bytes.
 * `declaredLength` is the `Content-Length` header, checked before reading anything.
 */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  declaredLength: string | undefined,
): Promise<Uint8Array> {
  refuseDeclared(limit, declaredLength);
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit);
    parts.push(chunk);
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, total);
}

/**
 * A body stream's chunks as they come, failing with 413 as soon as it exceeds `limit` bytes (the declared
 * `Content-Length` checked before anything is read): for a body taken as a stream (an upload).
 */
export async function* limitedChunks(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  declaredLength: string | undefined,
): AsyncGenerator<Uint8Array> {
  refuseDeclared(limit, declaredLength);
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit);
    yield chunk;
  }
}

/**
 * A body's bytes passed on as they come, failing with 413 as soon as they exceed `limit`: what node:http
 * pipes its request into for a body taken as a stream (an upload), so that the parser reads a stream
 * directly rather than through a chain of async iterators (a promise or more per chunk).
 */
export class LimitedBody extends Transform {
  readonly #limit: number;
  readonly #onRefused: (() => void) | undefined;
  #total = 0;

  /**
   * @param onRefused Called when the body is failed with a 413, its own limit's or its reader's (a
   * decoder's output past the limit): at once, inside `destroy()`, so that the transport knows before it
   * writes the answer that the rest of the body is not to be read.
   */
  constructor(limit: number, onRefused?: () => void) {
    // Room for a few of node's socket reads (64 KiB each): with the default 16 KiB every read would pause
    // the socket until the parser took it, and resume it after (a syscall pair per chunk).
    super({ highWaterMark: 256 * 1024 });
    this.#limit = limit;
    this.#onRefused = onRefused;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#total += chunk.byteLength;
    if (this.#total > this.#limit) callback(tooLarge(this.#limit));
    else callback(null, chunk);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (error instanceof HttpError && error.status === 413) this.#onRefused?.();
    callback(error);
  }
}

/**
 * The client closed the connection before its body was complete. 499 is nginx's "client closed request":
 * not a server error (nothing is logged as one, 5xx counts stay true), and nobody reads the answer anyway.
 */
export function clientAborted(): HttpError {
  return new HttpError(499, 'Client Closed Request');
}

/** A body whose `Content-Length` announces more than `limit` bytes is refused before any of it is read. */
export function refuseDeclared(limit: number, declaredLength: string | undefined): void {
  if (declaredLength === undefined) return;
  const length = Number(declaredLength);
  if (Number.isFinite(length) && length > limit) throw tooLarge(limit);
}

/** 413: a body past the limit of `limit` bytes. */
export function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    `Request body larger than the limit of ${limit} bytes (raise it with bodyLimit on the route, its group or the application)`,
  );
}

/**
 * A response body produced over time: a Node `Readable`, a web `ReadableStream`, or any `AsyncIterable` of
 * strings and bytes, held as one Node `Readable` so that every transport writes it the same way: reading a
 * chunk only once the one before was taken (backpressure), destroying the source when the client leaves.
 */
import { Readable } from 'node:stream';

/** What `res.send()` takes as a streamed body. */
export type StreamSource =
  | Readable
  | ReadableStream<Uint8Array | string>
  | AsyncIterable<Uint8Array | string>;

/** Options of a {@link StreamBody}. */
export interface StreamBodyOptions {
  /**
   * Events rather than a document (Server-Sent Events): the head goes out at once, before the first
   * chunk, so the client knows the stream is open; a compressor or a deadline leaves it alone.
   */
  live?: boolean;
}

/**
 * A response body produced over time: what `res.send()` makes of a Node `Readable`, a web
 * `ReadableStream` or an `AsyncIterable` of strings and bytes. Every transport writes it the same way,
 * reading the next chunk only when the client took the last one and stopping the source when the client
 * leaves. A handler rarely makes one itself: it passes the source to `res.send()`; a middleware meets one
 * as `res.getBody()`.
 *
 * @example
 * async function* lines() { yield 'one\n'; yield 'two\n'; }
 * app.get('/lines', (req, res) => res.send(lines()));
 */
export class StreamBody {
  /** The chunks, strings or bytes, in order. Destroying it stops the source. */
  readonly readable: Readable;
  /** Events rather than a document (Server-Sent Events): the head goes out before the first chunk. */
  readonly live: boolean;

  constructor(source: StreamSource, options: StreamBodyOptions = {}) {
    this.readable = toReadable(source);
    this.live = options.live === true;
  }

  /** The answer will not carry this body (HEAD, 304, an error replaced it): the source is released. */
  discard(): void {
    if (!this.readable.destroyed) this.readable.destroy();
  }
}

/** Whether `value` is something {@link StreamBody} can stream. */
export function isStreamSource(value: unknown): value is StreamSource {
  if (typeof value !== 'object' || value === null) return false;
  return (
    value instanceof Readable ||
    typeof (value as ReadableStream).getReader === 'function' ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

function toReadable(source: StreamSource): Readable {
  if (source instanceof Readable) return source;
  if (typeof (source as ReadableStream).getReader === 'function')
    return Readable.fromWeb(source as import('node:stream/web').ReadableStream<Uint8Array | string>);
  return new IterableReadable(source as AsyncIterable<Uint8Array | string>);
}

/**
 * An `AsyncIterable` as a `Readable` that pulls one item per read, and calls the iterator's `return()` as
 * soon as it is destroyed, so a generator's `finally` runs when the client leaves. (`Readable.from` waits
 * for a pending `next()` to settle before it does.)
 */
class IterableReadable extends Readable {
  readonly #iterator: AsyncIterator<Uint8Array | string>;
  #done = false;

  constructor(source: AsyncIterable<Uint8Array | string>) {
    super({ objectMode: true, highWaterMark: 1 });
    this.#iterator = source[Symbol.asyncIterator]();
  }

  override _read(): void {
    this.#iterator.next().then(
      (step) => {
        if (this.destroyed) return;
        if (step.done === true) {
          this.#done = true;
          this.push(null);
          return;
        }
        const chunk: unknown = step.value;
        if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
          this.destroy(
            new TypeError(`A streamed body yielded ${describe(chunk)}: strings or bytes are needed`),
          );
          return;
        }
        // An empty chunk would read as the end of the stream: ask for the next one instead.
        if (chunk.length === 0) this._read();
        else this.push(chunk);
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#done) {
      this.#done = true;
      // Not awaited: a generator suspended in an `await` finishes its step first, and the transport has
      // no reason to wait for it.
      this.#iterator.return?.().catch(() => undefined);
    }
    callback(error);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a ${typeof value}`;
}

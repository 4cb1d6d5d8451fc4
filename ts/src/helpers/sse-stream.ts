/**
 * One event stream's body: encoded events as a `Readable` the transports write like any streamed body,
 * fed either by an `AsyncIterable` (read one event at a time, only once the last was taken) or by a
 * producer's `send()` (queued while the transport is busy, up to a bound). A comment line goes out as
 * heartbeat while the stream is quiet, so that proxies do not close an idle connection and a client that
 * left is noticed by the next write.
 *
 * The queue is one string: events sent while the transport is busy are appended to it, and the whole of
 * it is handed over at the next read, so a burst costs one write instead of one per event. Every `send()`
 * of one such batch shares one promise.
 */
import { Readable } from 'node:stream';
import { type Beating, startBeating, stopBeating } from './heartbeat.js';
import { encodeEvent, type ServerSentEvent } from './sse.js';

/**
 * Options of an event stream (`res.sse()`): how often an idle stream sends a heartbeat, and how far a slow
 * client may fall behind before it is cut.
 *
 * @example
 * return res.sse(events(), { heartbeatMs: 30_000 });
 */
export interface SseOptions {
  /** A comment line is sent after this many ms without an event (default 15,000; 0: never). */
  heartbeatMs?: number;
  /**
   * The push form's bound (`res.sse((events) => …)`): bytes sent but not yet taken by the transport
   * (default 1 MiB). A client so far behind is cut rather than buffered for without end; see
   * {@link SseStream}. The iterable form never queues more than one event.
   */
  maxUnsentBytes?: number;
}

/**
 * Why an event stream closed: `ended` by this side (`close()`, the producer or the source finished),
 * `client-left` (or the answer was never sent: HEAD, an error replaced it, the server shut down),
 * `too-slow` (more than `maxUnsentBytes` waited for the client), `failed` (the producer or the source
 * threw, or an event could not be encoded).
 */
export type SseCloseReason = 'ended' | 'client-left' | 'too-slow' | 'failed';

/** A client more than `maxUnsentBytes` behind: the transport cuts its connection and logs this. */
export class SseTooSlowError extends Error {
  readonly code = 'SSE_CLIENT_TOO_SLOW';
  constructor(readonly limit: number) {
    super(`an event stream's client fell more than ${limit} bytes behind: its connection was closed`);
    this.name = 'SseTooSlowError';
  }
}

const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_MAX_UNSENT = 1024 * 1024;
const HEARTBEAT = ':\n\n';
const WRITTEN = Promise.resolve(true);
const NOT_SENT = Promise.resolve(false);

export class EventStream extends Readable implements Beating {
  readonly #iterator: AsyncIterator<ServerSentEvent> | null;
  readonly #heartbeatMs: number;
  readonly #maxUnsent: number;
  /** The transport asked for data and none has been pushed since (the stream's own `reading` state). */
  #wanted = false;
  /** Events waiting for the transport, and their size in bytes. */
  #queue = '';
  #queued = 0;
  /** The promise every `send()` of the queued batch returned, and how to settle it. */
  #batch: Promise<boolean> | null = null;
  #settleBatch: ((sent: boolean) => void) | null = null;
  /** A `next()` of the source is under way. */
  #pulling = false;
  /** Something was sent since the last heartbeat tick (true at first: a new stream is not quiet). */
  #sent = true;
  /** The transport has read (so it listens for errors). */
  #started = false;
  /** A failure before that, destroying the stream at the first read. */
  #failure: Error | null = null;
  #closedBy: SseCloseReason | null = null;
  #onClose: ((reason: SseCloseReason) => void)[] | null = null;

  constructor(source: AsyncIterable<ServerSentEvent> | null, options: SseOptions = {}) {
    super({ objectMode: true, highWaterMark: 1 });
    const every = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (!Number.isFinite(every) || every < 0)
      throw new RangeError(`heartbeatMs must be 0 or more, not ${String(every)}`);
    const max = options.maxUnsentBytes ?? DEFAULT_MAX_UNSENT;
    if (!(max > 0)) throw new RangeError(`maxUnsentBytes must be more than 0, not ${String(max)}`);
    this.#heartbeatMs = every;
    this.#maxUnsent = max;
    this.#iterator = source === null ? null : source[Symbol.asyncIterator]();
    if (every > 0) startBeating(this, every);
  }

  /** Why it closed, or `null` while events can still be sent. */
  get closedBy(): SseCloseReason | null {
    return this.#closedBy;
  }

  /** Calls `listener` once when the stream closes (at once if it has). */
  onClose(listener: (reason: SseCloseReason) => void): void {
    if (this.#closedBy !== null) listener(this.#closedBy);
    else if (this.#onClose === null) this.#onClose = [listener];
    else this.#onClose.push(listener);
  }

  /**
   * Sends one event: handed to the transport now if it waits for data, else queued. Settles `true` once
   * handed over, `false` if the stream closed first. Throws a `TypeError` for an event that cannot be
   * encoded (see {@link encodeEvent}).
   */
  send(event: ServerSentEvent): Promise<boolean> {
    if (this.#closedBy !== null) return NOT_SENT;
    const encoded = encodeEvent(event);
    this.#sent = true;
    if (this.#wanted) {
      this.#wanted = false;
      this.push(encoded);
      return WRITTEN;
    }
    this.#queue += encoded;
    this.#queued += Buffer.byteLength(encoded);
    if (this.#queued > this.#maxUnsent) {
      this.fail(new SseTooSlowError(this.#maxUnsent), 'too-slow');
      return NOT_SENT;
    }
    this.#batch ??= new Promise((resolve) => {
      this.#settleBatch = resolve;
    });
    return this.#batch;
  }

  /** Ends the stream once what was sent is handed over; later sends are refused. */
  finish(): void {
    if (this.#closedBy !== null) return;
    this.#close('ended');
    if (this.#queue === '') this.push(null);
  }

  /**
   * Ends the stream with `error` (a producer's or a source's, or {@link SseTooSlowError}): the transport
   * cuts the connection and logs it. Before the transport's first read the error waits for that read: a
   * stream destroyed with an error nobody listens for yet would crash the process.
   */
  fail(error: unknown, reason: SseCloseReason = 'failed'): void {
    if (this.destroyed || this.#failure !== null) return;
    if (this.#closedBy === null) this.#close(reason);
    this.#drop();
    const failure = error instanceof Error ? error : new Error(String(error));
    if (this.#started) this.destroy(failure);
    else this.#failure = failure;
  }

  override _read(): void {
    if (!this.#started) {
      this.#started = true;
      if (this.#failure !== null) {
        this.destroy(this.#failure);
        return;
      }
    }
    if (this.#queue !== '') {
      const settle = this.#settleBatch;
      this.push(this.#queue);
      this.#queue = '';
      this.#queued = 0;
      this.#batch = null;
      this.#settleBatch = null;
      settle?.(true);
      if (this.#closedBy !== null) this.push(null);
      return;
    }
    this.#wanted = true;
    if (this.#iterator !== null && !this.#pulling && this.#closedBy === null) this.#pull(this.#iterator);
  }

  #pull(iterator: AsyncIterator<ServerSentEvent>): void {
    this.#pulling = true;
    iterator.next().then(
      (step) => {
        this.#pulling = false;
        if (this.#closedBy !== null) return;
        if (step.done === true) this.finish();
        else {
          try {
            this.send(step.value);
          } catch (error) {
            this.fail(error);
          }
        }
      },
      (error: unknown) => {
        this.#pulling = false;
        this.fail(error);
      },
    );
  }

  /** The heartbeat timer's tick: a comment line if nothing was sent since the last one. */
  beat(): void {
    // Only while quiet, and only when the transport waits: a busy one is proof enough of a live stream.
    if (!this.#sent && this.#wanted && this.#closedBy === null) {
      this.#wanted = false;
      this.push(HEARTBEAT);
    }
    this.#sent = false;
  }

  /** No more events: the heartbeat stops, a waiting producer hears why. */
  #close(reason: SseCloseReason): void {
    this.#closedBy = reason;
    if (this.#heartbeatMs > 0) stopBeating(this, this.#heartbeatMs);
    const listeners = this.#onClose;
    this.#onClose = null;
    if (listeners !== null) for (const listener of listeners) listener(reason);
  }

  /** Forgets the queued events: their sends settle `false`. */
  #drop(): void {
    this.#queue = '';
    this.#queued = 0;
    this.#settleBatch?.(false);
    this.#batch = null;
    this.#settleBatch = null;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Destroyed by the transport (the client left, the answer was dropped) unless this side said why.
    if (this.#closedBy === null) this.#close('client-left');
    this.#drop();
    // A source that did not finish is told to stop, even while it waits in `next()`.
    if (this.#iterator !== null && this.#closedBy !== 'ended')
      this.#iterator.return?.().catch(() => undefined);
    callback(error);
  }
}

/**
 * Server-Sent Events (WHATWG HTML, "Server-sent events"): events from an `AsyncIterable`, encoded as the
 * `text/event-stream` format says, with a comment line as heartbeat while the source is quiet, so that
 * proxies do not close an idle connection and a client that left is noticed by the next write.
 */
import { Readable } from 'node:stream';

/** One event. `data` that is not a string is sent as JSON; a string is split into one `data:` line per line. */
export interface ServerSentEvent {
  data: unknown;
  /** The event type (`addEventListener(type, …)` on the client); `message` when absent. */
  event?: string;
  /** The client sends it back as `Last-Event-ID` when it reconnects. */
  id?: string | number;
  /** How long the client waits before reconnecting, in ms. */
  retry?: number;
}

export interface SseOptions {
  /** A comment line is sent after this many ms without an event (default 15,000; 0: never). */
  heartbeatMs?: number;
}

const DEFAULT_HEARTBEAT_MS = 15_000;
const HEARTBEAT = ':\n\n';
const LINE_BREAK = /\r\n|\r|\n/;

/** One event in the `text/event-stream` format. Throws a `TypeError` on a field that cannot be sent. */
export function encodeEvent(event: ServerSentEvent): string {
  if (typeof event !== 'object' || event === null)
    throw new TypeError(`An event must be an object { data, event?, id?, retry? }, not ${String(event)}`);
  let out = '';
  if (event.event !== undefined) out += `event: ${singleLine('event', event.event)}\n`;
  if (event.id !== undefined) {
    const id = singleLine('id', String(event.id));
    // The client ignores an id holding NUL (HTML §9.2.6): refuse it here rather than lose it silently.
    if (id.includes('\0')) throw new TypeError('An event id cannot contain NUL');
    out += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0)
      throw new TypeError(`An event's retry must be a whole number of ms, not ${String(event.retry)}`);
    out += `retry: ${event.retry}\n`;
  }
  const data = typeof event.data === 'string' ? event.data : (JSON.stringify(event.data) ?? 'null');
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`An event's ${field} cannot contain a line break`);
  return value;
}

/**
 * The events of `source`, encoded, as a `Readable` that reads the next event only when the last was
 * taken, sends heartbeats while the source is quiet, and calls the source's `return()` as soon as it is
 * destroyed (the client left).
 */
export class EventStream extends Readable {
  readonly #iterator: AsyncIterator<ServerSentEvent>;
  readonly #heartbeat: NodeJS.Timeout | null;
  #pulling = false;
  #finished = false;
  /** Something was pushed since the last heartbeat tick. */
  #sent = false;

  constructor(source: AsyncIterable<ServerSentEvent>, options: SseOptions = {}) {
    super({ objectMode: true, highWaterMark: 1 });
    this.#iterator = source[Symbol.asyncIterator]();
    const every = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (!Number.isFinite(every) || every < 0)
      throw new RangeError(`heartbeatMs must be 0 or more, not ${String(every)}`);
    this.#heartbeat = every === 0 ? null : setInterval(() => this.#beat(), every);
    this.#heartbeat?.unref();
  }

  override _read(): void {
    if (this.#pulling || this.#finished) return;
    this.#pulling = true;
    this.#iterator.next().then(
      (step) => {
        this.#pulling = false;
        if (this.destroyed) return;
        if (step.done === true) {
          this.#finished = true;
          this.push(null);
          return;
        }
        let encoded: string;
        try {
          encoded = encodeEvent(step.value);
        } catch (error) {
          this.destroy(error as Error);
          return;
        }
        this.#sent = true;
        this.push(encoded);
      },
      (error: unknown) => {
        this.#pulling = false;
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  #beat(): void {
    // Only while quiet, and never on top of events the client has not taken yet.
    if (!this.#sent && !this.#finished && !this.destroyed && this.readableLength === 0) this.push(HEARTBEAT);
    this.#sent = false;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    if (!this.#finished) {
      this.#finished = true;
      this.#iterator.return?.().catch(() => undefined);
    }
    callback(error);
  }
}

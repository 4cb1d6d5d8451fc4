/**
 * The push form of Server-Sent Events, `res.sse(async (events) => { … })`: the handler's function gets a
 * handle to send events whenever they happen (a message bus, a chat room), and the stream lives as long as
 * that function runs — as Hono's `streamSSE` callback, and as a `@fastify/sse` handler that does not ask to
 * be kept alive. A function that waits for the client to leave awaits `events.closed`.
 */

import type { ServerSentEvent } from './sse.js';
import { EventStream, type SseCloseReason, type SseOptions } from './sse-stream.js';

/**
 * The sending end of one event stream, handed to the function given to `res.sse()`.
 *
 * @example
 * app.get('/rooms/:id/events', (req, res) =>
 *   res.sse(async (events) => {
 *     const room = rooms.get(req.param('id'));
 *     room.members.add(events); // the room calls events.send({ event: 'message', data }) for each message
 *     await events.closed; // the client left, or the room closed the stream
 *     room.members.delete(events);
 *   }),
 * );
 */
export interface SseStream {
  /**
   * Sends one event (`{ data, event?, id?, retry? }`, as the iterable form's). Settles `true` once the
   * event is handed to the transport (written to the response, or to the socket on Arbor's own server),
   * `false` if the stream closed first; it never rejects. Awaiting it is the backpressure a fast producer
   * needs; one that does not wait (a broadcast) is held to `maxUnsentBytes`: past it the client is cut
   * and `closed` settles `'too-slow'`. Throws a `TypeError` at once for an event that cannot be encoded.
   */
  send(event: ServerSentEvent): Promise<boolean>;
  /** Ends the stream once the events sent are handed over. Later sends settle `false`. */
  close(): void;
  /** Settles, never rejects, once the stream takes no more events, with why. */
  readonly closed: Promise<SseCloseReason>;
  /**
   * Aborts once the stream takes no more events (the client left, `close()`, the bound, the function
   * finished): pass it to whatever the function waits on. `req.signal` fires too when the client leaves.
   */
  readonly signal: AbortSignal;
}

/** The function of the push form. The stream ends when it returns (or its promise settles). */
export type SseProducer = (events: SseStream) => void | Promise<void>;

class SseHandle implements SseStream {
  readonly #stream: EventStream;
  // Built when first read: most producers never ask.
  #closed: Promise<SseCloseReason> | null = null;
  #abort: AbortController | null = null;

  constructor(stream: EventStream) {
    this.#stream = stream;
  }

  send(event: ServerSentEvent): Promise<boolean> {
    return this.#stream.send(event);
  }

  close(): void {
    this.#stream.finish();
  }

  get closed(): Promise<SseCloseReason> {
    this.#closed ??= new Promise((resolve) => this.#stream.onClose(resolve));
    return this.#closed;
  }

  get signal(): AbortSignal {
    if (this.#abort === null) {
      const controller = new AbortController();
      this.#abort = controller;
      this.#stream.onClose((reason) =>
        controller.abort(new DOMException(`The event stream closed (${reason})`, 'AbortError')),
      );
    }
    return this.#abort.signal;
  }
}

/**
 * An event stream fed by `producer`, which is called at once. What it throws at once is thrown here (the
 * handler's error, answered as any other); a rejection later fails the stream; its return ends it.
 */
export function pushedEvents(producer: SseProducer, options: SseOptions | undefined): EventStream {
  const stream = new EventStream(null, options);
  let running: unknown;
  try {
    running = producer(new SseHandle(stream));
  } catch (error) {
    stream.fail(error);
    throw error;
  }
  if (typeof (running as PromiseLike<void> | null)?.then === 'function')
    Promise.resolve(running).then(
      () => stream.finish(),
      (error: unknown) => stream.fail(error),
    );
  else stream.finish();
  return stream;
}

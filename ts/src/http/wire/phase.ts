/**
 * Where a connection is, as `body.ts`'s `Chunk` says where a chunked body is. Each phase names the clock
 * the sweep reads for it (from when the phase began). The order matters: the phases up to `Head` read
 * requests, those from `Closing` on neither read nor write.
 */
export const Phase = {
  /** Connected, nothing received yet: `headersTimeout`, then closed without a word. */
  Fresh: 0,
  /** An answer written, nothing of the next request received: `keepAliveTimeout`, then closed. */
  Idle: 1,
  /** Part of a head received: `headersTimeout`, then 408. */
  Head: 2,
  /** A request dispatched, its answer not written: a body still arriving has `requestTimeout`, then 408. */
  Serving: 3,
  /** A streamed answer being written: no clock (a client that stops reading it is the output watch's),
   * and what the client pipelines meanwhile waits, as it does while a request is served. */
  Streaming: 4,
  /** Answers owed past the limit: the socket is paused and nothing is parsed until they drain. */
  Blocked: 5,
  /** Our side ended: the peer's FIN is awaited (what it sends is dropped) for `keepAliveTimeout`. */
  Closing: 6,
  /** The socket is gone. */
  Closed: 7,
  /** Handed over to another protocol (an upgrade): no longer this server's. */
  Detached: 8,
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

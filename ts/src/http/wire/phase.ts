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
  /** Answers owed past the limit: the socket is paused and nothing is parsed until they drain. */
  Blocked: 4,
  /** Our side ended: the peer's FIN is awaited (what it sends is dropped) for `keepAliveTimeout`. */
  Closing: 5,
  /** The socket is gone. */
  Closed: 6,
  /** Handed over to another protocol (an upgrade): no longer this server's. */
  Detached: 7,
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

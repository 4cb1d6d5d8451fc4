/**
 * One raw exchange over TCP, told as what a client sees: the responses in the order they came (100
 * Continue included), and whether the server closed the connection. For comparing the two servers byte
 * for byte where fetch cannot go (malformed heads, pipelines, split deliveries, half-close).
 *
 * The client runs in a process of its own (raw-client.ts), and no outcome rests on a clock: a piece that
 * must follow an answer waits for that answer ({@link afterResponses}), a close is an event, and a
 * connection is called open only once the server has been quiet for `quietMs` *and* the test process,
 * where the servers run, has turned its event loop since. A pause of either process (a collection, a busy
 * core) delays an exchange; it never changes what it saw.
 */
import { parseResponses, type WireResponse } from './http-responses.js';
import { runScript, type ScriptStep } from './raw-client.js';

export { parseResponses, type WireResponse };

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

/** In a payload's pieces: send the next piece only once this many responses (1xx included) are whole. */
export interface AwaitResponses {
  responses: number;
}

/** `afterResponses(1)`: the next piece waits until one response (a 100 Continue, say) has come whole. */
export const afterResponses = (responses: number): AwaitResponses => ({ responses });

/** One write, or pieces written one by one (a wait among them holds back what follows it). */
export type Payload = string | Buffer | (string | Buffer | AwaitResponses)[];

export interface ExchangeOptions {
  /** Half-close after the last write (`socket.end()`): the client sends nothing more. */
  end?: boolean;
  /**
   * Milliseconds between two pieces of an array payload with no wait between them (default: one
   * `setImmediate`). A pause may only give a wrong server room to show itself; what a correct server
   * answers must not depend on it (an answer to wait for is an {@link afterResponses}).
   */
  pauseMs?: number;
  /** Longest wait for the server to close (default 1,500 ms); then the connection is called open. */
  waitMs?: number;
  /**
   * Once the bytes received parse into whole final responses, this much silence (default 250 ms), then a
   * turn of the test process's event loop, means the server is done and keeps the connection open:
   * keep-alive exchanges need not wait `waitMs`.
   */
  quietMs?: number;
  /** Indexes (among final responses) of the answers to HEAD: Content-Length without a body. */
  heads?: number[];
}

/**
 * Sends `payload` on a fresh connection (an array piece by piece) and reads until the server closes, or
 * goes quiet after whole responses, or `waitMs` passes.
 */
export async function exchange(
  port: number,
  payload: Payload,
  options: ExchangeOptions = {},
): Promise<Exchange> {
  const { end = false, pauseMs, waitMs = 1500, quietMs = 250, heads = [] } = options;
  const steps: ScriptStep[] = [];
  let previous: 'bytes' | 'wait' | undefined;
  for (const piece of Array.isArray(payload) ? payload : [payload]) {
    if (typeof piece === 'string' || Buffer.isBuffer(piece)) {
      if (previous === 'bytes') steps.push({ pauseMs: pauseMs ?? null });
      // A string goes out as UTF-8, as `socket.write` sends it; the bytes cross to the client as latin1.
      steps.push({ write: (typeof piece === 'string' ? Buffer.from(piece) : piece).toString('latin1') });
      previous = 'bytes';
    } else {
      steps.push({ responses: piece.responses });
      previous = 'wait';
    }
  }
  if (end) steps.push({ end: true });
  const { raw, closed, reset } = await runScript(port, steps, { waitMs, quietMs, heads });
  const { responses, leftover } = parseResponses(raw, heads);
  return { responses, closed, reset, leftover, raw };
}

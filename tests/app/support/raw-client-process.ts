/**
 * The raw-socket client's own process (started by raw-client.ts with `--import tsx`): it runs scripted
 * exchanges over TCP for the test process, where the servers live, so that a pause of the test process
 * (a collection, a busy core) never stalls the client's reading or its clocks.
 *
 * Messages (JSON over the IPC channel, bytes as latin1 strings):
 * - in `run`: connect to `port`, play `steps`, read until the server closes or the exchange settles;
 * - out `sync`, in `synced`: before calling a connection open, the test process is asked to turn its event
 *   loop twice, so anything its servers had already decided (a close after the last answer) has happened;
 * - out `done` (what was received, and whether and how the server closed) or `failed`.
 */
import { connect } from 'node:net';
import { parseResponses } from './http-responses.js';

/** One step of a script: bytes to send, a pause, the responses to wait for, or a half-close. */
export type ScriptStep =
  | { write: string }
  /** `null`: one `setImmediate`. */
  | { pauseMs: number | null }
  /** Wait until this many responses (interim ones included) have come whole, or the server closes. */
  | { responses: number }
  | { end: true };

export interface RunMessage {
  type: 'run';
  id: number;
  port: number;
  steps: ScriptStep[];
  waitMs: number;
  quietMs: number;
  heads: number[];
}

export type ToClient = RunMessage | { type: 'synced'; id: number };

export type FromClient =
  | { type: 'sync'; id: number }
  | { type: 'done'; id: number; raw: string; closed: boolean; reset: boolean }
  | { type: 'failed'; id: number; message: string };

const send = (message: FromClient) => process.send?.(message);
/** Exchanges waiting for the test process's `synced`, by id. */
const syncing = new Map<number, () => void>();

function run({ id, port, steps, waitMs, quietMs, heads }: RunMessage): void {
  const socket = connect(port, '127.0.0.1');
  // Each write leaves as its own segment: a split delivery is really split.
  socket.setNoDelay(true);
  const chunks: Buffer[] = [];
  /** Bumped on every packet: a verdict of "open" stands only if nothing came while it was checked. */
  let packets = 0;
  let sent = false;
  let done = false;
  let quiet: NodeJS.Timeout | undefined;
  /** Wakes the script when a packet comes or the connection ends. */
  let wake: (() => void) | undefined;
  const deadline = setTimeout(() => confirmOpen(false), waitMs);

  const finish = (closed: boolean, reset: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    clearTimeout(quiet);
    syncing.delete(id);
    socket.destroy();
    wake?.();
    send({ type: 'done', id, raw: Buffer.concat(chunks).toString('latin1'), closed, reset });
  };

  /**
   * The server has gone quiet (or the wait is over): it is open if the test process, once its loop has
   * caught up, has not closed it either. `strict`: only if nothing came meanwhile.
   */
  const confirmOpen = (strict: boolean) => {
    if (done) return;
    const seen = packets;
    syncing.set(id, () => {
      // A close sent before `synced` may be read in the same turn as it: let this loop read it first.
      setTimeout(() => {
        if (done || (strict && packets !== seen)) return;
        finish(false, false);
      }, 10);
    });
    send({ type: 'sync', id });
  };

  /** Whole final responses and every step played: silence from here on may mean the server is done. */
  const settleSoon = () => {
    clearTimeout(quiet);
    if (!sent || done) return;
    const { responses, leftover } = parseResponses(Buffer.concat(chunks), heads);
    if (leftover.byteLength === 0 && responses.some((r) => r.status >= 200)) {
      quiet = setTimeout(() => confirmOpen(true), quietMs);
    }
  };

  const play = async () => {
    for (const step of steps) {
      if (done || socket.destroyed) return;
      if ('write' in step) socket.write(Buffer.from(step.write, 'latin1'));
      else if ('pauseMs' in step) await pause(step.pauseMs);
      else if ('end' in step) socket.end();
      else {
        while (!done && parseResponses(Buffer.concat(chunks), heads).responses.length < step.responses) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      }
    }
    sent = true;
    settleSoon();
  };

  socket.on('connect', () => {
    play().catch((error: Error) => fail(error));
  });
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    packets++;
    wake?.();
    settleSoon();
  });
  socket.on('end', () => finish(true, false));
  socket.on('close', () => finish(true, false));
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true, true);
    else fail(error);
  });

  function fail(error: Error) {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    clearTimeout(quiet);
    syncing.delete(id);
    socket.destroy();
    send({ type: 'failed', id, message: error.message });
  }
}

function pause(ms: number | null): Promise<void> {
  return new Promise((resolve) => (ms === null ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

process.on('message', (message: ToClient) => {
  if (message.type === 'run') run(message);
  else syncing.get(message.id)?.();
});
// The test process is gone: so is its client.
process.on('disconnect', () => process.exit(0));

/**
 * Whether a connection's answers are still leaving the process. An answer flowing out to a slow reader is
 * activity; one that does not move at all is a client that stopped reading, and the sweep cuts it after
 * a while instead of holding its output for ever.
 */
import type { Socket } from 'node:net';

/** The part of a socket's native handle that says how much of the write in progress the kernel took. */
interface WriteQueue {
  _handle?: { writeQueueSize?: number } | null;
}

export class OutputWatch {
  #mark = 0;
  #movedAt: number;

  constructor(now: number) {
    this.#movedAt = now;
  }

  /** Whether output is owed and has not moved for more than `limitMs` (checked on each sweep). */
  stalled(socket: Socket, now: number, limitMs: number): boolean {
    if (socket.writableLength === 0) {
      this.#movedAt = now;
      return false;
    }
    // Writes completed, less what libuv still queues of the one in progress: a large answer is one write,
    // and only the queue shows the kernel taking it piece by piece.
    const queued = (socket as WriteQueue)._handle?.writeQueueSize ?? 0;
    const mark = socket.bytesWritten - socket.writableLength - queued;
    if (mark !== this.#mark) {
      this.#mark = mark;
      this.#movedAt = now;
      return false;
    }
    return now - this.#movedAt > limitMs;
  }
}

/**
 * Writes a streamed body to a socket once its head is out: each chunk framed as the head said, the next
 * one read only when the socket has taken the last (backpressure: a slow client never makes the server
 * hold more than the socket's own buffer and one chunk).
 */
import type { Socket } from 'node:net';
import type { StreamBody } from '../response-stream.js';
import { StreamFraming, type WrittenHead } from './writer.js';

/** How a pump ended. */
export const PumpEnd = {
  /** The whole body was written (and its chunked terminator): the connection may go on. */
  Complete: 0,
  /** The socket went away first: the source was destroyed. */
  ClientLeft: 1,
  /** The source failed: the socket was destroyed, so the client sees a truncated message. */
  Failed: 2,
} as const;
export type PumpEnd = (typeof PumpEnd)[keyof typeof PumpEnd];

const LAST_CHUNK = '0\r\n\r\n';

/**
 * Pumps `body` into `socket`. The promise settles once the body is written, the client has left, or the
 * source failed (its error passed to `onError`, once); it never rejects.
 */
export async function pumpStream(
  socket: Socket,
  body: StreamBody,
  written: Pick<WrittenHead, 'framing' | 'length'>,
  onError: (error: Error) => void,
): Promise<PumpEnd> {
  const source = body.readable;
  const { framing, length } = written;
  /** Bytes still owed under a Content-Length; a body that breaks its promise cuts the connection. */
  let owed = framing === StreamFraming.Length ? length : Number.POSITIVE_INFINITY;
  const gone = () => body.discard();
  // The client leaving while the source is between chunks (an SSE stream waiting for its next event).
  socket.once('close', gone);
  try {
    for await (const chunk of source) {
      if (socket.destroyed) return PumpEnd.ClientLeft;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
      if (bytes.byteLength === 0) continue;
      owed -= bytes.byteLength;
      if (owed < 0) throw new RangeError(`a streamed body ran past its Content-Length of ${length}`);
      let flowing: boolean;
      if (framing === StreamFraming.Chunked) {
        socket.cork();
        socket.write(`${bytes.byteLength.toString(16)}\r\n`, 'latin1');
        socket.write(bytes);
        flowing = socket.write('\r\n', 'latin1');
        socket.uncork();
      } else flowing = socket.write(bytes);
      if (!flowing && !(await drained(socket))) return PumpEnd.ClientLeft;
    }
  } catch (error) {
    if (socket.destroyed) return PumpEnd.ClientLeft;
    socket.destroy();
    body.discard();
    onError(error instanceof Error ? error : new Error(String(error)));
    return PumpEnd.Failed;
  } finally {
    socket.off('close', gone);
  }
  if (socket.destroyed) return PumpEnd.ClientLeft;
  if (framing === StreamFraming.Chunked) socket.write(LAST_CHUNK, 'latin1');
  else if (framing === StreamFraming.Length && owed > 0) {
    socket.destroy();
    onError(new RangeError(`a streamed body ended ${owed} bytes short of its Content-Length of ${length}`));
    return PumpEnd.Failed;
  }
  return PumpEnd.Complete;
}

/** Resolves true when the socket drains, false if it closes first. */
function drained(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      socket.off('drain', onDrain);
      socket.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    socket.on('drain', onDrain);
    socket.on('close', onClose);
  });
}

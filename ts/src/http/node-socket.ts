/**
 * What node:http knows about a connection's responses, read where node's own `clientError` handler reads
 * it: which response the socket is writing, so that an answer written straight to the socket (a protocol
 * error, a refused CONNECT or upgrade) never lands inside, or ahead of, a response still owed.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** node's socket, with the response it is writing. */
type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null };

/**
 * The response `socket` is writing, or `null`. Node writes a connection's responses one at a time, in
 * request order: the first is attached to the socket until it is finished, the pipelined ones wait behind
 * it and are attached in turn, so a connection with no response attached owes none.
 */
export function inProgress(socket: Duplex): ServerResponse | null {
  return (socket as HttpSocket)._httpMessage ?? null;
}

/** Runs `then` once `socket` owes no response of a complete request (now, or as the last one closes). */
export function afterOwed(socket: Duplex, then: () => void): void {
  const res = inProgress(socket);
  if (res === null || !res.req.complete || !socket.writable) then();
  // 'close' follows 'finish' (next tick), when node has already attached the next response, if any; it
  // also comes alone when the connection dies first.
  else res.once('close', () => afterOwed(socket, then));
}

/** Runs `then` after each response `socket` is writing now or has queued behind it. */
export function afterResponses(socket: Duplex, then: () => void): void {
  const res = inProgress(socket);
  if (res === null) return;
  res.once('close', () => {
    then();
    if (inProgress(socket) !== res) afterResponses(socket, then);
  });
}

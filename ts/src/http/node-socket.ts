/**
 * What node:http knows about a connection's responses, read where node's own `clientError` handler reads
 * it: which response the socket is writing, so that an answer written straight to the socket (a protocol
 * error, a refused CONNECT or upgrade) never lands inside, or ahead of, a response still owed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** node's socket, with the response it is writing, and how node:http closes it after the last one. */
type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null; destroySoon?: () => void };

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

/**
 * Ends `socket` (after what it still has to write), then reads and drops what its client goes on sending
 * for `lingerMs` before cutting it: a lingering close, as nginx's. A socket destroyed with bytes unread is
 * reset by the kernel, and a client that writes its whole body before it reads (curl, browsers) sees that
 * reset instead of the answer written just before it. The bound is in time only, as the own server's: a
 * client that has read its answer stops sending, or closes, well within it.
 */
export function closeLingering(socket: Duplex, lingerMs: number): void {
  socket.end();
  socket.resume();
  const cut = setTimeout(() => socket.destroy(), lingerMs);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}

/**
 * Makes the close node:http gives `req`'s connection after its last answer (`Connection: close`) a
 * lingering one ({@link closeLingering}), and lets the request's body flow again so that what still
 * arrives is read and dropped. node:http ends such a connection with `socket.destroySoon()`, which
 * destroys it as soon as the answer is written, unread body and all: that one call is replaced, for this
 * connection only. A body read stopped part-way (a 413) left the request paused, and a paused request
 * stops node reading the socket.
 */
export function lingerAfterLast(req: IncomingMessage, lingerMs: number): void {
  const socket = req.socket as HttpSocket;
  socket.destroySoon = () => closeLingering(socket, lingerMs);
  req.resume();
}

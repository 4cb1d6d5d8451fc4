/**
 * Requests node:http hands over together with their connection, outside its request/response machinery:
 * `CONNECT` (its `'connect'` event) and requests that ask to switch protocols (its `'upgrade'` event).
 * Both are served by the application like any request — routed, through the middleware — and the
 * answer is written straight to the socket, after every response the connection still owes, and then
 * the connection closes; unless a WebSocket route took the connection over (`IncomingInput.upgrade`).
 *
 * Node has removed its own listeners from such a socket: an error on it (a reset) would be uncaught and
 * end the process, so one is attached before anything else.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  type Answering,
  type Dispatch,
  type OutgoingResponse,
  settle,
  type TransportLogger,
} from './dispatch.js';
import { type ErrorShape, HttpError } from './errors.js';
import { inspect, NodeInput } from './node-input.js';
import { afterOwed, closeLingering } from './node-socket.js';
import { crashAnswer, refusal } from './refusal.js';
import { StreamBody } from './response-stream.js';
import { HandOverChannel } from './upgrade-channel.js';
import { pumpStream } from './wire/stream-pump.js';
import { HttpDate, writeResponse } from './wire/writer.js';

/** node:http's `'connect'` and `'upgrade'` listener signature. */
export type DetachedListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** How long a closed-by-us connection may linger while its client still sends: then it is cut. */
export interface DetachedOptions {
  lingerMs: number;
  /** The shape of the refusals written here (the application's). */
  errors?: ErrorShape;
}

/** A request node handed over with its socket, and the channel a WebSocket route may take it by. */
interface Detached {
  req: IncomingMessage;
  socket: Duplex;
  upgrade: HandOverChannel | undefined;
}

export function createDetachedListener(
  dispatch: Dispatch,
  logger: TransportLogger,
  options: DetachedOptions,
): DetachedListener {
  const date = new HttpDate();
  const close = (socket: Duplex) => closeLingering(socket, options.lingerMs);
  /** Writes `response` as the connection's only answer, then closes it. */
  const writeAndClose = ({ req, socket }: Detached, response: OutgoingResponse) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const written = writeResponse(socket as Socket, response, {
      keepAlive: false,
      head: req.method === 'HEAD',
      idleSeconds: 0,
      date: date.at(Date.now()),
      // The connection closes after this answer: a streamed body is delimited by that close.
      http11: false,
    });
    const body = response.getBody();
    if (written.framing === null || !(body instanceof StreamBody)) close(socket);
    else
      pumpStream(socket as Socket, body, written, (error) =>
        logger.error(`a streamed response failed midway: ${error.message}`, error),
      ).then(() => close(socket));
  };
  const answering: Answering<Detached, NodeInput> = {
    // A WebSocket route that took the connection answers on it itself.
    write: (detached, _input, response) => {
      if (detached.upgrade?.taken !== true) writeAndClose(detached, response);
    },
    fail: (detached) => writeAndClose(detached, crashAnswer(options.errors)),
    loggerOf: () => logger,
  };
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const serve = () => {
      const inspected = inspect(req);
      if (inspected instanceof HttpError) {
        writeAndClose({ req, socket, upgrade: undefined }, refusal(inspected, options.errors));
        return;
      }
      const upgrade =
        req.method === 'CONNECT'
          ? undefined
          : new HandOverChannel(req.headers.upgrade ?? '', () => ({ socket, head }));
      // A CONNECT request's body, if any, is never read: the connection closes after the answer. An
      // upgrade request's body is not read either: what follows its head belongs to the new protocol.
      settle(dispatch, new NodeInput(req, false, upgrade), { req, socket, upgrade }, answering);
    };
    // The connection may still owe answers to requests pipelined before this one: they go first.
    afterOwed(socket, serve);
  };
}

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
import type { Dispatch, OutgoingResponse, TransportLogger } from './dispatch.js';
import { errorBody, HttpError } from './errors.js';
import { inspect, NodeInput } from './node-input.js';
import { afterOwed } from './node-socket.js';
import { StreamBody } from './stream-body.js';
import { HandOverChannel } from './upgrade-channel.js';
import { pumpStream } from './wire/stream-pump.js';
import { errorAnswer, HttpDate, writeResponse } from './wire/writer.js';

/** node:http's `'connect'` and `'upgrade'` listener signature. */
export type DetachedListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** How long a closed-by-us connection may linger while its client still sends: then it is cut. */
export interface DetachedOptions {
  lingerMs: number;
}

export function createDetachedListener(
  dispatch: Dispatch,
  logger: TransportLogger,
  options: DetachedOptions,
): DetachedListener {
  const date = new HttpDate();
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const close = () => {
      socket.end();
      // What the client goes on sending is read and dropped, for a bounded time (a lingering close).
      socket.resume();
      setTimeout(() => socket.destroy(), options.lingerMs).unref();
    };
    const write = (response: OutgoingResponse) => {
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
      if (written.framing === null || !(body instanceof StreamBody)) close();
      else
        pumpStream(socket as Socket, body, written, (error) =>
          logger.error(`a streamed response failed midway: ${error.message}`, error),
        ).then(close);
    };
    const fail = (error: unknown) => {
      logger.error(
        `could not write the response: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
      write(errorAnswer(500, JSON.stringify(errorBody(500))));
    };
    const serve = () => {
      const inspected = inspect(req);
      if (inspected instanceof HttpError) {
        write(errorAnswer(inspected.status, JSON.stringify(errorBody(inspected.status, inspected.message))));
        return;
      }
      const upgrade =
        req.method === 'CONNECT'
          ? undefined
          : new HandOverChannel(req.headers.upgrade ?? '', () => ({ socket, head }));
      // A CONNECT request's body, if any, is never read: the connection closes after the answer. An
      // upgrade request's body is not read either: what follows its head belongs to the new protocol.
      const input = new NodeInput(req, false, upgrade);
      let outcome: OutgoingResponse | Promise<OutgoingResponse>;
      try {
        outcome = dispatch(input);
      } catch (error) {
        fail(error);
        return;
      }
      const answer = (response: OutgoingResponse) => {
        if (upgrade?.taken === true) return;
        try {
          write(response);
        } catch (error) {
          fail(error);
        }
      };
      if (outcome instanceof Promise) outcome.then(answer, fail);
      else answer(outcome);
    };
    // The connection may still owe answers to requests pipelined before this one: they go first.
    afterOwed(socket, serve);
  };
}

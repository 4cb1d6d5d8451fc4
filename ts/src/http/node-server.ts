/**
 * The node:http server behind `app.run()` with `server: 'node'`: protocol errors answered instead of dropped, and a graceful
 * close (no new connections; in-flight requests finish; idle keep-alive connections are closed at once,
 * busy ones as soon as their response is out; anything left after `graceMs` is cut).
 *
 * Protocol errors (docs/framework/errors.md, "Status codes"): a request node's parser refuses gets a JSON error
 * and the connection closes. When it was pipelined behind valid requests, their responses go out first,
 * in order, and the error after them — never over a response in progress.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import { http, nodeBuiltin } from '../builtins.js';
import {
  closeGracefully,
  type HttpsArborServer,
  type NodeArborServer,
  type RefusalOptions,
  type ServerOptions,
  serverLimits,
} from './app-server.js';
import { checkingInterval } from './checking-interval.js';
import { ARBOR_ERRORS, HttpError } from './errors.js';
import type { DetachedListener } from './node-detached.js';
import { refuse } from './node-listener.js';
import { afterOwed, afterResponses, inProgress } from './node-socket.js';
import { refusal } from './refusal.js';
import { HttpDate, writeLast } from './wire/writer.js';

/** node:http parser errors → status (anything else: 400). */
const PARSER_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_URI_TOO_LONG: 414,
  HPE_INVALID_METHOD: 501,
  HPE_UNEXPECTED_CONTENT_LENGTH: 400,
  // node's own name for "the client did not send the request (or its head) in time".
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** An HTTP token (RFC 9110 §5.6.2): what a method name is made of. */
const TCHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;

/**
 * `listener` serves requests; `detached` serves the ones node hands over with their connection (CONNECT,
 * and requests asking to upgrade: see node-detached.ts).
 */
export function createNodeServer(
  listener: RequestListener,
  detached: DetachedListener,
  options: ServerOptions & RefusalOptions & { tls?: SecureContextOptions & TlsOptions } = {},
): NodeArborServer | HttpsArborServer {
  const { maxHeaderSize, requestTimeout, headersTimeout, keepAliveTimeout } = serverLimits(options);
  const errors = options.errors ?? ARBOR_ERRORS;
  let closing = false;
  // Every request passes here first (one listener on 'request'): nothing is tracked per request, since
  // node already knows which response each connection is writing (see `inProgress`).
  const onRequest: RequestListener = (req, res) => {
    // While closing, a connection that finishes its response is not kept alive for another request.
    if (closing) res.setHeader('Connection', 'close');
    listener(req, res);
  };

  const httpOptions = {
    maxHeaderSize,
    requestTimeout,
    headersTimeout,
    connectionsCheckingInterval: checkingInterval(headersTimeout),
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3), and the listener
    // never touches its stream then: node (24.12+; older versions ignore the option) hands it over
    // already ended instead of resuming, reading and closing an empty stream after the response, which
    // is several nextTick turns and events per request.
    optimizeEmptyRequests: true,
    // A missing Host is refused by the listener's checks, with the JSON error body every refusal has;
    // node's own refusal has an empty body.
    requireHostHeader: false,
  };
  // node:https is loaded only by an application that serves TLS (it loads node:tls).
  const server = (
    options.tls === undefined
      ? Object.assign(http.createServer(httpOptions, onRequest), { kind: 'node' as const })
      : Object.assign(
          nodeBuiltin<typeof import('node:https')>('node:https').createServer(
            { ...options.tls, ...httpOptions },
            onRequest,
          ),
          { kind: 'https' as const },
        )
  ) as NodeArborServer | HttpsArborServer;
  server.keepAliveTimeout = keepAliveTimeout;
  /** Open connections, for a graceful close (per connection, not per request): the sockets node:http
   * writes responses to, which over TLS are the TLS sockets. */
  const sockets = new Set<Socket>();
  const date = new HttpDate();
  server.on(options.tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  server.on(
    'clientError',
    (error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      let status = PARSER_STATUS[error.code ?? ''] ?? 400;
      // An unknown but well-formed method token (`FOO /`) is "not implemented"; garbage is a bad request.
      if (status === 501 && !startsWithMethodToken(error.rawPacket, error.bytesParsed)) status = 400;
      const answer = () => {
        if (!socket.writable) {
          socket.destroy();
          return;
        }
        writeLast(socket, refusal(new HttpError(status), errors), date.at(Date.now()));
        socket.end();
      };
      // The request that failed may already be answered in full (the listener refused its head, then its
      // body could not be framed): one request, one answer, so the connection just closes after it.
      const owed = inProgress(socket);
      if (owed !== null && !owed.req.complete && owed.writableEnded) {
        socket.end();
        return;
      }
      // The request that failed may have reached the listener already (a timed-out body): its response, if
      // any, is dropped. Earlier, complete requests are answered first; node writes their responses in order.
      afterOwed(socket, answer);
    },
  );

  // An expectation other than 100-continue (RFC 9110 §10.1.1): 417 with the JSON error body, and the
  // connection closes, as for every request refused before routing; node's default is an empty 417.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    refuse(res, new HttpError(417), errors, keepAliveTimeout);
  });

  // CONNECT is routed like any other method (405 with `Allow` on a known path, 501 for a tunnel) instead
  // of node's default of closing the connection without a word; this server is no proxy, so it never
  // tunnels. Requests asking to upgrade are routed too: a WebSocket route takes the connection over.
  server.on('connect', detached);
  server.on('upgrade', detached);

  server.closeGracefully = (graceMs = 10_000) =>
    closeGracefully(server, graceMs, {
      begin: () => {
        closing = true;
        server.closeIdleConnections();
        // Responses in progress were started keep-alive: close their connections once they are out.
        for (const socket of sockets) afterResponses(socket, () => server.closeIdleConnections());
      },
      cut: () => server.closeAllConnections(),
    });
  return server;
}

/**
 * Whether the request that failed starts with a method token and a space. `rawPacket` is the whole chunk
 * node was parsing, which may begin with earlier, valid pipelined requests; `bytesParsed` is where the
 * parser stopped, inside the offending method, so the token is read back from there.
 */
function startsWithMethodToken(packet: Buffer | undefined, stoppedAt: number | undefined): boolean {
  if (packet === undefined) return false;
  const text = packet.toString('latin1');
  let start = Math.min(stoppedAt ?? 0, text.length);
  while (start > 0 && TCHAR.test(text[start - 1] ?? '')) start--;
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(text.slice(start));
}

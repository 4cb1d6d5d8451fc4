/**
 * The node:http2 server behind `app.run()` with `http2: true`: HTTP/2 through node's compatibility API,
 * so the same request listener serves it. With `tls`, clients that do not speak HTTP/2 (no ALPN `h2`) are
 * served HTTP/1.1 on the same port (`allowHTTP1`); without it, cleartext HTTP/2 with prior knowledge (h2c).
 *
 * A graceful close sends each session a GOAWAY (its open streams finish, no new ones start), ends idle
 * HTTP/1.1 connections, closes the others after their response, and cuts what is left after `graceMs`.
 *
 * `headersTimeout` and `requestTimeout` hold on both protocols: the HTTP/1.1 fallback is node:http's own
 * connection handling, told the limits here (408, then the connection closes); HTTP/2 streams are
 * watched by node-http2-deadlines.ts, since node:http2 has no such timeouts.
 */
import type { RequestListener } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import { nodeBuiltin } from '../builtins.js';
import {
  closeGracefully,
  type Http2ArborServer,
  type RefusalOptions,
  type ServerOptions,
  serverLimits,
} from './app-server.js';
import { checkingInterval } from './checking-interval.js';
import type { DetachedListener } from './node-detached.js';
import { Http2Deadlines } from './node-http2-deadlines.js';
import { afterResponses, inProgress } from './node-socket.js';

export function createHttp2Server(
  listener: RequestListener,
  detached: DetachedListener,
  options: ServerOptions & RefusalOptions & { tls?: SecureContextOptions & TlsOptions } = {},
): Http2ArborServer {
  // Loaded only by an application that serves HTTP/2.
  const http2 = nodeBuiltin<typeof import('node:http2')>('node:http2');
  const { maxHeaderSize, keepAliveTimeout, headersTimeout, requestTimeout } = serverLimits(options);
  const deadlines = new Http2Deadlines({ headersTimeout, requestTimeout, errors: options.errors });
  let closing = false;
  // The compatibility API's request and response are what the listener reads and writes (method, url,
  // headers, rawHeaders, socket; writeHead, end): node:http's listener type is the nearest to name them.
  const onRequest = (req: Http2ServerRequest, res: Http2ServerResponse) => {
    if (req.httpVersionMajor === 2) deadlines.request(req, res);
    else if (closing) res.setHeader('Connection', 'close');
    (listener as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void)(req, res);
  };
  // A head larger than `maxHeaderSize` is refused by node:http2 itself (a stream reset, HTTP/2's answer).
  const settings = { maxHeaderListSize: maxHeaderSize };
  const server = (options.tls === undefined
    ? http2.createServer({ settings }, onRequest)
    : http2.createSecureServer(
        { ...options.tls, settings, allowHTTP1: true },
        onRequest,
      )) as unknown as Http2ArborServer;
  Object.assign(server, { kind: 'http2' as const });
  if (options.tls !== undefined) {
    // The HTTP/1.1 fallback is node:http's connection handling, which reads its limits from these fields
    // (node's defaults otherwise: 60 s for the head, 300 s for the request, checked every 30 s). The
    // checking period is read once, when the server starts listening.
    Object.assign(server, {
      maxHeaderSize,
      headersTimeout,
      requestTimeout,
      keepAliveTimeout,
      connectionsCheckingInterval: checkingInterval(headersTimeout),
    });
  }
  server.on('listening', () => deadlines.start());
  server.on('close', () => deadlines.stop());
  server.on('upgrade', detached);

  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    deadlines.session(session);
    session.once('close', () => sessions.delete(session));
    // An idle session (no frame either way) is closed as an idle keep-alive connection would be.
    session.setTimeout(keepAliveTimeout, () => session.close());
  });
  /** HTTP/1.1 connections (the ALPN fallback, so only over TLS), for a graceful close. */
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket: Socket) => {
    if ((socket as Socket & { alpnProtocol?: string | false }).alpnProtocol === 'h2') return;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  server.closeGracefully = (graceMs = 10_000) =>
    closeGracefully(server, graceMs, {
      begin: () => {
        closing = true;
        for (const session of sessions) session.close();
        for (const socket of sockets) {
          if (inProgress(socket) === null) socket.end();
          else afterResponses(socket, () => inProgress(socket) === null && socket.end());
        }
      },
      cut: () => {
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
      },
    });
  return server;
}

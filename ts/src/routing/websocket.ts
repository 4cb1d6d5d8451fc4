/**
 * WebSocket routes (`app.ws(pattern, handler)`): a GET route whose handler, once the route's middleware has
 * let the request through, hands the connection to `ws` for the handshake and then calls the user's
 * handler with the open WebSocket and the Arbor request.
 *
 * The connection comes from the transport's upgrade channel (`req.upgrade`, see `IncomingInput.upgrade`):
 * both servers route a request that asks to switch protocols through the kernel like any other, so the
 * middleware (auth, throttle) answers with a plain HTTP status before any WebSocket exists. A request
 * without a WebSocket upgrade gets 426.
 */
import type { Duplex } from 'node:stream';
import type { PerMessageDeflateOptions, WebSocket, WebSocketServer } from 'ws';
import { lazyPackage } from '../builtins.js';
import { HttpError } from '../core/errors.js';
import type { HandlerFn } from '../core/handler.js';
import type { AnyParams, Bindings, BoundArgs, PathParams } from '../core/params.js';
import type { Request } from '../core/request.js';
import type { WebSocketHub } from '../helpers/websocket-hub.js';

/**
 * A WebSocket route's handler: the open WebSocket (`ws`'s), and the request that opened it — parameters,
 * query, headers and whatever the middleware attached (`req.get('user')`). Bound parameters (`app.bind`)
 * follow, as for HTTP handlers. What it returns is ignored, but a promise is awaited: a throw (or a
 * rejection) closes the socket with 1011 and is logged through the application's logger, as a failed
 * request is. Attach the socket's listeners before the first `await`: a message that arrives before
 * they are attached is lost.
 *
 * @example
 * app.ws('/rooms/:room', (socket, req) => {
 *   socket.send(`welcome to ${req.param('room')}`);
 *   socket.on('message', (data) => socket.send(data));
 * });
 */
export type WebSocketHandler<
  P extends AnyParams = AnyParams,
  // biome-ignore lint/suspicious/noExplicitAny: bound values are whatever the resolvers return.
  Bound extends unknown[] = any[],
  // `unknown`, not `void | Promise<void>`: `(socket) => socket.on('message', …)` returns the socket.
> = (socket: WebSocket, req: Request<P>, ...bound: Bound) => unknown;

/** The handler of a WebSocket route registered with `pattern`, bindings `B`. */
export type PatternWebSocketHandler<Pattern extends string, B extends Bindings> = WebSocketHandler<
  PathParams<Pattern>,
  BoundArgs<Pattern, B>
>;

/**
 * Options of one WebSocket route (`app.ws(pattern, handler, options)`).
 *
 * @example
 * app.ws('/feed', handler, { maxPayload: 64 * 1024, handleProtocols: (offered) => offered.has('v2') ? 'v2' : false });
 */
export interface WebSocketOptions {
  /**
   * The largest message accepted, in bytes (default 1 MiB, as the HTTP body limit; `ws`'s own default is
   * 100 MiB). A larger one closes the connection with 1009.
   */
  maxPayload?: number;
  /**
   * permessage-deflate compression (default off, as in `ws`: it costs memory and CPU per connection).
   * `true`, or `ws`'s `PerMessageDeflateOptions`.
   */
  perMessageDeflate?: boolean | PerMessageDeflateOptions;
  /**
   * Picks the subprotocol among those the client offers (`Sec-WebSocket-Protocol`); `false` for none.
   * Default: the first offered.
   */
  handleProtocols?: (offered: Set<string>, req: Request) => string | false;
}

/** `ws`'s WebSocket, the type a {@link WebSocketHandler} receives. */
export type { WebSocket };

/** 1 MiB: the default {@link WebSocketOptions.maxPayload}. */
export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** Close code 1011: the server met an unexpected condition (RFC 6455 §7.4.1). */
export const INTERNAL_ERROR = 1011;

const webSocketRoutes = new WeakSet<HandlerFn>();

/** Whether a route's handler is a WebSocket route's (the OpenAPI exporter documents those apart). */
export function isWebSocketRoute(handler: HandlerFn): boolean {
  return webSocketRoutes.has(handler);
}

/**
 * The route handler `app.ws()` registers: 426 without a WebSocket upgrade, 503 once the application is
 * shutting down, else the handshake (`ws`'s answer to a malformed one is its own 400) and `handler`.
 * The kernel's answer after a handshake (`101`, for the request log) is never written: the connection
 * belongs to the WebSocket.
 */
export function webSocketRoute(
  handler: WebSocketHandler,
  hub: WebSocketHub,
  options: WebSocketOptions = {},
): HandlerFn {
  let server: WebSocketServer | null = null;
  const route: HandlerFn = async (req, res, ...bound) => {
    const channel = req.upgrade;
    if (channel === null || req.method !== 'GET' || channel.protocol.trim().toLowerCase() !== 'websocket')
      throw upgradeRequired(req);
    if (hub.closing) throw new HttpError(503, 'The server is shutting down');
    server ??= createServer(options);
    // The handler is called inside ws's callback, synchronously after the 101: a first frame that came
    // with the head (or right behind it) is emitted on the next tick, and must find the handler's
    // listeners there. Its outcome is awaited after.
    const opened = await handshake(server, req, channel.take(), (socket) => {
      hub.add(socket);
      // A client's protocol error (a bad frame, a message past maxPayload) is an 'error' event before ws
      // closes the connection with the matching code; unheard, it would be an uncaught exception.
      socket.on('error', ignore);
      return handler(socket, req, ...bound);
    });
    if (opened === null) return res.status(400);
    try {
      await opened.outcome();
    } catch (error) {
      opened.socket.close(INTERNAL_ERROR, 'Internal Error');
      throw error; // the kernel logs it, with the request's method, path and id
    }
    return res.status(101);
  };
  webSocketRoutes.add(route);
  return route;
}

/**
 * The 426 a WebSocket route answers to a request that does not ask for a WebSocket (RFC 9110 §15.5.22),
 * with `Connection: Upgrade` beside `Upgrade` as §7.8 wants. node:http takes a `Connection` field set by
 * the application as the connection's fate (one without `close` keeps it open), so a client's `close` is
 * repeated in it.
 */
function upgradeRequired(req: Request): HttpError {
  const close = /(?:^|,)\s*close\s*(?:,|$)/i.test(req.header('connection') ?? '');
  return new HttpError(426, 'This is a WebSocket endpoint: connect with a WebSocket client', {
    headers: { Upgrade: 'websocket', Connection: close ? 'Upgrade, close' : 'Upgrade' },
  });
}

function ignore(): void {}

/** What Arbor uses of `ws`'s exports. */
interface WsModule {
  WebSocketServer: typeof WebSocketServer;
}

let wsModule: WsModule | undefined;

/** `ws`, loaded at the first handshake: it loads TLS, zlib and crypto, which an import of Arbor should not. */
function loadWs(): WsModule {
  wsModule ??= lazyPackage<WsModule>('ws')();
  return wsModule;
}

/** The Arbor request behind each node-like request handed to `ws` (for `handleProtocols`). */
const arborRequests = new WeakMap<object, Request>();

function createServer(options: WebSocketOptions): WebSocketServer {
  const { handleProtocols } = options;
  return new (loadWs().WebSocketServer)({
    noServer: true,
    // The application's hub tracks the open sockets: one set per application, not one per route.
    clientTracking: false,
    maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD,
    perMessageDeflate: options.perMessageDeflate ?? false,
    ...(handleProtocols === undefined
      ? {}
      : {
          handleProtocols: (offered: Set<string>, request: object) => {
            const req = arborRequests.get(request);
            return req === undefined ? false : handleProtocols(offered, req);
          },
        }),
  });
}

/** An open WebSocket and what its handler returned (thrown errors rethrown when called). */
interface Opened {
  socket: WebSocket;
  outcome: () => unknown;
}

/**
 * `ws`'s handshake on the taken connection, then `open` with the WebSocket (in `ws`'s callback). Resolves
 * with both, or `null` when `ws` refused the handshake (it then writes its 400 with `Connection: close` and
 * destroys the socket, without calling back: the socket's close is how that is seen) or the client left.
 */
function handshake(
  server: WebSocketServer,
  req: Request,
  { socket, head }: { socket: Duplex; head: Buffer },
  open: (ws: WebSocket) => unknown,
): Promise<Opened | null> {
  if (socket.destroyed) return Promise.resolve(null);
  return new Promise((resolve) => {
    const refused = () => resolve(null);
    socket.once('close', refused);
    server.handleUpgrade(nodeRequest(req) as never, socket, head, (ws) => {
      socket.off('close', refused);
      try {
        const result = open(ws);
        resolve({ socket: ws, outcome: () => result });
      } catch (error) {
        resolve({
          socket: ws,
          outcome: () => {
            throw error;
          },
        });
      }
    });
  });
}

/**
 * What `ws` reads of node's `IncomingMessage`: the method, the target and the headers (lower-case names).
 * Repeated fields arrive joined with `, `, as node joins them.
 */
function nodeRequest(req: Request): { method: string; url: string; headers: Record<string, string> } {
  const request = { method: req.method, url: req.getUri().toString(), headers: req.headers() };
  arborRequests.set(request, req);
  return request;
}

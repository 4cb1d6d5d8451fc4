/**
 * What `app.run()` and `app.createServer()` return, whichever server is behind it: a `net.Server` (listen,
 * address, close, its events) that also closes gracefully and says which server it is, and the options
 * every server takes.
 */

import type { Server as HttpServer } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import type { Server } from 'node:net';
import type { ErrorShape } from './errors.js';

/**
 * Limits every server applies, whichever serves (`server` option of `run()` and `createServer()`): the
 * size of a request head and how long a client may take.
 *
 * @example
 * await app.run({ port: 3000, requestTimeout: 30_000, keepAliveTimeout: 10_000 });
 */
export interface ServerOptions {
  /** Longest request head accepted (request line + headers); beyond it: 431. Default 16 KiB. */
  maxHeaderSize?: number;
  /** Milliseconds a client has to send a whole request (head and body); then 408. Default 300,000. */
  requestTimeout?: number;
  /** Milliseconds a client has to send the request head; then 408. Default 60,000. */
  headersTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open. Default 5,000. */
  keepAliveTimeout?: number;
}

/**
 * What a server's own refusals (a malformed head, 408, 431, …) look like: the application's error shape
 * (`{ error, code }` unless `problemDetails`).
 */
export interface RefusalOptions {
  errors?: ErrorShape;
}

/**
 * Which server serves: node:http (`'node'`, the default), node:https (`'https'`, with `tls`), node:http2
 * (`'http2'`, with `http2: true`) or Arbor's own HTTP/1.1 server (`'arbor'`).
 */
export type ServerKind = 'node' | 'https' | 'http2' | 'arbor';

/** A server with `closeGracefully()` and its `kind`: which server it is (`'node'`, `'https'`, `'http2'` or `'arbor'`). */
export interface ArborServer extends Server {
  readonly kind: ServerKind;
  /**
   * Stops accepting connections; requests already received are answered, then their connections close;
   * idle connections close at once; whatever is left after `graceMs` (default 10,000) is cut.
   */
  closeGracefully(graceMs?: number): Promise<void>;
}

/** node:http's `Server` (the default server). */
export type NodeArborServer = HttpServer & ArborServer & { readonly kind: 'node' };
/** node:https's `Server` (`tls` given). */
export type HttpsArborServer = HttpsServer & ArborServer & { readonly kind: 'https' };
/** node:http2's server (`http2: true`): secure with `tls`, cleartext (h2c) without. */
export type Http2ArborServer = (Http2SecureServer | Http2Server) & ArborServer & { readonly kind: 'http2' };
/** Arbor's own HTTP/1.1 server on `node:net` (`server: 'arbor'`). */
export type WireArborServer = Server & ArborServer & { readonly kind: 'arbor' };

/**
 * What `run()` and `createServer()` return: narrow on `kind` to reach the server's own API.
 *
 * @example
 * const server = app.createServer();
 * if (server.kind === 'node') server.headersTimeout = 10_000;
 */
export type AppServer = NodeArborServer | HttpsArborServer | Http2ArborServer | WireArborServer;

/** The options with their defaults; the head timeout never exceeds the request timeout. */
export function serverLimits(options: ServerOptions): Required<ServerOptions> {
  const requestTimeout = options.requestTimeout ?? 300_000;
  return {
    maxHeaderSize: options.maxHeaderSize ?? 16 * 1024,
    requestTimeout,
    headersTimeout: Math.min(options.headersTimeout ?? 60_000, requestTimeout),
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
  };
}

/** How one server closes: what it does at once, and what it cuts when the grace period is over. */
export interface Closing {
  /** Called first: stop keeping connections alive, close the idle ones, end others after their answer. */
  begin(): void;
  /** Called after `graceMs` if connections are still open: destroy them. */
  cut(): void;
}

/**
 * The graceful close every server shares: `server.close()` (no new connections; resolves once the last
 * one has closed), `closing.begin()` at once, `closing.cut()` if the grace period ends first.
 */
export function closeGracefully(server: Server, graceMs: number, closing: Closing): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (!server.listening) {
      closing.begin();
      resolve();
      return;
    }
    const timer = setTimeout(() => closing.cut(), graceMs);
    timer.unref();
    server.close((error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    });
    closing.begin();
  });
}

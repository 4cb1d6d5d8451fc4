/**
 * What `app.run()` and `app.createServer()` return, whichever server is behind it: a `net.Server` (listen,
 * address, close, its events) that also closes gracefully, and the options both servers take.
 */
import type { Server } from 'node:net';

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

/** A server with `closeGracefully()`. */
export interface ArborServer extends Server {
  /**
   * Stops accepting connections; requests already received are answered, then their connections close;
   * idle connections close at once; whatever is left after `graceMs` (default 10,000) is cut.
   */
  closeGracefully(graceMs?: number): Promise<void>;
}

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

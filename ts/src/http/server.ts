/**
 * The node:http server behind `app.run()`: protocol errors answered instead of dropped, and a graceful
 * close (no new connections; in-flight requests finish; idle keep-alive connections are closed at once,
 * busy ones as soon as their response is out; anything left after `graceMs` is cut).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from '../app/errors.js';

export interface ServerOptions {
  /** Longest request head node accepts (request line + headers); beyond it: 431. Default 16 KiB. */
  maxHeaderSize?: number;
}

/** node:http parser errors → status (anything else: 400). */
const PARSER_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_URI_TOO_LONG: 414,
  HPE_INVALID_METHOD: 501,
  HPE_UNEXPECTED_CONTENT_LENGTH: 400,
};

/** A `Server` with `closeGracefully()`. */
export interface ArborServer extends Server {
  closeGracefully(graceMs?: number): Promise<void>;
}

export function createArborServer(listener: RequestListener, options: ServerOptions = {}): ArborServer {
  const server = createServer({ maxHeaderSize: options.maxHeaderSize ?? 16 * 1024 }, listener) as ArborServer;
  let closing = false;

  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    let status = PARSER_STATUS[error.code ?? ''] ?? 400;
    // An unknown but well-formed method token (`FOO /`) is "not implemented"; garbage is a bad request.
    if (status === 501 && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(error.rawPacket?.toString('latin1') ?? ''))
      status = 400;
    const body = JSON.stringify(errorBody(status));
    socket.end(
      `HTTP/1.1 ${status} ${errorBody(status).error}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  // While closing, a connection that finishes its response is not kept alive for another request.
  server.on('request', (_req, res) => {
    if (closing) res.setHeader('Connection', 'close');
    res.on('finish', () => {
      if (closing) server.closeIdleConnections();
    });
  });

  server.closeGracefully = (graceMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      closing = true;
      if (!server.listening) {
        resolve();
        return;
      }
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      server.close((error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      });
      server.closeIdleConnections();
    });
  return server;
}

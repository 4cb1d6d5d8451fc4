/**
 * Arbor's own HTTP/1.1 server, on `node:net`: the server behind `app.run()` when the application asks
 * for it (`server: 'arbor'`). It reads requests straight into the kernel's input and writes each
 * answer in one socket write, without node:http's per-request `IncomingMessage` and `ServerResponse`
 * streams; docs/framework/servers.md ("Arbor's own server") says what it does and does not do (no TLS, no HTTP/2).
 */
import type { Socket } from 'node:net';
import { net } from '../../builtins.js';
import {
  closeGracefully,
  type RefusalOptions,
  type ServerOptions,
  serverLimits,
  type WireArborServer,
} from '../app-server.js';
import type { Dispatch, TransportLogger } from '../dispatch.js';
import { ARBOR_ERRORS } from '../errors.js';
import { WireConnection } from './connection.js';
import type { WireSettings } from './settings.js';
import { HttpDate } from './writer.js';

export function createWireServer(
  dispatch: Dispatch,
  logger: TransportLogger,
  options: ServerOptions & RefusalOptions = {},
): WireArborServer {
  const settings: WireSettings = {
    ...serverLimits(options),
    dispatch,
    logger,
    errors: options.errors ?? ARBOR_ERRORS,
    date: new HttpDate(),
    closing: false,
  };
  const connections = new Set<WireConnection>();
  const server = Object.assign(
    net.createServer(
      // Half-open: a client may send its request and end its side; the answer still goes out (as node:http).
      { allowHalfOpen: true, noDelay: true },
      (socket: Socket) => {
        // Released when its socket closes, or when it is handed over to another protocol.
        connections.add(new WireConnection(socket, settings, (gone) => connections.delete(gone)));
      },
    ),
    { kind: 'arbor' as const },
  ) as WireArborServer;

  // Deadlines are checked by one sweep over the connections, not a timer per request.
  const period = Math.max(50, Math.min(1_000, Math.floor(settings.headersTimeout / 4)));
  let sweep: NodeJS.Timeout | undefined;
  server.on('listening', () => {
    sweep = setInterval(() => {
      const now = Date.now();
      for (const connection of connections) connection.check(now);
    }, period);
    sweep.unref();
  });
  server.on('close', () => clearInterval(sweep));

  server.closeGracefully = (graceMs = 10_000) =>
    closeGracefully(server, graceMs, {
      begin: () => {
        settings.closing = true;
        for (const connection of connections) connection.closeWhenIdle();
      },
      cut: () => {
        for (const connection of connections) connection.socket.destroy();
      },
    });
  return server;
}

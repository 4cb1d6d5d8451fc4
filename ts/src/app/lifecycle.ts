/**
 * The server lifecycle: the node:http server an application serves on, started by `run()` (port, banner,
 * SIGTERM/SIGINT) and closed gracefully by `close()`.
 */
import type { RequestListener } from 'node:http';
import { type ArborServer, createArborServer, type ServerOptions } from '../http/server.js';
import { type ApplicationConfig, portFromEnv } from './config.js';
import type { Logger } from './logger.js';

export class ServerLifecycle {
  readonly #config: Readonly<ApplicationConfig>;
  readonly #logger: Logger;
  #server: ArborServer | null = null;

  constructor(config: Readonly<ApplicationConfig>, logger: Logger) {
    this.#config = config;
    this.#logger = logger;
  }

  /** A node:http server for `listener`, not yet listening (timeouts from the configuration). */
  create(listener: RequestListener): ArborServer {
    const { requestTimeout, headersTimeout } = this.#config;
    const options: ServerOptions = {
      ...(requestTimeout === undefined ? {} : { requestTimeout }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
    };
    return createArborServer(listener, options);
  }

  /**
   * Creates the server and listens on `config.port`, else `PORT`, else 3000 — unless `ARBOR_NO_LISTEN=1`
   * (the CLI's mode). `close` is what a signal calls before the process exits.
   */
  start(listener: RequestListener, close: () => Promise<void>): ArborServer {
    const server = this.create(listener);
    this.#server = server;
    if (process.env.ARBOR_NO_LISTEN === '1') return server;
    const port = this.#config.port ?? portFromEnv() ?? 3000;
    server.listen(port, this.#config.host, () => {
      const address = server.address();
      const shown = typeof address === 'object' && address !== null ? address.port : port;
      this.#logger.info(`Arbor listening on http://${this.#config.host ?? 'localhost'}:${shown}`);
    });
    const stop = () => {
      void close().then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    server.once('close', () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    });
    return server;
  }

  /** Closes the server `start()` created: in-flight requests finish, new connections are refused. */
  async close(graceMs?: number): Promise<void> {
    await this.#server?.closeGracefully(graceMs);
  }
}

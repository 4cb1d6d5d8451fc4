/**
 * The server lifecycle: the server an application serves on (Arbor's own HTTP/1.1 server, or node:http
 * with `server: 'node'`), started by `run()` (port, banner, SIGTERM/SIGINT) and closed gracefully by
 * `close()`.
 */
import type { RequestListener } from 'node:http';
import type { ArborServer, ServerOptions } from '../http/arbor-server.js';
import type { Dispatch } from '../http/dispatch.js';
import { createNodeServer } from '../http/node-server.js';
import { createWireServer } from '../http/wire/server.js';
import { type ApplicationConfig, portFromEnv } from './config.js';
import type { Logger } from './logger.js';

/** What a server serves: the kernel's dispatch (Arbor's server), or node:http's listener over it. */
export interface Serving {
  dispatch: Dispatch;
  listener(): RequestListener;
}

export class ServerLifecycle {
  readonly #config: Readonly<ApplicationConfig>;
  readonly #logger: Logger;
  #server: ArborServer | null = null;

  constructor(config: Readonly<ApplicationConfig>, logger: Logger) {
    this.#config = config;
    this.#logger = logger;
  }

  /** The configured server, not yet listening (timeouts from the configuration). */
  create(serving: Serving): ArborServer {
    const { requestTimeout, headersTimeout, keepAliveTimeout } = this.#config;
    const options: ServerOptions = {
      ...(requestTimeout === undefined ? {} : { requestTimeout }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
      ...(keepAliveTimeout === undefined ? {} : { keepAliveTimeout }),
    };
    return this.#config.server === 'node'
      ? createNodeServer(serving.listener(), options)
      : createWireServer(serving.dispatch, this.#logger, options);
  }

  /**
   * Creates the server and listens on `config.port`, else `PORT`, else 3000 — unless `ARBOR_NO_LISTEN=1`
   * (the CLI's mode). `close` is what a signal calls before the process exits.
   */
  start(serving: Serving, close: () => Promise<void>): ArborServer {
    const server = this.create(serving);
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

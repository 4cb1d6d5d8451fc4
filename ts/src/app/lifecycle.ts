/**
 * The server lifecycle: the server an application serves on (node:http by default; node:https with
 * `tls`; node:http2 with `http2`; Arbor's own HTTP/1.1 server with `server: 'arbor'`), started by `run()`
 * (port, banner, SIGTERM/SIGINT) and closed gracefully by `close()`, which then runs the `onClose` hooks.
 */
import type { RequestListener } from 'node:http';
import { type Logger, transportLogger } from '../core/logger.js';
import type { AppServer, RefusalOptions, ServerOptions } from '../http/app-server.js';
import type { Dispatch } from '../http/dispatch.js';
import type { ErrorShape } from '../http/errors.js';
import type { DetachedListener } from '../http/node-detached.js';
import { createHttp2Server } from '../http/node-http2-server.js';
import { createNodeServer } from '../http/node-server.js';
import { createWireServer } from '../http/wire/server.js';
import { type ApplicationConfig, portFromEnv } from './config.js';

/** What a server serves: the kernel's dispatch (Arbor's server), or node:http's listeners over it. */
export interface Serving {
  dispatch: Dispatch;
  listener(): RequestListener;
  /** node's `'connect'` and `'upgrade'` events: requests handed over with their connection. */
  detached(): DetachedListener;
  /** The application's error shape, for the refusals the server writes itself. */
  errors: ErrorShape;
}

/**
 * A graceful shutdown as it begins, before the server stops accepting: what a readiness route reads
 * (`app.shutdown.began`), and how long to keep serving first so that a load balancer sees it (`delay`).
 */
export class Shutdown {
  #began = false;
  #delayMs = 0;

  /** `true` from the moment `close()` is called (`run()` calls it on SIGTERM and SIGINT). */
  get began(): boolean {
    return this.#began;
  }

  /** Keeps serving `ms` once shutdown begins, before the server stops accepting (the longest asked wins). */
  delay(ms: number): void {
    this.#delayMs = Math.max(this.#delayMs, ms);
  }

  /** @internal Marks the shutdown begun; resolves once the delay asked for has passed. */
  begin(): Promise<void> {
    this.#began = true;
    return this.#delayMs === 0
      ? Promise.resolve()
      : new Promise((resolve) => setTimeout(resolve, this.#delayMs));
  }
}

/** Something to run when the application closes (a pool to end, a client to quit). */
export type CloseHook = () => void | Promise<void>;

export class ServerLifecycle {
  readonly #config: Readonly<ApplicationConfig>;
  readonly #logger: Logger;
  readonly #hooks: CloseHook[] = [];
  #server: AppServer | null = null;
  #closing: Promise<void> | null = null;
  /** The shutdown's beginning, which `close()` marks before anything closes. */
  readonly shutdown = new Shutdown();

  constructor(config: Readonly<ApplicationConfig>, logger: Logger) {
    this.#config = config;
    this.#logger = logger;
    const server = config.server ?? 'node';
    if (server === 'arbor' && (config.tls !== undefined || config.http2 === true)) {
      throw new TypeError(
        `${config.tls === undefined ? 'http2' : 'tls'} needs the node server: Arbor's own server ` +
          "(server: 'arbor') speaks cleartext HTTP/1.1 only. Drop server: 'arbor', or terminate TLS in a proxy",
      );
    }
  }

  /** Runs `hook` when the application closes, after its server (hooks run in the order they were added). */
  onClose(hook: CloseHook): void {
    this.#hooks.push(hook);
  }

  /** The configured server, not yet listening (timeouts from the configuration). */
  create(serving: Serving): AppServer {
    const { requestTimeout, headersTimeout, keepAliveTimeout, tls } = this.#config;
    const options: ServerOptions & RefusalOptions = {
      // The server's own refusals (a malformed head, 408, 431) in the application's error shape.
      errors: serving.errors,
      ...(requestTimeout === undefined ? {} : { requestTimeout }),
      ...(headersTimeout === undefined ? {} : { headersTimeout }),
      ...(keepAliveTimeout === undefined ? {} : { keepAliveTimeout }),
    };
    if (this.#config.server === 'arbor') {
      return createWireServer(serving.dispatch, transportLogger(this.#logger), options);
    }
    const secure = tls === undefined ? options : { ...options, tls };
    return this.#config.http2 === true
      ? createHttp2Server(serving.listener(), serving.detached(), secure)
      : createNodeServer(serving.listener(), serving.detached(), secure);
  }

  /**
   * Creates the server and listens on `config.port`, else `PORT`, else 3000 — unless `ARBOR_NO_LISTEN=1`
   * (the CLI's mode). `close` is what a signal calls before the process exits.
   */
  start(serving: Serving, close: () => Promise<void>): AppServer {
    const server = this.create(serving);
    this.#server = server;
    this.#closing = null;
    if (process.env.ARBOR_NO_LISTEN === '1') return server;
    const port = this.#config.port ?? portFromEnv() ?? 3000;
    const scheme =
      server.kind === 'https' || (server.kind === 'http2' && this.#config.tls) ? 'https' : 'http';
    server.listen(port, this.#config.host, () => {
      const address = server.address();
      const shown = typeof address === 'object' && address !== null ? address.port : port;
      this.#logger.info(`Arbor listening on ${scheme}://${this.#config.host ?? 'localhost'}:${shown}`);
    });
    const stop = () => {
      void close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    server.once('close', () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    });
    return server;
  }

  /**
   * Closes the server `start()` created (in-flight requests finish, new connections are refused) and,
   * alongside it, what `alongside` closes (the connections WebSocket routes took over, which the server no
   * longer owns); then runs the `onClose` hooks in order: a hook that fails is logged and the others still
   * run. Calling it again returns the same promise.
   */
  close(graceMs?: number, alongside?: () => Promise<void>): Promise<void> {
    this.#closing ??= (async () => {
      await this.shutdown.begin();
      await Promise.all([this.#server?.closeGracefully(graceMs), alongside?.()]);
      for (const hook of this.#hooks) {
        try {
          await hook();
        } catch (error) {
          this.#logger.error({ err: error }, 'an onClose hook failed');
        }
      }
    })();
    return this.#closing;
  }
}

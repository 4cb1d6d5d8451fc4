/**
 * The open WebSockets of one application, so that shutting the application down can close them: node's
 * and Arbor's servers stop tracking a connection once a WebSocket route has taken it over, and a server's
 * graceful close would otherwise wait for clients that may never leave.
 */
import type { WebSocket } from 'ws';

/** Close code 1001, "Going Away": the server is shutting down (RFC 6455 §7.4.1). */
export const GOING_AWAY = 1001;

/**
 * Every WebSocket an application's `app.ws()` routes accepted and that is still open. One per application,
 * shared by its groups.
 *
 * @example
 * await app.webSockets.closeAll(5000); // 1001 to each client; what is still open after 5 s is cut
 */
export class WebSocketHub {
  readonly #open = new Set<WebSocket>();
  #closing = false;

  /** How many WebSockets are open. */
  get size(): number {
    return this.#open.size;
  }

  /** Whether {@link closeAll} was called: new handshakes are refused (503) from then on. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Tracks `socket` until it closes. */
  add(socket: WebSocket): void {
    this.#open.add(socket);
    socket.once('close', () => this.#open.delete(socket));
  }

  /**
   * Sends every open WebSocket a close frame (`1001 Going Away`) and resolves once all are closed. A client
   * that has not answered its close frame after `graceMs` is cut (its TCP connection destroyed), so that
   * a shutdown is bounded whatever the clients do. Handshakes that arrive from now on are refused.
   */
  closeAll(graceMs = 10_000, reason = 'Server shutting down'): Promise<void> {
    this.#closing = true;
    const open = [...this.#open];
    if (open.length === 0) return Promise.resolve();
    const closed = open.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) {
            resolve();
            return;
          }
          socket.once('close', () => resolve());
          if (socket.readyState === socket.OPEN) socket.close(GOING_AWAY, reason);
        }),
    );
    const cut = setTimeout(() => {
      for (const socket of open) socket.terminate();
    }, graceMs);
    cut.unref();
    return Promise.all(closed).then(() => clearTimeout(cut));
  }
}

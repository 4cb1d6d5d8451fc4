/** The {@link UpgradeChannel} of a request read off the wire: its connection, for whoever takes it. */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { UpgradeChannel } from '../dispatch.js';

export class WireUpgrade implements UpgradeChannel {
  readonly protocol: string;
  #taken = false;
  readonly #hand: () => { socket: Duplex; head: Buffer };

  /** `hand` detaches the connection from the server and gives its socket and unread bytes. */
  constructor(protocol: string, hand: () => { socket: Duplex; head: Buffer }) {
    this.protocol = protocol;
    this.#hand = hand;
  }

  get taken(): boolean {
    return this.#taken;
  }

  take(): { socket: Duplex; head: Buffer } {
    if (this.#taken) throw new Error('The connection was already taken for the upgrade');
    this.#taken = true;
    return this.#hand();
  }
}

/**
 * Leaves `socket` in the state node:http's `'upgrade'` event hands it over: the server's listeners gone,
 * neither paused nor flowing (the taker's `'data'` listener starts it).
 */
export function handOver(socket: Socket, listeners: Record<string, Parameters<Socket['off']>[1]>): void {
  for (const [event, listener] of Object.entries(listeners)) socket.off(event, listener);
  // Readable's setter, typed read-only: node:http resets it the same way before its 'upgrade' event.
  (socket as { readableFlowing: boolean | null }).readableFlowing = null;
}

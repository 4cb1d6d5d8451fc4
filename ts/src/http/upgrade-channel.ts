/**
 * The {@link UpgradeChannel} both servers offer a request that asks to switch protocols: taken at most
 * once, and what taking does is the transport's (`hand`: detach the connection from the server, give its
 * socket and the bytes received after the head).
 */
import type { Duplex } from 'node:stream';
import type { UpgradeChannel } from './dispatch.js';

export class HandOverChannel implements UpgradeChannel {
  readonly protocol: string;
  #taken = false;
  readonly #hand: () => { socket: Duplex; head: Buffer };

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

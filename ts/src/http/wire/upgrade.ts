/** Handing a connection read off the wire over to whoever takes it for the protocol its request asked for. */
import type { Socket } from 'node:net';

/**
 * Leaves `socket` in the state node:http's `'upgrade'` event hands it over: the server's listeners gone,
 * neither paused nor flowing (the taker's `'data'` listener starts it).
 */
export function handOver(socket: Socket, listeners: Record<string, Parameters<Socket['off']>[1]>): void {
  for (const [event, listener] of Object.entries(listeners)) socket.off(event, listener);
  // Readable's setter, typed read-only: node:http resets it the same way before its 'upgrade' event.
  (socket as { readableFlowing: boolean | null }).readableFlowing = null;
}

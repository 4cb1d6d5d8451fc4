/**
 * How a benchmark server tells the runner where it listens: every server is started by `run.ts` as a
 * child process with an IPC channel, listens on an ephemeral loopback port, and sends `{ port }` once.
 */

import type { AddressInfo, Server } from 'node:net';

export const HOST = '127.0.0.1';

export function announce(server: Server): void {
  const { port } = server.address() as AddressInfo;
  if (process.send) process.send({ type: 'listening', port });
  else console.log(`listening on http://${HOST}:${port}`);
  // The runner's death closes the channel: exit with it instead of lingering as an orphan.
  process.on('disconnect', () => process.exit(0));
  // The runner stops its servers with SIGINT: a server without its own handler (Fastify, bare) exits
  // normally then, so that `--cpu-prof` (cost.ts --prof) still writes its profile.
  if (process.listenerCount('SIGINT') === 0) process.once('SIGINT', () => process.exit(0));
}

/** The body limit every server applies (1 MiB, Arbor's default). */
export const BODY_LIMIT = 1024 * 1024;

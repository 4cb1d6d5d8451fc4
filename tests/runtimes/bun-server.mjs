// Serves tests/runtimes/app.mjs on Bun: `Bun.serve({ fetch })`, the client address from `server.requestIP`.
// Prints `{"port":N}` once listening.
import * as arbor from '../../dist/ts/src/bundle/index.js';
import { createRuntimeApp } from './app.mjs';

// The compiled contracts (`arbor contracts:export`) the test wrote for this app, named by ARBOR_CONTRACTS.
const { default: contracts } = await import(new URL(process.env.ARBOR_CONTRACTS, 'file:///').href);
const app = createRuntimeApp(arbor, contracts);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log(JSON.stringify({ port: server.port }));

// Serves tests/runtimes/app.mjs on Bun: `Bun.serve({ fetch })`, the client address from `server.requestIP`.
// Prints `{"port":N}` once listening.
import * as arbor from '../../dist/ts/src/bundle/index.js';
import { createRuntimeApp } from './app.mjs';

const app = createRuntimeApp(arbor);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request, server) => app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log(JSON.stringify({ port: server.port }));

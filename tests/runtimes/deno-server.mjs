// Serves tests/runtimes/app.mjs on Deno: `Deno.serve(handler)`, the client address from `info.remoteAddr`.
// Prints `{"port":N}` once listening.
import * as arbor from '../../dist/ts/src/bundle/index.js';
import { createRuntimeApp } from './app.mjs';

const app = createRuntimeApp(arbor);
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ port })),
  },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

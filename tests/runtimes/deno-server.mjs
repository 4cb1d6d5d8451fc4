// Serves tests/runtimes/app.mjs on Deno: `Deno.serve(handler)`, the client address from `info.remoteAddr`.
// Prints `{"port":N}` once listening.
import * as arbor from '../../dist/ts/src/bundle/index.js';
import { createRuntimeApp } from './app.mjs';

// The compiled contracts (`arbor contracts:export`) the test wrote for this app, named by ARBOR_CONTRACTS.
const { default: contracts } = await import(new URL(process.env.ARBOR_CONTRACTS, 'file:///').href);
const app = createRuntimeApp(arbor, contracts);
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ port })),
  },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

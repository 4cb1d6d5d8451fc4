// Serves tests/runtimes/app.mjs as a Cloudflare Worker: `export default { fetch: app.fetch }`, so the
// Worker's `env` and `ctx` reach the handlers (`req.bindings`, `req.waitUntil`) and the client address is
// `CF-Connecting-IP`. Bundled by workerd-bundle.mjs with the `workerd` export condition, as wrangler
// bundles a Worker.
import * as arbor from 'arbor-router';
// The compiled contracts the test wrote (`arbor contracts:export`): a Worker has no sources to read and
// generates no code. Resolved by workerd-bundle.mjs to the file the test wrote.
import contracts from 'arbor-test-contracts';
import { createRuntimeApp } from './app.mjs';

const app = createRuntimeApp(arbor, contracts);
export default { fetch: app.fetch };

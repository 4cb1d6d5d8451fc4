// Serves tests/runtimes/app.mjs as a Cloudflare Worker: `export default { fetch: app.fetch }`, so the
// Worker's `env` and `ctx` reach the handlers (`req.bindings`, `req.waitUntil`) and the client address is
// `CF-Connecting-IP`. Bundled by workerd-bundle.mjs with the `workerd` export condition, as wrangler
// bundles a Worker.
import * as arbor from 'arbor-router';
import { createRuntimeApp } from './app.mjs';

const app = createRuntimeApp(arbor);
export default { fetch: app.fetch };

/**
 * The articles reference application on its own server (PORT, default 3000; API_TOKEN, default
 * `demo-token`): `npx tsx ts/examples/articles/server.ts`. With `ARBOR_NO_LISTEN=1` (how the `arbor`
 * CLI loads it) everything is registered but nothing listens.
 */
import { createArticlesApp } from './app.js';

export const app = createArticlesApp();
export default app;
app.run();

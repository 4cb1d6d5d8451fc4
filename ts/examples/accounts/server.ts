/**
 * The accounts reference application on its own (PORT, default 3000). Sign in at `/login` as `ada`,
 * password `correct horse battery staple`; the OpenAPI document is at `/api/docs.json`.
 *
 *     npx tsx ts/examples/accounts/server.ts
 *
 * The session cookie is `Secure`: browsers take it from `http://localhost`. On another host over plain
 * HTTP, set `INSECURE_COOKIES=1` to develop. With `ARBOR_NO_LISTEN=1` nothing listens.
 */
import { createAccountsApp } from './app.js';

export const app = createAccountsApp({ secureCookie: process.env.INSECURE_COOKIES !== '1' });
export default app;
app.run();

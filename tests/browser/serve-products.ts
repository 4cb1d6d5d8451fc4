/**
 * The server the browser tests look at, as a real process (run with tsx): the products reference app
 * with its docs (mounted here if the app does not mount them itself), or the stand-in app while
 * `ts/examples/products` does not exist. Listens on 127.0.0.1, an ephemeral port, and prints
 * `LISTENING <port> <subject>` on stdout. Stops on SIGTERM.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Application } from '../../ts/src/app/index.js';
import { mountDocs } from '../../ts/src/openapi/index.js';

const security = { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };

async function load(): Promise<{ app: Application; subject: string }> {
  const url = new URL('../../ts/examples/products/app.ts', import.meta.url);
  if (existsSync(fileURLToPath(url))) {
    const module = (await import(url.href)) as { createProductsApp?: (options?: object) => Application };
    if (typeof module.createProductsApp !== 'function')
      throw new Error('ts/examples/products/app.ts has no createProductsApp');
    const app = module.createProductsApp({ requestLog: { info: () => {} } });
    if (!app.routeTable().some((r) => r.pattern === '/api/docs.json')) mountDocs(app, { security });
    return { app, subject: 'ts/examples/products' };
  }
  const { createMiniProductsApp } = await import('../openapi/fixtures/mini-products.js');
  return { app: createMiniProductsApp(), subject: 'mini-products stand-in' };
}

const { app, subject } = await load();
const server = app.createServer();
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port} ${subject}\n`);
});
process.once('SIGTERM', () => {
  void server.closeGracefully(1000).then(() => process.exit(0));
});

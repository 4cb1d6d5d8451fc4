/**
 * The demo: the tasks and the products APIs in one server (PORT, default 3000), with request logging, request
 * ids (`X-Request-Id`, trusted from a proxy in front) and CORS on every route. `GET /` answers
 * `{ message, version }`. Pass a structured logger (`createDemoApp({ logger: pino() })`) for JSON records.
 *
 *     npx tsx ts/examples/server.ts          # or: PORT=8080 npx tsx ts/examples/server.ts
 *
 * With `ARBOR_NO_LISTEN=1` (how the `arbor` CLI loads it) everything is registered but nothing listens.
 */
import { Application, type ApplicationConfig, requestLogger } from '../src/app/index.js';
import { mountReferenceDocs, SAME_ORIGIN } from './docs.js';
import { productsCors, registerProducts } from './products/app.js';
import { API_VERSION, registerTasks } from './tasks/app.js';
import { REFERENCE_VALIDATION } from './validation.js';

/** Both reference applications mounted on one application. */
export function createDemoApp(config: ApplicationConfig = {}): Application {
  const app = new Application({
    openapi: {
      info: {
        title: 'Arbor demo API',
        version: API_VERSION,
        description: 'The tasks and products reference applications',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [SAME_ORIGIN],
    },
    validate: REFERENCE_VALIDATION,
    // Each request log record and error record carries the id the client gets back (docs/LOGGING.md).
    requestId: { trustIncoming: true },
    ...config,
  });
  app.middleware(requestLogger(config.logger === undefined ? {} : { logger: config.logger }));
  app.middleware(productsCors());
  registerTasks(app);
  registerProducts(app);
  mountReferenceDocs(app);
  return app;
}

export const app = createDemoApp();
export default app;
app.run();

// The application every runtime serves in tests/runtimes/runtimes.test.ts, written against the package's
// public exports (`arbor` is the bundle the runtime loads: the index, or the Workers entry). Plain
// JavaScript, so that Bun, Deno and the Workers bundle run the same file without a compile step of their own.
import { z } from 'zod';

/**
 * Builds the application; `arbor` is the package's namespace as the runtime imported it, `contracts` the
 * compiled contracts (`arbor contracts:export`) where the runtime reads no sources or generates no code.
 */
export function createRuntimeApp(arbor, contracts) {
  const app = new arbor.Application({
    openapi: { info: { title: 'Runtimes', version: '1.0.0' } },
    ...(contracts === undefined ? {} : { contracts }),
  });

  app.get('/', (_req, res) => res.json({ runtime: runtimeName() }));
  app.get('/users/:id<int>', (req, res) => res.json({ id: req.param('id') }));
  app.get('/files/*', (req, res) => res.json({ path: req.param('*') }));
  app.post('/tasks', { schema: { body: z.object({ title: z.string().min(1).max(20) }) } }, (req, res) =>
    res.status(201).json({ title: req.valid('body').title }),
  );
  app.get(
    '/pages',
    {
      schema: {
        query: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
          required: ['limit'],
        },
      },
    },
    (req, res) => res.json({ limit: req.valid('query').limit }),
  );
  /**
   * Reserve seats for a show.
   * @api POST /reservations
   * @param {string pattern=^[a-z]+$} show.query.required - The show
   * @body {{seats: integer minimum=1 maximum=10, email: string format=email}} - How many, and who
   */
  app
    .post('/reservations', (req, res) =>
      res.status(201).json({ show: req.valid('query').show, ...req.valid('body') }),
    )
    .validate(true);
  app.get('/stream', (_req, res) =>
    res.header('Content-Type', 'text/plain; charset=utf-8').send(
      (async function* () {
        for (const word of ['one ', 'two ', 'three']) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield word;
        }
      })(),
    ),
  );
  app.get('/events', (_req, res) =>
    res.sse(
      (async function* () {
        yield { event: 'tick', id: '1', data: { n: 1 } };
        yield { event: 'tick', id: '2', data: 'two\nlines' };
      })(),
    ),
  );
  app.get('/cookies', (req, res) =>
    res.cookie('flavour', 'oat', { httpOnly: true, path: '/' }).json({ seen: req.cookie('flavour') ?? null }),
  );
  app.get('/ip', (req, res) => res.json({ ip: req.ip }));
  app.get('/bindings', (req, res) => res.json({ greeting: req.bindings?.GREETING ?? null }));
  // Work that outlives its answer: kept alive by the runtime's waitUntil where it has one.
  let finished = 0;
  app.post('/later', (req, res) => {
    req.waitUntil(new Promise((resolve) => setTimeout(resolve, 20)).then(() => finished++));
    return res.status(202).json({ finished });
  });
  app.get('/later', (_req, res) => res.json({ finished }));
  arbor.mountDocs(app, { uiPath: null });
  return app;
}

function runtimeName() {
  if (typeof globalThis.Bun !== 'undefined') return 'bun';
  if (typeof globalThis.Deno !== 'undefined') return 'deno';
  if (globalThis.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  return 'node';
}

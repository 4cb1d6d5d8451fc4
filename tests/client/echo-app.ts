/**
 * The typed client's second subject beside the tasks application: routes that answer what the server read
 * (so a test can see that a value reached it as itself), in both contract sources — doc comments and a
 * code-first zod schema — and a route that answers a status it does not document.
 */
import { z } from 'zod';
import { Application, type ApplicationConfig } from '../../ts/src/app/index.js';

/**
 * @schema Echo
 * @property {string} value.required - The path parameter as the route read it
 * @property {array<string>} tag.required - The repeated query key, every value
 * @property {integer} page.required - The page, default 1
 */

/**
 * @api GET /echo/:value
 * @summary Echo a path parameter and the query
 * @param {array<string>} tag.query.optional - Repeated: `?tag=a&tag=b`
 * @param {integer minimum=1 default=1} page.query.optional - A page
 * @response 200 {Echo} What the route read
 */

/**
 * @api GET /files/*
 * @summary Echo a wildcard
 * @response 200 {object} `{ path }`, the wildcard's value
 */

/**
 * @api GET /pkg/:spec<[\w.@+~-]+>
 * @summary A constrained parameter whose constraint admits characters a URL may carry raw
 * @response 200 {object} `{ spec }`
 */

/**
 * @api GET /teapot
 * @summary Documents 200, answers 418
 * @response 200 {object} Never sent
 */

/** The code-first route's contract: zod, converted to JSON Schema for the document and the client. */
export const NOTE_SCHEMAS = {
  query: z.object({ draft: z.enum(['yes', 'no']).optional() }),
  body: z.object({ text: z.string().min(1), tags: z.array(z.string()).default([]) }),
  response: {
    201: z.object({ text: z.string(), tags: z.array(z.string()), draft: z.boolean() }),
  },
};

/** The echo application (validation on, responses checked against their documented schemas under test). */
export function createEchoApp(config: ApplicationConfig = {}): Application {
  const app = new Application({ validate: { responses: true }, ...config });
  app
    .get('/echo/:value', (req, res) => {
      const query = req.valid('query') as { tag?: string[]; page: number };
      return res.json({ value: req.param('value'), tag: query.tag ?? [], page: query.page });
    })
    .name('echo');
  app.get('/files/*', (req, res) => res.json({ path: req.param('*') })).name('files');
  app.get('/pkg/:spec<[\\w.@+~-]+>', (req, res) => res.json({ spec: req.param('spec') }));
  app.get('/teapot', (_req, res) => res.status(418).json({ error: 'I am a teapot', code: 418 }));
  app
    .post('/notes', { schema: NOTE_SCHEMAS }, (req, res) => {
      const { text, tags } = req.valid('body');
      return res.status(201).json({ text, tags, draft: req.valid('query').draft === 'yes' });
    })
    .name('notes.create');
  return app;
}

/**
 * The document states the error shape the application answers with: a validated operation's 400 is
 * `{ error, code, details }` by default, the `schema` given to the `onError` that answers the route (the
 * group's over the application's), or an RFC 9457 problem document with `problemDetails`. Each document is
 * valid OpenAPI (the official schemas), and the answer a request really gets fits the documented schema.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { Application, type ApplicationConfig, type Response } from '../../ts/src/app/index.js';
import { exportWithDiagnostics } from '../../ts/src/openapi/index.js';
import { withEngine } from '../app/support/engine.js';

/**
 * @api GET /items
 * @param {integer} limit.query.required - How many
 * @response 200 {object} The items
 */

/**
 * @api GET /admin/items
 * @param {integer} limit.query.required - How many
 * @response 200 {object} The items
 */

const API_ERRORS = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: { type: 'object', properties: { body: { type: 'array', items: { type: 'string' } } } },
  },
};
const ADMIN_ERRORS = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
};

function build(config: ApplicationConfig, handlers: boolean): Application {
  const app = new Application(withEngine({ validate: true, ...config }));
  const ok = (_req: unknown, res: Response) => res.json({});
  app.get('/items', ok);
  app.group('/admin', (admin) => {
    admin.get('/items', ok);
    if (handlers)
      admin.onError((err, _req, res) => res.status(400).json({ message: err.message }), {
        schema: ADMIN_ERRORS,
      });
  });
  if (handlers)
    app.onError((err, _req, res) => res.status(400).json({ errors: { body: [err.message] } }), {
      schema: API_ERRORS,
    });
  return app;
}

/** The documented 400 of `GET path`: its media type and schema. */
function documented400(app: Application, path: string): [string, object] {
  const { document } = exportWithDiagnostics(app, { sources: [new URL(import.meta.url).pathname] });
  const operation = (document.paths[path] as Record<string, { responses: Record<string, unknown> }>).get;
  const response = operation?.responses['400'] as { content: Record<string, { schema: object }> };
  const [type, media] = Object.entries(response.content)[0] as [string, { schema: object }];
  return [type, media.schema];
}

describe('the error shape in the document', () => {
  test.each<[label: string, config: ApplicationConfig, handlers: boolean, path: string, type: string]>([
    ['the default', {}, false, '/items', 'application/json'],
    ["the application's onError schema", {}, true, '/items', 'application/json'],
    ["a group's onError schema", {}, true, '/admin/items', 'application/json'],
    ['problem details', { problemDetails: true }, false, '/items', 'application/problem+json'],
  ])('%s: valid OpenAPI, and the real 400 fits it', async (_label, config, handlers, path, type) => {
    const app = build(config, handlers);
    const { document } = exportWithDiagnostics(app, { sources: [new URL(import.meta.url).pathname] });
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);

    const [mediaType, schema] = documented400(app, path);
    expect(mediaType).toBe(type);
    if (handlers) expect(schema).toEqual(path.startsWith('/admin') ? ADMIN_ERRORS : API_ERRORS);

    const answer = await app.request(`${path}?limit=many`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(new RegExp(`^${type.replace('+', '\\+')}`));
    const fits = new Ajv({ strict: false }).compile(schema);
    const body = await answer.json();
    expect(fits(body), JSON.stringify([body, fits.errors])).toBe(true);
  });
});

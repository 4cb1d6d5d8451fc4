/**
 * `validate` never quietly means "don't": a validated route whose contract cannot be read is an error at
 * start (`compileValidation()`, which `run()` calls), naming every such route, and a 500 naming it on its
 * first request where nothing compiled at start — never a 200. A route opted out with `.validate(false)`,
 * and the docs routes, are exempt.
 */
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { RouteError } from '../../ts/src/errors.js';
import { mountDocs } from '../../ts/src/openapi/index.js';
import { withEngine } from './support/engine.js';

/**
 * @api POST /documented
 * @param {integer} n.query.required - A number
 */

function build() {
  const logger = memoryLogger();
  const app = new Application(withEngine({ validate: true, logger }));
  app.post('/documented', (_req, res) => res.json({ ok: true }));
  app.get('/undocumented/:id', (_req, res) => res.json({ ok: true }));
  app.delete('/also-undocumented', (_req, res) => res.json({ ok: true }));
  return { app, logger };
}

/** The RouteError compiling the application's checks throws (none: the test fails). */
function compileError(app: Application): RouteError {
  try {
    app.compileValidation();
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(RouteError);
    return thrown as RouteError;
  }
  throw new Error('compileValidation() did not throw');
}

describe('validation fails closed', () => {
  test('at start: one CONTRACT_MISSING naming every validated route without a contract, with its line', () => {
    const { code, message } = compileError(build().app);
    expect(code).toBe('CONTRACT_MISSING');
    expect(message).toMatch(/2 validated routes/);
    expect(message).toMatch(/GET \/undocumented\/:id \(.*validation-fails-closed\.test\.ts:\d+\)/);
    expect(message).toMatch(/DELETE \/also-undocumented/);
    expect(message).not.toMatch(/POST \/documented/);
    expect(message).toMatch(/\.validate\(false\)/);
  });

  test('at a request, where nothing compiled at start: 500, logged naming the route; documented routes still validate', async () => {
    const { app, logger } = build();
    const missing = await app.request('/undocumented/7');
    expect(missing.status).toBe(500);
    expect(await missing.json()).toEqual({ error: 'Internal Server Error', code: 500 });
    expect(logger.errors.map((e) => e.message).join('\n')).toMatch(/GET \/undocumented\/:id .*no contract/);
    expect((await app.request('/documented?n=x', { method: 'POST' })).status).toBe(400);
    expect((await app.request('/documented?n=1', { method: 'POST' })).status).toBe(200);
  });

  test('.validate(false) opts a route out, and the docs routes need no contract', async () => {
    const app = new Application(withEngine({ validate: true, logger: memoryLogger() }));
    app.post('/documented', (_req, res) => res.json({ ok: true }));
    app.get('/health', (_req, res) => res.json({ ok: true })).validate(false);
    mountDocs(app);
    expect(() => app.compileValidation()).not.toThrow();
    expect((await app.request('/health')).status).toBe(200);
  });

  test('a group opted out covers its routes', () => {
    const app = new Application(withEngine({ validate: true, logger: memoryLogger() }));
    app.group('/internal', (g) => g.get('/stats', (_req, res) => res.json({}))).validate(false);
    expect(() => app.compileValidation()).not.toThrow();
  });
});

/**
 * @api POST /typo-in-param
 * @param {integer} n.query.required - A number
 * @param {integer} m.qurey - A typo in the location: the line cannot be read
 */

/**
 * @api POST /typo-in-body
 * @body {{title: string minLength=1} - An object never closed
 */

/**
 * @schema Shipment
 * @property {string minLength=1} carrier.required - Who carries it
 * @property {Parcel} parcel.required - What is carried
 */

/**
 * @schema Parcel
 * @property {integer minimum=1} grams.requird - A typo in the flag: the line cannot be read
 */

/**
 * @api POST /shipments
 * @body {Shipment} - The shipment, whose Parcel has a line that cannot be read
 */

describe('a contract line that cannot be read is not skipped', () => {
  function unreadable(validate: boolean) {
    const logger = memoryLogger();
    const app = new Application(withEngine({ validate, logger }));
    app.post('/typo-in-param', (_req, res) => res.json({ ok: true }));
    app.post('/typo-in-body', (_req, res) => res.json({ ok: true }));
    return { app, logger };
  }

  test('nor a @property line of a @schema the contract refers to, through another schema', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ validate: true, logger }));
    app.post('/shipments', (_req, res) => res.json({ ok: true }));
    expect(() => app.compileValidation()).toThrow(
      /route POST \/shipments .*could not be read.*validation-fails-closed\.test\.ts:\d+: malformed @property "\{integer minimum=1\} grams\.requird/,
    );
    const answer = await app.request('/shipments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"carrier":"post","parcel":{"grams":0}}',
    });
    expect(answer.status).toBe(500);
  });

  test('at start: one CONTRACT_INVALID naming each route and the line it cannot read', () => {
    const { code, message } = compileError(unreadable(true).app);
    expect(code).toBe('CONTRACT_INVALID');
    expect(message).toMatch(/2 validated routes have contract lines that could not be read/);
    expect(message).toMatch(
      /POST \/typo-in-param .*validation-fails-closed\.test\.ts:\d+: malformed @param "\{integer\} m\.qurey/,
    );
    expect(message).toMatch(/POST \/typo-in-body .*validation-fails-closed\.test\.ts:\d+: malformed @body/);
  });

  test('at a request: 500 rather than a check without the line (the body was let through before)', async () => {
    const { app, logger } = unreadable(true);
    const body = await app.request('/typo-in-body', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":""}',
    });
    expect(body.status).toBe(500);
    expect((await app.request('/typo-in-param?n=1&m=x', { method: 'POST' })).status).toBe(500);
    expect(logger.errors.map((e) => e.message).join('\n')).toMatch(/CONTRACT_INVALID|could not be read/);
  });

  test('an unvalidated route with the same lines serves as before (the document reports them)', async () => {
    const { app } = unreadable(false);
    expect(() => app.compileValidation()).not.toThrow();
    expect((await app.request('/typo-in-param?n=1&m=x', { method: 'POST' })).status).toBe(200);
  });
});

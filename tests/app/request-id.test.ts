/**
 * Request ids (`requestId`): off by default; generated per request, or taken from the client's field when
 * trusted and sane; exposed as `req.id` and echoed on every answer, the kernel's own (404, 405, 414, 500)
 * included. Over real HTTP on both servers, and through `app.fetch()`.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  Application,
  type ApplicationConfig,
  type ArborServer,
  headersFromMap,
  memoryLogger,
} from '../../ts/src/app/index.js';
import { isSaneId, requestIds } from '../../ts/src/app/request-id.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('which incoming ids are sane', () => {
  test.each([
    ['a', true],
    ['req-42_abc.DEF:1/2', true],
    ['!~', true],
    ['x'.repeat(200), true],
    ['', false],
    ['x'.repeat(201), false],
    ['a b', false],
    ['a\tb', false],
    ['café', false],
    ['a\x7fb', false],
    ['line\nforged', false],
  ])('%j → %s', (value, sane) => {
    expect(isSaneId(value)).toBe(sane);
  });

  test('off unless configured; a header HTTP cannot carry is refused at once', () => {
    expect(requestIds(undefined)).toBeNull();
    expect(requestIds(false)).toBeNull();
    expect(requestIds(true)?.header).toBe('X-Request-Id');
    expect(() => requestIds({ header: 'X Request' })).toThrow(TypeError);
    const untrusting = requestIds(true);
    expect(untrusting?.assign(headersFromMap(new Map([['x-request-id', 'mine']])))).toMatch(UUID);
  });
});

const servers: ArborServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.closeGracefully(1000)));
});

/** An application answering `/id` with its `req.id`, `/boom` with a 500 and `/only-post` to POST only. */
async function serve(server: 'node' | 'arbor', config: ApplicationConfig) {
  const logger = memoryLogger();
  const app = new Application(withEngine({ logger, server, maxUrlLength: 64, ...config }));
  app.get('/id', (req, res) => res.json({ id: req.id }));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.post('/only-post', (_req, res) => res.send('ok'));
  const { server: listening, base } = await listen(app);
  servers.push(listening);
  const get = (path: string, init?: RequestInit) => fetch(base + path, init);
  return { app, base, get, logger };
}

describe.each(['node', 'arbor'] as const)('request ids on the %s server', (server) => {
  test('off by default: req.id is empty and nothing is echoed, whatever the client sends', async () => {
    const { get } = await serve(server, {});
    const reply = await get('/id', { headers: { 'X-Request-Id': 'mine' } });
    expect(await reply.json()).toEqual({ id: '' });
    expect(reply.headers.get('x-request-id')).toBeNull();
  });

  test('true: a new UUID per request, as req.id and in X-Request-Id; the client’s is not trusted', async () => {
    const { get } = await serve(server, { requestId: true });
    const first = await get('/id', { headers: { 'X-Request-Id': 'mine' } });
    const second = await get('/id');
    const firstId = first.headers.get('x-request-id');
    expect(firstId).toMatch(UUID);
    expect(await first.json()).toEqual({ id: firstId });
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(firstId);
  });

  test('echoed on the answers the kernel builds: 404, 405, 414, 500', async () => {
    const { get, logger } = await serve(server, { requestId: true });
    const answers = [
      await get('/nowhere'),
      await get('/only-post'),
      await get(`/${'x'.repeat(100)}`),
      await get('/boom'),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 405, 414, 500]);
    for (const reply of answers) expect(reply.headers.get('x-request-id')).toMatch(UUID);
    expect(answers[1]?.headers.get('allow')).toContain('POST');
    // The 500's record carries the id the client got.
    expect(logger.errors.map((e) => e.fields.reqId)).toEqual([answers[3]?.headers.get('x-request-id')]);
  });

  test('trustIncoming: a sane incoming id is taken and echoed; anything else is replaced', async () => {
    const { get } = await serve(server, { requestId: { trustIncoming: true } });
    const trusted = await get('/id', { headers: { 'X-Request-Id': 'edge-7f3a:42' } });
    expect(trusted.headers.get('x-request-id')).toBe('edge-7f3a:42');
    expect(await trusted.json()).toEqual({ id: 'edge-7f3a:42' });
    const trustedOn404 = await get('/nowhere', { headers: { 'X-Request-Id': 'edge-404' } });
    expect(trustedOn404.headers.get('x-request-id')).toBe('edge-404');
    for (const refused of ['two words', 'x'.repeat(201)]) {
      const reply = await get('/id', { headers: { 'X-Request-Id': refused } });
      expect(reply.headers.get('x-request-id')).toMatch(UUID);
      expect((await reply.json()).id).toBe(reply.headers.get('x-request-id'));
    }
    expect((await get('/id')).headers.get('x-request-id')).toMatch(UUID);
  });

  test('header and generate: the field is renamed and the ids are the generator’s', async () => {
    let n = 0;
    const { get } = await serve(server, {
      requestId: { header: 'X-Trace', trustIncoming: true, generate: () => `t-${++n}` },
    });
    const generated = await get('/id');
    expect(generated.headers.get('x-trace')).toBe('t-1');
    expect(generated.headers.get('x-request-id')).toBeNull();
    expect(await generated.json()).toEqual({ id: 't-1' });
    const trusted = await get('/id', { headers: { 'X-Trace': 'upstream-9' } });
    expect(trusted.headers.get('x-trace')).toBe('upstream-9');
  });
});

describe('request ids, in-process and misconfigured', () => {
  test('app.fetch() echoes the id too', async () => {
    const app = new Application(withEngine({ requestId: true }));
    app.get('/id', (req, res) => res.json({ id: req.id }));
    const reply = await app.fetch(new Request('http://arbor.test/id'));
    expect(reply.headers.get('x-request-id')).toMatch(UUID);
    expect(await reply.json()).toEqual({ id: reply.headers.get('x-request-id') });
  });

  test('a generator returning an unusable id fails that request with a 500 that says why', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger, requestId: { generate: () => 'not sane' } }));
    app.get('/id', (req, res) => res.json({ id: req.id }));
    const reply = await app.fetch(new Request('http://arbor.test/id?token=secret'));
    expect(reply.status).toBe(500);
    expect(reply.headers.get('x-request-id')).toBeNull();
    expect(logger.errors[0]?.message).toMatch(/^GET \/id failed: requestId\.generate returned "not sane"/);
    // It failed before the target was split: the record still names the path only, never the query.
    expect(logger.errors[0]?.fields).toMatchObject({ method: 'GET', path: '/id' });
    expect(JSON.stringify(logger.records)).not.toContain('secret');
  });

  test('a header name HTTP cannot carry is a start-up error', () => {
    const app = new Application(withEngine({ requestId: { header: 'Request Id' } }));
    expect(() => app.ready()).toThrow(/requestId\.header: "Request Id" is not a valid HTTP field name/);
  });
});

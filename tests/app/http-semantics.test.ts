/**
 * docs/framework/errors.md, "Status codes": verbs, match/any, HEAD, OPTIONS, 405, 404, fallback, trailing
 * slash, error bodies — both transports.
 */
import { describe, expect, test } from 'vitest';
import { type Application, HttpError, memoryLogger } from '../../ts/src/app/index.js';
import { appStarter, transports } from './support/transport.js';

describe.each(transports)('HTTP semantics over $name', (transport) => {
  const start = appStarter(transport);

  test('every verb method registers its verb', async () => {
    const c = await start((app) => {
      for (const verb of ['get', 'post', 'put', 'patch', 'delete', 'options'] as const) {
        app[verb]('/v', (req, res) => res.json({ method: req.getMethod() }));
      }
      app.head('/h', (_req, res) => res.header('X-Head', 'yes').send());
    });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const reply = await c.request('/v', { method });
      expect(reply.status, method).toBe(200);
      expect(reply.json()).toEqual({ method });
    }
    const head = await c.request('/h', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-head')).toBe('yes');
  });

  test('match() registers several verbs, any() all seven, with a trailing *', async () => {
    const c = await start((app) => {
      app.match(['GET', 'POST'], '/form', (req, res) => res.send(req.getMethod()));
      app.any('/proxy/*', (req, res) => res.json({ method: req.getMethod(), rest: req.param('*') }));
    });
    expect((await c.request('/form', { method: 'POST' })).text).toBe('POST');
    expect((await c.request('/form', { method: 'PUT' })).status).toBe(405);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect((await c.request('/proxy/a/b', { method })).json()).toEqual({ method, rest: 'a/b' });
    }
  });

  test('HEAD runs the GET route without a body and keeps Content-Length', async () => {
    let runs = 0;
    const c = await start((app) =>
      app.get('/doc', (_req, res) => {
        runs++;
        return res.json({ hello: 'world' });
      }),
    );
    const get = await c.request('/doc');
    const head = await c.request('/doc', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers.get('content-type')).toContain('application/json');
    expect(runs).toBe(2);
  });

  test('automatic OPTIONS answers 204 with Allow; an OPTIONS route wins', async () => {
    const c = await start((app) => {
      app.get('/items', (_req, res) => res.send());
      app.post('/items', (_req, res) => res.send());
      app.get('/own', (_req, res) => res.send());
      app.options('/own', (_req, res) => res.status(200).send('mine'));
    });
    const auto = await c.request('/items', { method: 'OPTIONS' });
    expect(auto.status).toBe(204);
    expect(auto.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(auto.text).toBe('');
    expect((await c.request('/own', { method: 'OPTIONS' })).text).toBe('mine');
    expect((await c.request('/nothing', { method: 'OPTIONS' })).status).toBe(404);
  });

  test('405 with Allow when only the method differs; the option turns it into 404', async () => {
    const routes = (app: Application) => app.get('/only-get', (_req, res) => res.send('ok'));
    const c = await start(routes);
    const reply = await c.request('/only-get', { method: 'DELETE' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(reply.json()).toEqual({ error: 'Method DELETE not allowed', code: 405 });
    const off = await start(routes, { methodNotAllowed: false });
    const notFound = await off.request('/only-get', { method: 'DELETE' });
    expect(notFound.status).toBe(404);
    expect(notFound.json().code).toBe(404);
  });

  test('404 body is { error, code }; a fallback replaces it', async () => {
    const plain = await start((app) => app.get('/x', (_req, res) => res.send()));
    const reply = await plain.request('/missing');
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.json()).toEqual({ error: 'No route for GET /missing', code: 404 });
    const withFallback = await start((app) => {
      app.get('/x', (_req, res) => res.send());
      app.fallback((req, res) => res.status(404).json({ error: `Nothing at ${req.getUri().getPath()}` }));
    });
    expect((await withFallback.request('/missing')).json()).toEqual({ error: 'Nothing at /missing' });
  });

  test('trailing slash: tolerated by default, strict with false, 308 with redirect', async () => {
    const routes = (app: Application) => app.get('/users', (_req, res) => res.send('users'));
    const tolerant = await start(routes);
    expect((await tolerant.request('/users/')).text).toBe('users');
    const strict = await start(routes, { trailingSlash: false });
    expect((await strict.request('/users/')).status).toBe(404);
    const redirect = await start(routes, { trailingSlash: 'redirect' });
    const moved = await redirect.request('/users/?page=2');
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe('/users?page=2');
    expect((await redirect.request('/users')).text).toBe('users');
  });

  test('parameters are percent-decoded; a malformed escape is a 400', async () => {
    const c = await start((app) =>
      app.get('/say/:word', (req, res) => res.json({ word: req.param('word') })),
    );
    expect((await c.request('/say/hello%20world')).json()).toEqual({ word: 'hello world' });
    expect((await c.request('/say/a%2Fb')).json()).toEqual({ word: 'a/b' });
    const bad = await c.request('/say/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed percent-encoding in the path', code: 400 });
  });

  test('request accessors: param with default, params, query, captures, method, path, headers', async () => {
    const c = await start((app) => {
      app.get('/search/:q/:page?', (req, res) =>
        res.json({
          q: req.param('q'),
          page: req.param('page', '1'),
          viaParams: req.params('q'),
          sort: req.query('sort', 'asc'),
          tags: req.queryAll('tag'),
          method: req.getMethod(),
          path: req.getUri().getPath(),
          agent: req.header('X-Agent'),
        }),
      );
      app.get('/archive/{^(\\d{4})/(\\d{2})$}', (req, res) => res.json(req.captures()));
    });
    expect((await c.request('/search/php?tag=a&tag=b', { headers: { 'X-Agent': 'test' } })).json()).toEqual({
      q: 'php',
      page: '1',
      viaParams: 'php',
      sort: 'asc',
      tags: ['a', 'b'],
      method: 'GET',
      path: '/search/php',
      agent: 'test',
    });
    expect((await c.request('/search/php/2?sort=desc')).json()).toMatchObject({ page: '2', sort: 'desc' });
    expect((await c.request('/archive/2024/05')).json()).toEqual(['2024', '05']);
  });

  test('a thrown error is a 500 without the message or stack; HttpError keeps its status', async () => {
    const logger = memoryLogger();
    const errors = logger.errors;
    const c = await start(
      (app) => {
        app.get('/boom', () => {
          throw new Error('secret database password in /srv/app.ts');
        });
        app.get('/teapot', () => {
          throw new HttpError(418, 'short and stout', { headers: { 'X-Pot': 'tea' } });
        });
      },
      { logger },
    );
    const reply = await c.request('/boom');
    expect(reply.status).toBe(500);
    expect(reply.json()).toEqual({ error: 'Internal Server Error', code: 500 });
    expect(reply.text).not.toContain('secret');
    expect(reply.text).not.toContain('.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.error).toEqual(expect.objectContaining({ message: expect.stringContaining('secret') }));
    const teapot = await c.request('/teapot');
    expect([teapot.status, teapot.headers.get('x-pot')]).toEqual([418, 'tea']);
    expect(teapot.json()).toEqual({ error: 'short and stout', code: 418 });
    expect(errors).toHaveLength(1); // an HttpError is an answer, not a logged failure
  });

  test('Response: status chains, json/send/html, header and withHeader', async () => {
    const c = await start((app) => {
      app.get('/created', (_req, res) => res.status(201).header('X-Id', '7').json({ ok: true }));
      app.get('/text', (_req, res) => res.send('plain'));
      app.get('/empty', (_req, res) => res.send());
      app.get('/html', (_req, res) => res.html('<h1>hi</h1>'));
      app.get('/copy', (_req, res) => {
        const copy = res.json({}).withHeader('X-Copy', 'yes');
        return res.hasHeader('X-Copy') ? res : copy;
      });
    });
    const created = await c.request('/created');
    expect([created.status, created.headers.get('x-id'), created.json()]).toEqual([201, '7', { ok: true }]);
    const text = await c.request('/text');
    expect([text.text, text.headers.get('content-type')]).toEqual(['plain', 'text/plain; charset=utf-8']);
    const empty = await c.request('/empty');
    expect([empty.status, empty.text, empty.headers.get('content-length')]).toEqual([200, '', '0']);
    expect((await c.request('/html')).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await c.request('/copy')).headers.get('x-copy')).toBe('yes');
  });

  test('a 204 carries no body even when the handler set one', async () => {
    const c = await start((app) => app.delete('/x', (_req, res) => res.status(204).json({ ignored: true })));
    const reply = await c.request('/x', { method: 'DELETE' });
    expect([reply.status, reply.text]).toEqual([204, '']);
  });
});

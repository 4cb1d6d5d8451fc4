/** Serving: run() (PORT, ARBOR_NO_LISTEN), the node listener in a foreign server, graceful close. */

import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { createNodeServer } from '../../ts/src/http/node-server.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('run()', () => {
  test('ARBOR_NO_LISTEN=1 registers everything and returns a server that does not listen', () => {
    vi.stubEnv('ARBOR_NO_LISTEN', '1');
    const app = new Application(withEngine());
    app.get('/x', (_q, r) => r);
    const server = app.run();
    expect(server.listening).toBe(false);
    expect(app.routeTable()).toHaveLength(1);
    expect(Application.current()).toBe(app);
  });

  test('listens on PORT (0 = any free port) and closes gracefully', async () => {
    vi.stubEnv('PORT', '0');
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger, host: '127.0.0.1' }));
    app.get('/', (_q, res) => res.json({ ok: true }));
    const server = app.run();
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    expect(port).toBeGreaterThan(0);
    expect(logger.lines[0]).toBe(`Arbor listening on http://127.0.0.1:${port}`);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).json()).toEqual({ ok: true });
    await app.close();
    expect(server.listening).toBe(false);
  });

  test('config.port wins over PORT; a bad PORT is a clear error', async () => {
    vi.stubEnv('PORT', 'eighty');
    expect(() => new Application(withEngine()).run()).toThrow(/PORT=eighty is not a port number/);
    // PORT names a port that is taken: were it used, listening would fail with EADDRINUSE.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = (taken.address() as AddressInfo).port;
    vi.stubEnv('PORT', String(takenPort));
    const app = new Application(withEngine({ port: 0, host: '127.0.0.1', logger: memoryLogger() }));
    app.get('/', (_q, res) => res.send('config'));
    const server = app.run();
    try {
      await Promise.race([
        once(server, 'listening'),
        once(server, 'error').then(([error]) => Promise.reject(error)),
      ]);
      const { port } = server.address() as AddressInfo;
      expect(port).not.toBe(takenPort);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('config');
    } finally {
      await app.close();
      taken.close();
    }
    // And a bad PORT is never read when config.port is set.
    vi.stubEnv('PORT', 'eighty');
    const quiet = new Application(withEngine({ port: 0, host: '127.0.0.1', logger: memoryLogger() }));
    const other = quiet.run();
    await once(other, 'listening');
    await quiet.close();
  });
});

describe('adapters', () => {
  test('app.listener mounts in an existing node:http server', async () => {
    const app = new Application(withEngine());
    app.get('/mounted', (_q, res) => res.send('here'));
    const handler = app.handler();
    expect(handler).toBe(app.listener);
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/other')) res.end('other');
      else handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await (await fetch(`http://127.0.0.1:${port}/mounted`)).text()).toBe('here');
    expect(await (await fetch(`http://127.0.0.1:${port}/other`)).text()).toBe('other');
    server.close();
  });

  test("node:http's server (server: 'node') hands a request without body headers over already ended; bodies still arrive", async () => {
    const app = new Application(withEngine());
    app.get('/empty', (_q, res) => res.send('none'));
    app.post('/echo', (req, res) => res.json(req.json()));
    const ended: boolean[] = [];
    const server = createNodeServer((req, res) => {
      ended.push(req.readableEnded);
      app.listener(req, res);
    }, app.upgradeListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/empty`)).text()).toBe('none');
    const echoed = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await echoed.json()).toEqual({ a: 1 });
    await server.closeGracefully();
    // `optimizeEmptyRequests` exists from node 24.12; older versions ignore it and stream as before.
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const optimized = major > 24 || (major === 24 && minor >= 12);
    expect(ended).toEqual([optimized, false]);
  });

  test('app.fetch is a standalone function (for `export default { fetch: app.fetch }`)', async () => {
    const app = new Application(withEngine());
    app.get('/f', (_q, res) => res.send('fetched'));
    const { fetch: serve } = app;
    expect(await (await serve(new Request('http://x/f'))).text()).toBe('fetched');
  });
});

describe('the server option', () => {
  test.each([
    [undefined, true],
    ['arbor' as const, false],
    ['node' as const, true],
  ])('server: %s → a node:http Server: %s; both answer', async (server, isNodeHttp) => {
    // Whatever server the suite runs on otherwise, this test says which one it asks for (or none).
    const { server: _suiteServer, ...config } = withEngine();
    const app = new Application({ ...config, ...(server === undefined ? {} : { server }) });
    app.get('/which', (_q, res) => res.send('answered'));
    const created = app.createServer();
    expect(created instanceof Server).toBe(isNodeHttp);
    expect(created.kind).toBe(isNodeHttp ? 'node' : 'arbor');
    await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
    const reply = await fetch(`http://127.0.0.1:${(created.address() as AddressInfo).port}/which`);
    expect(await reply.text()).toBe('answered');
    expect(reply.headers.get('connection')).toBe('keep-alive');
    await created.closeGracefully(1000);
  });
});

describe('graceful close', () => {
  test('in-flight requests complete; new connections are refused', async () => {
    const app = new Application(withEngine());
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/slow', async (_q, res) => {
      started();
      await gate;
      return res.send('finished');
    });
    const { server, base } = await listen(app);
    const inFlight = fetch(`${base}/slow`).then((r) => r.text());
    await running;
    const closed = server.closeGracefully(5000);
    await expect(fetch(`${base}/slow`)).rejects.toThrow();
    release();
    expect(await inFlight).toBe('finished');
    await closed;
    expect(server.listening).toBe(false);
  });
});

/**
 * TLS and HTTP/2 from the application's configuration, over real sockets with a self-signed certificate
 * the clients trust: `tls` serves HTTPS (node:https); `http2: true` with `tls` serves HTTP/2 to clients
 * that offer `h2` and HTTP/1.1 to the others on the same port; `http2: true` alone is cleartext HTTP/2
 * (prior knowledge); WebSocket routes answer over TLS on both; `app.listener` inside the user's own `http2.createSecureServer` answers (it used to
 * answer 505 to every request). Asking Arbor's own server for TLS is refused at construction.
 *
 * Only the node server does TLS: the file is skipped in the `arbor-server` project.
 */

import http2 from 'node:http2';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { Application, type ArborServer } from '../../ts/src/app/index.js';
import { testCertificate } from '../support/tls-cert.js';
import { withEngine } from './support/engine.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  protocol: string;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  // Last opened, first closed: a WebSocket client before the server it holds a connection to (a
  // connection a WebSocket route took is no longer the server's to close).
  for (const item of open.splice(0).reverse()) await item.close();
});

function application(config: Parameters<typeof withEngine>[0] = {}): Application {
  const { server: _suite, ...base } = withEngine();
  const app = new Application({ ...base, ...config });
  app.get('/hello/:name', (req, res) =>
    res.json({ hello: req.param('name'), host: req.header('host') ?? null }),
  );
  app.post('/echo', (req, res) => res.json(req.json()));
  app.get('/kept', (_q, res) => res.header('Connection', 'keep-alive').send('kept'));
  app.get('/stream', (_q, res) =>
    res.send(
      (async function* () {
        for (let i = 0; i < 100; i++) yield `${i},`;
      })(),
    ),
  );
  app.get('/events', (_q, res) =>
    res.sse(
      (async function* () {
        yield { id: 1, data: { n: 1 } };
        yield { id: 2, data: 'two' };
      })(),
    ),
  );
  return app;
}

async function start(server: ArborServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => server.closeGracefully(500) });
  return (server.address() as AddressInfo).port;
}

function https1(port: number, path: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        ca: testCertificate().cert,
        servername: 'localhost',
        ALPNProtocols: ['http/1.1'],
      } as RequestOptions,
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            protocol: `HTTP/${res.httpVersion}`,
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.setHeader('content-type', 'application/json');
    req.end(body);
  });
}

async function h2(
  authority: string,
  path: string,
  options: { method?: string; body?: string; secure?: boolean } = {},
): Promise<Answer> {
  const session = http2.connect(authority, options.secure === false ? {} : { ca: testCertificate().cert });
  try {
    return await new Promise<Answer>((resolve, reject) => {
      session.on('error', reject);
      const stream = session.request({
        ':path': path,
        ':method': options.method ?? 'GET',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      });
      let headers: Record<string, string | string[] | undefined> = {};
      let text = '';
      stream.setEncoding('utf8');
      stream.on('response', (h) => {
        headers = h as Record<string, string | string[] | undefined>;
      });
      stream.on('data', (chunk: string) => {
        text += chunk;
      });
      stream.on('end', () =>
        resolve({ status: Number(headers[':status']), headers, body: text, protocol: 'HTTP/2' }),
      );
      stream.on('error', reject);
      stream.end(options.body);
    });
  } finally {
    session.close();
  }
}

describe.skipIf(process.env.ARBOR_TEST_SERVER === 'arbor')('TLS and HTTP/2', () => {
  test('tls: HTTPS through node:https; run()/createServer() say so in `kind`', async () => {
    const server = application({ tls: testCertificate() }).createServer();
    expect(server.kind).toBe('https');
    const port = await start(server);
    const answer = await https1(port, '/hello/ada');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ hello: 'ada', host: `127.0.0.1:${port}` });
    const echoed = await https1(port, '/echo', 'POST', '{"a":1}');
    expect(JSON.parse(echoed.body)).toEqual({ a: 1 });
  });

  test('http2 + tls: HTTP/2 for h2 clients, HTTP/1.1 for the others, on one port', async () => {
    const server = application({ tls: testCertificate(), http2: true }).createServer();
    expect(server.kind).toBe('http2');
    const port = await start(server);
    const viaH2 = await h2(`https://localhost:${port}`, '/hello/grace?x=1');
    expect(viaH2.status).toBe(200);
    expect(JSON.parse(viaH2.body)).toEqual({ hello: 'grace', host: `localhost:${port}` });
    // A Connection field set by the handler is dropped (HTTP/2 forbids it), not a 500.
    const kept = await h2(`https://localhost:${port}`, '/kept');
    expect([kept.status, kept.body, kept.headers.connection]).toEqual([200, 'kept', undefined]);
    const posted = await h2(`https://localhost:${port}`, '/echo', { method: 'POST', body: '{"b":2}' });
    expect(JSON.parse(posted.body)).toEqual({ b: 2 });
    const missing = await h2(`https://localhost:${port}`, '/nowhere');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 404 });
    const viaH1 = await https1(port, '/hello/linus');
    expect([viaH1.status, viaH1.protocol]).toEqual([200, 'HTTP/1.1']);
  });

  test('streamed bodies and Server-Sent Events over HTTP/2 and HTTPS', async () => {
    const server = application({ tls: testCertificate(), http2: true }).createServer();
    const port = await start(server);
    const expected = Array.from({ length: 100 }, (_, i) => `${i},`).join('');
    const overH2 = await h2(`https://localhost:${port}`, '/stream');
    expect(overH2.body).toBe(expected);
    expect(overH2.headers['transfer-encoding']).toBeUndefined();
    const events = await h2(`https://localhost:${port}`, '/events');
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(events.body).toBe('id: 1\ndata: {"n":1}\n\nid: 2\ndata: two\n\n');
    const overHttps = await https1(port, '/stream');
    expect(overHttps.headers['transfer-encoding']).toBe('chunked');
    expect(overHttps.body).toBe(expected);
  });

  test('http2 without tls: cleartext HTTP/2 with prior knowledge', async () => {
    const port = await start(application({ http2: true }).createServer());
    const answer = await h2(`http://127.0.0.1:${port}`, '/hello/h2c', { secure: false });
    expect([answer.status, JSON.parse(answer.body).hello]).toEqual([200, 'h2c']);
  });

  test("app.listener mounted in the user's own http2.createSecureServer answers (no 505)", async () => {
    const app = application();
    const server = http2.createSecureServer({ ...testCertificate(), allowHTTP1: true }, app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const port = (server.address() as AddressInfo).port;
    const answer = await h2(`https://localhost:${port}`, '/hello/mounted');
    expect([answer.status, JSON.parse(answer.body).hello]).toEqual([200, 'mounted']);
  });

  test('a graceful close of the HTTP/2 server lets an open stream finish', async () => {
    const app = application({ tls: testCertificate(), http2: true });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/slow', async (_q, res) => {
      arrived();
      await gate;
      return res.send('finished');
    });
    const server = app.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const inFlight = h2(`https://localhost:${port}`, '/slow');
    await reached;
    const closed = server.closeGracefully(5_000);
    release();
    expect((await inFlight).body).toBe('finished');
    await closed;
    expect(server.listening).toBe(false);
  });

  test.each([
    ['https', false],
    ['http2 with its HTTP/1.1 fallback', true],
  ])('WebSocket routes over TLS (wss://) on %s', async (_label, http2) => {
    const app = application({ tls: testCertificate(), http2 });
    app.ws('/echo/:room', (socket, req) =>
      socket.on('message', (data) => socket.send(`${req.param('room')}: ${data}`)),
    );
    const port = await start(app.createServer());
    const client = new WebSocket(`wss://localhost:${port}/echo/lobby`, { ca: testCertificate().cert });
    open.push({ close: async () => client.terminate() });
    await new Promise((resolve, reject) => {
      client.once('open', resolve);
      client.once('error', reject);
    });
    client.send('hi');
    const echo = await new Promise<string>((resolve) =>
      client.once('message', (data) => resolve(String(data))),
    );
    expect(echo).toBe('lobby: hi');
  });

  test("Arbor's own server refuses tls and http2 at construction, saying why", () => {
    expect(() => new Application({ server: 'arbor', tls: testCertificate() })).toThrow(
      /tls needs the node server/,
    );
    expect(() => new Application({ server: 'arbor', http2: true })).toThrow(/http2 needs the node server/);
  });
});

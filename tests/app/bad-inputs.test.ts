/**
 * The bad-input catalogue: every hostile or malformed input, the status it gets, and proof the server is
 * still healthy afterwards (a follow-up `GET /health` answers 200). Inputs fetch can send run over both
 * transports; the rest go through a raw `node:net` socket. The same table is in docs/framework/errors.md ("The bad-input catalogue").
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawGet, rawRequest } from './support/raw.js';
import { type Client, listen, type Reply, type RequestOptions, transports } from './support/transport.js';

const MiB = 1024 * 1024;
const json = { 'Content-Type': 'application/json' };

interface RequestCase {
  name: string;
  path: string;
  options?: RequestOptions;
  /** One status, or one per transport where node's parser answers before the application. */
  status: number | { http: number; fetch: number };
  check?: (reply: Reply) => void;
}

interface RawCase {
  name: string;
  payload: string | Buffer;
  status: number;
  check?: (raw: string) => void;
}

/** Inputs both transports can carry. */
const requestCases: RequestCase[] = [
  { name: 'malformed percent-escape in a parameter (%E0%A4%A)', path: '/echo/%E0%A4%A', status: 400 },
  { name: 'invalid escape %zz in a parameter', path: '/echo/%zz', status: 400 },
  { name: 'path over 8 KiB', path: `/echo/${'a'.repeat(9000)}`, status: 414 },
  { name: 'query string pushing the target over 8 KiB', path: `/health?q=${'x'.repeat(8200)}`, status: 414 },
  {
    name: 'malformed JSON body',
    path: '/json',
    options: { method: 'POST', headers: json, body: '{"title": ' },
    status: 400,
    check: (r) => expect(r.json().error).toMatch(/^Malformed JSON body/),
  },
  {
    name: 'JSON body with invalid UTF-8',
    path: '/json',
    options: { method: 'POST', headers: json, body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) },
    status: 400,
  },
  {
    name: 'malformed JSON on a route that never reads it',
    path: '/health',
    options: { method: 'POST', headers: json, body: '{' },
    status: 400,
  },
  {
    name: 'form body where JSON is expected',
    path: '/json',
    options: {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=x',
    },
    status: 415,
  },
  {
    name: 'text/plain body where JSON is expected',
    path: '/json',
    options: { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hi' },
    status: 415,
  },
  {
    name: 'gzip Content-Encoding is refused by default (decompress off)',
    path: '/json',
    options: { method: 'POST', headers: { ...json, 'Content-Encoding': 'gzip' }, body: '{}' },
    status: 415,
  },
  {
    name: 'unsupported charset',
    path: '/text',
    options: { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=x-klingon' }, body: 'a' },
    status: 415,
  },
  {
    name: 'body of 2 MiB (limit 1 MiB) with Content-Length',
    path: '/json',
    options: { method: 'POST', headers: json, body: 'x'.repeat(2 * MiB) },
    status: 413,
  },
  {
    name: 'chunked body of 2 MiB (no Content-Length)',
    path: '/json',
    options: { method: 'POST', headers: json, body: 'x'.repeat(2 * MiB), chunked: true },
    status: 413,
  },
  {
    name: 'body of exactly 1 MiB is accepted',
    path: '/length',
    options: { method: 'POST', body: 'x'.repeat(MiB) },
    status: 200,
  },
  {
    name: 'handler sets a header value with CR LF (response splitting)',
    path: '/inject-value',
    status: 500,
    check: (r) => {
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(r.json()).toEqual({ error: 'Internal Server Error', code: 500 });
    },
  },
  { name: 'handler sets a header name that is not a token', path: '/inject-name', status: 500 },
  { name: 'handler sets status 42', path: '/bad-status', status: 500 },
  { name: 'handler throws', path: '/throws', status: 500, check: (r) => expect(r.text).not.toContain('at ') },
  { name: 'handler rejects with a non-Error value', path: '/rejects', status: 500 },
  // On a path with routes, any method that reaches the application gets 405 with Allow.
  // node's parser refuses a method it does not know (501) before the application sees it.
  {
    name: 'unknown method FOO on a known path',
    path: '/health',
    options: { method: 'FOO' },
    status: { http: 501, fetch: 405 },
  },
  {
    name: 'unknown method FOO on an unknown path',
    path: '/nowhere',
    options: { method: 'FOO' },
    status: 501,
  },
  { name: 'known method on a GET-only path', path: '/health', options: { method: 'PATCH' }, status: 405 },
  {
    name: '__proto__ in a JSON body does not pollute prototypes',
    path: '/proto',
    options: { method: 'POST', headers: json, body: '{"__proto__": {"polluted": true}}' },
    status: 200,
    check: (r) => expect(r.json()).toEqual({ polluted: false }),
  },
];

/** Inputs only a raw socket can send (node's parser or the kernel refuses them). */
const rawCases: RawCase[] = [
  { name: 'unknown method token FOO (node parser)', payload: rawGet('/health', 'FOO'), status: 501 },
  {
    name: 'lowercase get (node parser: not a method it knows)',
    payload: rawGet('/health', 'get'),
    status: 501,
  },
  {
    name: 'method known to node, not registered (PROPFIND), on a known path',
    payload: rawGet('/health', 'PROPFIND'),
    status: 405,
    check: (raw) => expect(raw).toContain('\r\nAllow: GET, HEAD, POST, OPTIONS\r\n'),
  },
  { name: 'TRACE on a known path', payload: rawGet('/health', 'TRACE'), status: 405 },
  { name: 'PROPFIND on an unknown path', payload: rawGet('/nowhere', 'PROPFIND'), status: 501 },
  {
    name: 'two Host headers (RFC 9112 §3.2)',
    payload: rawGet('/health', 'GET', 'Host: evil\r\n'),
    status: 400,
  },
  {
    name: 'Transfer-Encoding: gzip, chunked (RFC 9112 §6.1)',
    payload: `${rawGet('/health', 'POST', 'Transfer-Encoding: gzip, chunked\r\n')}0\r\n\r\n`,
    status: 501,
  },
  { name: 'request line without a version', payload: 'GET /health\r\n\r\n', status: 400 },
  { name: 'garbage request line', payload: '\x00\x01\x02 / HTTP/1.1\r\n\r\n', status: 400 },
  { name: 'space inside the target', payload: rawGet('/a b'), status: 400 },
  { name: 'target not starting with /', payload: rawGet('health'), status: 400 },
  { name: 'absolute-form target is accepted', payload: rawGet('http://127.0.0.1/health'), status: 200 },
  { name: 'missing Host header', payload: 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n', status: 400 },
  {
    name: 'Content-Length and Transfer-Encoding together (smuggling)',
    payload: `${rawGet('/health', 'POST', 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n')}0\r\n\r\n`,
    status: 400,
  },
  { name: 'header name with a space', payload: rawGet('/health', 'GET', 'Bad Header: x\r\n'), status: 400 },
  { name: 'header value with a bare CR', payload: rawGet('/health', 'GET', 'X-A: a\rb\r\n'), status: 400 },
  { name: 'request head over 16 KiB', payload: rawGet(`/health?${'q'.repeat(20_000)}`), status: 431 },
  { name: 'raw dot segments in the path are not resolved', payload: rawGet('/../health'), status: 404 },
  {
    // fetch clients resolve %2E%2E as `..` themselves (WHATWG URL); the server takes it as a value.
    name: 'percent-encoded dot segments are a parameter value',
    payload: rawGet('/echo/%2E%2E'),
    status: 200,
    check: (raw) => expect(raw).toContain('{"word":".."}'),
  },
  {
    name: 'non-ASCII byte in the target',
    payload: Buffer.concat([
      Buffer.from('GET /echo/'),
      Buffer.from([0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]),
    status: 400,
  },
  {
    name: 'chunked body over the limit',
    payload: `${rawGet('/json', 'POST', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n')}${'100000\r\n'}${'x'.repeat(0x100000)}\r\n100000\r\n${'x'.repeat(0x100000)}\r\n0\r\n\r\n`,
    status: 413,
    check: (raw) => expect(raw).toMatch(/connection: close/i),
  },
];

function buildApp(): Application {
  const app = new Application(withEngine({ logger: memoryLogger() }));
  app.match(['GET', 'POST'], '/health', (_req, res) => res.send('ok'));
  app.get('/echo/:word', (req, res) => res.json({ word: req.param('word') }));
  app.post('/json', (req, res) => res.status(201).json(req.json()));
  app.post('/text', (req, res) => res.send(String(req.body())));
  app.post('/length', (req, res) => res.json({ length: req.rawBody().byteLength }));
  app.post('/proto', (req, res) => {
    req.json();
    return res.json({ polluted: ({} as Record<string, unknown>).polluted === true });
  });
  app.get('/inject-value', (_req, res) => res.header('X-Test', 'a\r\nSet-Cookie: evil=1').send('x'));
  app.get('/inject-name', (_req, res) => res.header('X Bad', 'v').send('x'));
  app.get('/bad-status', (_req, res) => res.status(42));
  app.get('/throws', () => {
    throw new Error('boom');
  });
  app.get('/rejects', () => Promise.reject('a string'));
  return app;
}

describe.each(transports)('bad inputs over $name', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await transport.connect(buildApp());
  });
  afterAll(() => client.close());

  test.each(requestCases)('$name → $status', async ({ path, options, status: expected, check }) => {
    const status = typeof expected === 'number' ? expected : expected[transport.name];
    const reply = await client.request(path, options);
    expect(reply.status).toBe(status);
    if (status >= 400 && status !== 413 && reply.headers.get('content-type')?.includes('json')) {
      expect(reply.json()).toMatchObject({ code: status });
    }
    check?.(reply);
    expect((await client.request('/health')).status).toBe(200);
  });
});

describe('bad inputs on a raw socket', () => {
  let server: ArborServer;
  let port: number;
  beforeAll(async () => {
    ({ server, port } = await listen(buildApp()));
  });
  afterAll(() => server.closeGracefully(1000));

  test.each(rawCases)('$name → $status', async ({ payload, status, check }) => {
    const reply = await rawRequest(port, payload);
    expect(reply.status).toBe(status);
    check?.(reply.raw);
    expect((await rawRequest(port, rawGet('/health'))).status).toBe(200);
  });
});

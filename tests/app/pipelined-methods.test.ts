/**
 * No request stream can crash either server. The regression: `GET /a#f` then `CONNECT http://[::1]/` in one
 * write killed node:http's server (`'connect'` assigned a response to a socket that still owed the GET's
 * answer: ERR_HTTP_SOCKET_ASSIGNED, uncaught). Then a property: random methods and target forms (CONNECT,
 * OPTIONS `*`, absolute form, authority form, fragments, upgrades, bodies) pipelined in one write, on both
 * servers. Whatever the stream, the server answers with well-formed HTTP/1.1 responses (never more
 * responses than requests), and stays up: a fresh connection is served afterwards. An uncaught error in
 * the server (same process) fails the run.
 *
 * Both servers are started here, so the file is skipped in the `arbor-server` project (it would repeat).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

interface ParsedResponse {
  status: number;
  headers: Map<string, string>;
}

/**
 * Splits `raw` into HTTP/1.1 responses, each checked for form: a status line, field lines `name: value`,
 * a blank line, then exactly the body its Content-Length announces (none for 1xx, 204, 304). Throws on
 * anything else, bytes left over included.
 */
function parseResponses(raw: Buffer, headRequests: ReadonlySet<number>): ParsedResponse[] {
  const out: ParsedResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at, 'latin1');
    if (end === -1)
      throw new Error(`an incomplete head at byte ${at}: ${raw.toString('latin1', at, at + 80)}`);
    const [statusLine = '', ...lines] = raw.toString('latin1', at, end).split('\r\n');
    const match = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(statusLine);
    if (match === null) throw new Error(`a malformed status line: ${JSON.stringify(statusLine)}`);
    const headers = new Map<string, string>();
    for (const line of lines) {
      const field = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+): ?(.*)$/.exec(line);
      if (field === null) throw new Error(`a malformed field line: ${JSON.stringify(line)}`);
      headers.set((field[1] as string).toLowerCase(), field[2] as string);
    }
    const status = Number(match[1]);
    at = end + 4;
    const length = headers.get('content-length');
    if (length !== undefined && !/^\d+$/.test(length)) throw new Error(`Content-Length: ${length}`);
    // A refusal (its connection closes after it) may carry its body even to what looked like a HEAD: the
    // server could not read the request, and the close delimits the message anyway.
    const refusedHead =
      headRequests.has(out.length) &&
      headers.get('connection') === 'close' &&
      raw.length - at === Number(length ?? -1);
    const bodyless =
      status < 200 || status === 204 || status === 304 || (headRequests.has(out.length) && !refusedHead);
    if (!bodyless) {
      if (length === undefined) throw new Error(`a ${status} response without Content-Length`);
      at += Number(length);
      if (at > raw.length) throw new Error(`a ${status} response's body is cut short`);
    }
    out.push({ status, headers });
  }
  return out;
}

type ServerName = 'node' | 'arbor';
const servers = new Map<ServerName, { server: ArborServer; port: number }>();
const loggers = new Map<ServerName, ReturnType<typeof memoryLogger>>();

beforeAll(async () => {
  for (const name of ['node', 'arbor'] as const) {
    const logger = memoryLogger();
    const { server: _suite, ...config } = withEngine();
    const app = new Application({ ...config, server: name, logger });
    app.get('/health', (_q, res) => res.send('ok'));
    app.post('/echo', async (req, res) => res.send(Buffer.from(req.rawBody()).toString('latin1')));
    app.get('/a', (_q, res) => res.send('a'));
    const { server, port } = await listen(app);
    servers.set(name, { server, port });
    loggers.set(name, logger);
  }
});

afterAll(async () => {
  for (const { server } of servers.values()) await server.closeGracefully(500);
});

const last = 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

describe.skipIf(process.env.ARBOR_TEST_SERVER === 'arbor')('no request stream crashes a server', () => {
  test.each(['node', 'arbor'] as const)(
    '%s: GET /a#f then CONNECT http://[::1]/ in one write',
    async (name) => {
      const { port } = servers.get(name) ?? expect.unreachable();
      const reply = await rawRequest(
        port,
        'GET /a#f HTTP/1.1\r\n\r\nCONNECT http://[::1]/ HTTP/1.1\r\n\r\n',
        3000,
      );
      const responses = parseResponses(Buffer.from(reply.raw, 'latin1'), new Set());
      // The GET has no Host: 400 on both servers; the CONNECT after it is never served as a tunnel.
      expect(responses.map((r) => r.status)[0]).toBe(400);
      expect(responses.length).toBeLessThanOrEqual(2);
      const after = await rawRequest(port, last);
      expect(after.status).toBe(200);
    },
  );

  test.each(['node', 'arbor'] as const)(
    '%s: CONNECT after a valid GET is answered after it, and closes',
    async (name) => {
      const { port } = servers.get(name) ?? expect.unreachable();
      const reply = await rawRequest(
        port,
        'GET /a HTTP/1.1\r\nHost: x\r\n\r\nCONNECT [::1]:443 HTTP/1.1\r\nHost: [::1]:443\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n',
        3000,
      );
      const responses = parseResponses(Buffer.from(reply.raw, 'latin1'), new Set());
      // The GET's answer first; the CONNECT is refused (501: no tunnels); nothing after it is served.
      expect(responses.map((r) => r.status)).toEqual([200, 501]);
      expect(responses[1]?.headers.get('connection')).toBe('close');
    },
  );

  const methods = ['GET', 'HEAD', 'POST', 'OPTIONS', 'CONNECT', 'DELETE', 'PUT'];
  const targets = [
    '/',
    '/a',
    '/echo',
    '/a#f',
    '/a?b#c',
    '*',
    'http://[::1]/',
    'http://x/echo',
    '[::1]:443',
    'example.com:80',
    '/%zz',
  ];
  const extras = [
    '',
    'Connection: close\r\n',
    'Connection: Upgrade\r\nUpgrade: websocket\r\n',
    'Connection: Upgrade\r\nUpgrade: h2c\r\n',
    'Content-Length: 3\r\n\r\nabc',
    'Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
  ];
  const requestArbitrary = fc
    .record({
      method: fc.constantFrom(...methods),
      target: fc.constantFrom(...targets),
      host: fc.boolean(),
      extra: fc.constantFrom(...extras),
    })
    .map(({ method, target, host, extra }) => {
      const head = `${method} ${target} HTTP/1.1\r\n${host ? 'Host: x\r\n' : ''}`;
      return { method, text: extra.includes('\r\n\r\n') ? head + extra : `${head}${extra}\r\n` };
    });

  test.each(['node', 'arbor'] as const)(
    '%s: random pipelined streams get well-formed answers, and the server lives',
    async (name) => {
      const { port } = servers.get(name) ?? expect.unreachable();
      await fc.assert(
        fc.asyncProperty(fc.array(requestArbitrary, { minLength: 1, maxLength: 5 }), async (requests) => {
          const all = [...requests, { method: 'GET', text: last }];
          const heads = new Set(all.flatMap((r, i) => (r.method === 'HEAD' ? [i] : [])));
          const reply = await rawRequest(port, all.map((r) => r.text).join(''), 1500);
          const responses = parseResponses(Buffer.from(reply.raw, 'latin1'), heads);
          expect(responses.length).toBeLessThanOrEqual(all.length);
          expect((await rawRequest(port, last)).status).toBe(200);
        }),
        { numRuns: 40 },
      );
      // A crash would have shown as an uncaught error; a bug caught by a transport is logged as a 500.
      expect(loggers.get(name)?.errors.map((e) => e.message)).toEqual([]);
    },
    120_000,
  );
});

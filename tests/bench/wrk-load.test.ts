/**
 * The HTTP benchmark's load generator (benches/http/wrk.ts) against a real loopback server that records
 * every request: the mix reaches the server in its exact proportions, bodies and headers included, with
 * the Host header node:http requires, pipelined when asked; wrk's report is read into the figures the
 * benchmark reports, and a server's 4xx answers are counted as failures.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadRequest } from '../../benches/http/mix.js';
import { parseWrkOutput, runWrk, writeMixScript } from '../../benches/http/wrk.js';
import { ensureWrk } from '../../scripts/ensure-wrk.mjs';

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  contentType: string | undefined;
  body: string;
}

const MIX: LoadRequest[] = [
  { method: 'GET', path: '/a/1' },
  { method: 'GET', path: '/a/2' },
  // Quotes, a backslash, a non-ASCII character and control characters: the Lua script must carry the bytes
  // as they are.
  {
    method: 'PUT',
    path: '/b',
    headers: { 'content-type': 'application/json' },
    body: '{"x":1,"t":"é \\ \u0001"}\n',
  },
  { method: 'GET', path: '/missing' },
];

let server: Server;
let url: string;
const seen: Seen[] = [];

beforeAll(async () => {
  ensureWrk();
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host,
        contentType: req.headers['content-type'],
        body,
      });
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-length': 2 });
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(() => {
  server.close();
});

describe('the wrk load generator', () => {
  it('sends the mix in its proportions and reports what the server answered', async () => {
    seen.length = 0;
    const result = await runWrk(url, writeMixScript(MIX, 1), { connections: 4, pipelining: 1 }, 1);
    expect(seen.length).toBeGreaterThan(100);
    // wrk stops with requests in flight: it counts answers, the server counts requests received.
    expect(result.total).toBeLessThanOrEqual(seen.length);
    expect(result.total).toBeGreaterThan(seen.length - 10);
    const per = (path: string) => seen.filter((s) => s.url === path).length;
    for (const path of ['/a/2', '/b', '/missing'])
      expect(Math.abs(per(path) - per('/a/1'))).toBeLessThanOrEqual(1);
    expect(seen.every((s) => s.host === url.slice('http://'.length))).toBe(true);
    const put = seen.find((s) => s.url === '/b');
    expect(put).toEqual({
      method: 'PUT',
      url: '/b',
      host: url.slice('http://'.length),
      contentType: 'application/json',
      body: MIX[2]?.body,
    });
    expect(seen.filter((s) => s.method === 'GET').every((s) => s.body === '')).toBe(true);
    // Every fourth request is answered 404: the benchmark's "non-2xx" failures.
    expect(Math.abs(result.non2xx - result.total / 4)).toBeLessThanOrEqual(2);
    expect(result.rps).toBeGreaterThan(0);
    expect(result.latencyP99).toBeGreaterThanOrEqual(result.latencyP50);
    expect(result.errors + result.timeouts).toBe(0);
  });

  it('pipelines: each send carries that many requests of the mix, all answered', async () => {
    seen.length = 0;
    const result = await runWrk(url, writeMixScript(MIX, 4), { connections: 2, pipelining: 4 }, 1);
    expect(result.total).toBeGreaterThan(100);
    expect(result.total).toBeLessThanOrEqual(seen.length);
    // A batch is the whole mix (4 requests, the counter starts at the first): equal shares, give or take
    // the batches still in flight when wrk stops.
    const per = (path: string) => seen.filter((s) => s.url === path).length;
    for (const path of ['/a/2', '/b', '/missing'])
      expect(Math.abs(per(path) - per('/a/1'))).toBeLessThanOrEqual(8);
    expect(Math.abs(result.non2xx - result.total / 4)).toBeLessThanOrEqual(8);
    expect(seen.filter((s) => s.url === '/b').every((s) => s.body === MIX[2]?.body)).toBe(true);
  });
});

describe("reading wrk's report", () => {
  const report = `Running 10s test @ http://127.0.0.1:40000
  1 threads and 100 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.52ms  410.20us  21.37ms   91.02%
    Req/Sec    66.10k     2.31k   70.12k    80.00%
  Latency Distribution
     50%    1.43ms
     75%    1.61ms
     90%    1.87ms
     99%    2.95ms
  657771 requests in 10.00s, 112.91MB read
  Socket errors: connect 0, read 3, write 1, timeout 7
  Non-2xx or 3xx responses: 12
Requests/sec:  65772.18
Transfer/sec:     11.29MB
`;

  it('takes the rate, the count, the latencies in ms and the failures', () => {
    expect(parseWrkOutput(report)).toEqual({
      rps: 65772.18,
      total: 657771,
      latencyAvg: 1.52,
      latencyP50: 1.43,
      latencyP99: 2.95,
      errors: 4,
      timeouts: 7,
      non2xx: 12,
    });
  });

  it('reads microseconds and seconds, and absent error lines as none', () => {
    const text = report
      .replace('1.43ms', '812.00us')
      .replace('2.95ms', '1.20s')
      .replace(/ {2}Socket errors.*\n/, '')
      .replace(/ {2}Non-2xx.*\n/, '');
    const result = parseWrkOutput(text);
    expect(result.latencyP50).toBeCloseTo(0.812, 6);
    expect(result.latencyP99).toBe(1200);
    expect([result.errors, result.timeouts, result.non2xx]).toEqual([0, 0, 0]);
  });

  it('takes the percentiles from their own lines, not from a "99.99%" spread column', () => {
    const text = report
      .replace('21.37ms   91.02%', '21.37ms   99.99%')
      .replace('70.12k    80.00%', '70.12k    50.00%');
    expect(parseWrkOutput(text)).toMatchObject({ latencyP50: 1.43, latencyP99: 2.95 });
  });

  it('refuses a report without the percentiles (wrk run without --latency)', () => {
    expect(() => parseWrkOutput(report.replace(/ {2}Latency Distribution[\s\S]*?99%.*\n/, ''))).toThrow(
      /latency median/,
    );
  });
});

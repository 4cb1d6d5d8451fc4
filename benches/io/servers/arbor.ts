/**
 * Arbor for the I/O benchmarks, on the server `ARBOR_IO_SERVER` names (`node`, the default node:http, or
 * `arbor`, the own one), serving the case `IO_CASE` names:
 *   static    `serveStatic(IO_STATIC_ROOT, { prefix: '/static' })`
 *   stream    `GET /stream`: `res.send(readable)`, IO_STREAM_BYTES bytes in 64 KiB chunks
 *   sse       `GET /sse`: `res.sse(source, { heartbeatMs })`, IO_SSE_EVENTS events every IO_SSE_INTERVAL_MS,
 *             or with `IO_SSE_FORM=push` the push form `res.sse(async (events) => …)` sending the same
 *             events; `GET /sse/check`: the first five events at once (the runner's equivalence check)
 *   compress  `compress()` in front of `GET /data`, ~100 KiB of JSON
 * A feature this checkout does not export yet is reported to the runner (`unavailable`), which leaves the
 * row out of the timing and says why. Loads the bundle when `ARBOR_BENCH_FROM=dist`, else the sources.
 */
import type { Server } from 'node:net';
import { announce, HOST } from '../../http/servers/announce.js';
import { CHECK_EVENTS, chunkedStream, JSON_BODY, sseSource } from './payloads.js';
import { ioCase, numberFromEnv, unavailable } from './setup.js';
import { answerMemoryProbes } from './sse-memory.js';

type AppModule = typeof import('../../../ts/src/app/index.js');
type Middleware = import('../../../ts/src/app/index.js').Middleware;
/** The features under measurement, typed here so that this file compiles before they are exported. */
interface Features {
  serveStatic?: (root: string, options: { prefix: string }) => Middleware;
  compress?: (options?: Record<string, unknown>) => Middleware;
}

const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const arbor = (
  fromDist
    ? await import(new URL('../../../dist/ts/src/bundle/index.js', import.meta.url).href)
    : await import('../../../ts/src/app/index.js')
) as AppModule & Features;

const server = process.env.ARBOR_IO_SERVER === 'arbor' ? 'arbor' : 'node';
const app = new arbor.Application({
  server,
  // `run()`'s banner is dropped; errors and warnings still reach stderr.
  logger: { ...arbor.consoleLogger, info: () => {} },
});

const kase = ioCase();
if (kase === 'static') {
  if (typeof arbor.serveStatic !== 'function')
    await unavailable('serveStatic is not exported by this checkout');
  else app.middleware(arbor.serveStatic(process.env.IO_STATIC_ROOT ?? '.', { prefix: '/static' }));
} else if (kase === 'stream') {
  const total = numberFromEnv('IO_STREAM_BYTES');
  app.get('/stream', (_req, res) =>
    res.header('Content-Type', 'application/octet-stream').send(chunkedStream(total)),
  );
} else if (kase === 'sse') {
  if (typeof arbor.Response.prototype.sse !== 'function')
    await unavailable('res.sse is not in this checkout');
  const events = numberFromEnv('IO_SSE_EVENTS');
  const interval = numberFromEnv('IO_SSE_INTERVAL_MS');
  const heartbeatMs = numberFromEnv('IO_SSE_HEARTBEAT_MS');
  answerMemoryProbes();
  if (process.env.IO_SSE_FORM === 'push') {
    // As a Hono or @fastify/sse user writes it: a loop that sends each event and waits for it to go out.
    const pushed =
      (count: number, every: number) => async (stream: { send(e: object): Promise<boolean> }) => {
        for await (const event of sseSource(count, every)) if (!(await stream.send(event))) break;
      };
    app.get('/sse', (_req, res) => res.sse(pushed(events, interval), { heartbeatMs }));
    app.get('/sse/check', (_req, res) => res.sse(pushed(CHECK_EVENTS, 0), { heartbeatMs }));
  } else {
    app.get('/sse', (_req, res) => res.sse(sseSource(events, interval), { heartbeatMs }));
    app.get('/sse/check', (_req, res) => res.sse(sseSource(CHECK_EVENTS, 0), { heartbeatMs }));
  }
} else {
  if (typeof arbor.compress !== 'function') await unavailable('compress is not exported by this checkout');
  else {
    app.middleware(arbor.compress());
    app.get('/data', (_req, res) => res.header('Content-Type', 'application/json').send(JSON_BODY));
  }
}

const listening: Server = app.createServer();
listening.listen(0, HOST, () => announce(listening));

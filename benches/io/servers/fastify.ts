/**
 * Fastify 5, the anchor of the static, stream, compress and sse cases (`IO_CASE`), with each plugin's
 * defaults: `@fastify/static` on `IO_STATIC_ROOT` under `/static/`, `reply.send(stream)` of the same
 * generator as Arbor's, `@fastify/compress` (global) in front of the same ~100 KiB of JSON,
 * `@fastify/sse`'s `reply.sse.send(source)` of the same event source as Arbor's `res.sse(source)` (its
 * heartbeat every IO_SSE_HEARTBEAT_MS, as Arbor's).
 */
import compress from '@fastify/compress';
import { fastifySSE } from '@fastify/sse';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { announce, HOST } from '../../http/servers/announce.js';
import { CHECK_EVENTS, chunkedStream, JSON_BODY, sseSource } from './payloads.js';
import { ioCase, numberFromEnv, unavailable } from './setup.js';
import { answerMemoryProbes } from './sse-memory.js';

const app = Fastify({ logger: false });
const kase = ioCase();
if (kase === 'static') {
  await app.register(fastifyStatic, { root: process.env.IO_STATIC_ROOT ?? '.', prefix: '/static/' });
} else if (kase === 'stream') {
  const total = numberFromEnv('IO_STREAM_BYTES');
  app.get('/stream', (_req, reply) => {
    reply.type('application/octet-stream').send(chunkedStream(total));
  });
} else if (kase === 'compress') {
  await app.register(compress, { global: true });
  app.get('/data', (_req, reply) => {
    reply.type('application/json').send(JSON_BODY);
  });
} else if (kase === 'sse') {
  const events = numberFromEnv('IO_SSE_EVENTS');
  const interval = numberFromEnv('IO_SSE_INTERVAL_MS');
  answerMemoryProbes();
  await app.register(fastifySSE, { heartbeatInterval: numberFromEnv('IO_SSE_HEARTBEAT_MS') });
  // `only`: an SSE route for any client (the plugin's `true` wants `Accept: text/event-stream`).
  app.get('/sse', { sse: 'only' }, async (_req, reply) => {
    await reply.sse.send(sseSource(events, interval));
  });
  app.get('/sse/check', { sse: 'only' }, async (_req, reply) => {
    await reply.sse.send(sseSource(CHECK_EVENTS, 0));
  });
} else {
  await unavailable(`Fastify has no server for the ${kase} case here`);
}

await app.listen({ port: 0, host: HOST });
announce(app.server);

/**
 * Fastify 5, the anchor of the static, stream and compress cases (`IO_CASE`), with each plugin's
 * defaults: `@fastify/static` on `IO_STATIC_ROOT` under `/static/`, `reply.send(stream)` of the same
 * generator as Arbor's, `@fastify/compress` (global) in front of the same ~100 KiB of JSON.
 */
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { announce, HOST } from '../../http/servers/announce.js';
import { chunkedStream, JSON_BODY } from './payloads.js';
import { ioCase, numberFromEnv, unavailable } from './setup.js';

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
} else {
  await unavailable('the SSE case has Hono as its anchor');
}

await app.listen({ port: 0, host: HOST });
announce(app.server);

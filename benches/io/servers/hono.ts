/**
 * Hono's `streamSSE` on `@hono/node-server`, the anchor of the SSE case: each client gets the same
 * source as Arbor's, written with `writeSSE` (its `data` JSON-encoded here, as Arbor encodes it).
 * `streamSSE` has no heartbeat.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { announce, HOST } from '../../http/servers/announce.js';
import { CHECK_EVENTS, sseSource } from './payloads.js';
import { ioCase, numberFromEnv, unavailable } from './setup.js';
import { answerMemoryProbes } from './sse-memory.js';

if (ioCase() !== 'sse') await unavailable('Hono is the anchor of the SSE case only');
const events = numberFromEnv('IO_SSE_EVENTS');
const interval = numberFromEnv('IO_SSE_INTERVAL_MS');
answerMemoryProbes();

const app = new Hono();
const send = (count: number, every: number) => (c: Parameters<typeof streamSSE>[0]) =>
  streamSSE(c, async (stream) => {
    for await (const { data, event, id } of sseSource(count, every)) {
      if (stream.aborted) break;
      await stream.writeSSE({ data: JSON.stringify(data), event, id });
    }
  });
app.get('/sse', send(events, interval));
app.get('/sse/check', send(CHECK_EVENTS, 0));

const server = serve({ fetch: app.fetch, port: 0, hostname: HOST }, () => announce(server as Server));

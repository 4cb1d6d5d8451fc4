/**
 * `arbor-router/otel` (ts/src/ops/otel.ts) with the real OpenTelemetry SDK (`@opentelemetry/sdk-node`), the
 * HTTP instrumentation and an in-memory exporter, over real HTTP on the server under test (node:http: the
 * HTTP instrumentation's span, named and completed by Arbor; `server: 'arbor'`: Arbor's own server span),
 * and through `app.fetch()`: the server span's name and attributes for a matched route, a 404, a thrown
 * error and a streamed answer, the peer's port; the handler span under it; a span the handler starts under that; the
 * caller's `traceparent` as the parent; and nothing traced once the instrumentation is disabled.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { ArborInstrumentation } from '../../ts/src/ops/otel.js';
import { testServer, withEngine } from '../app/support/engine.js';
import { listen } from '../app/support/transport.js';

const exporter = new InMemorySpanExporter();
const arbor = new ArborInstrumentation();
const sdk = new NodeSDK({
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
  autoDetectResources: false,
  // Traces only: no metrics or logs exporters from the environment (their default sends to localhost).
  metricReaders: [],
  logRecordProcessors: [],
  instrumentations: [new HttpInstrumentation(), arbor],
});

beforeAll(() => {
  sdk.start();
  // The HTTP instrumentation patches node:http when it is next required (vitest loaded it already).
  createRequire(import.meta.url)('node:http');
});
afterAll(() => sdk.shutdown());

function application() {
  const app = new Application(withEngine({ logger: memoryLogger() }));
  app.get('/tasks/:id', (req, res) => {
    // A span the handler starts: a child of the handler span, through the active context.
    trace.getTracer('test').startActiveSpan('load task', (span: Span) => span.end());
    return res.json({ id: req.param('id') });
  });
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.get('/stream', (_req, res) =>
    res.send(
      (async function* () {
        for (let i = 0; i < 3; i++) {
          await new Promise((resolve) => setTimeout(resolve, 40));
          yield `chunk ${i}\n`;
        }
      })(),
    ),
  );
  return app;
}

const servers: ArborServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.closeGracefully(1000)));
  exporter.reset();
});

async function serve(): Promise<string> {
  const { server, base } = await listen(application());
  servers.push(server);
  return base;
}

/** The finished spans once `count` server spans are in (the HTTP instrumentation ends its span on close). */
async function spans(count: number): Promise<ReadableSpan[]> {
  for (let waited = 0; waited < 5000; waited += 10) {
    const done = exporter.getFinishedSpans();
    if (done.filter((span) => span.kind === SpanKind.SERVER).length >= count) return done;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(
    `fewer than ${count} server spans: ${exporter.getFinishedSpans().map((span) => span.name)}`,
  );
}

function serverSpan(all: ReadableSpan[]): ReadableSpan {
  const found = all.filter((span) => span.kind === SpanKind.SERVER);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
}

/** Who made the server span: the HTTP instrumentation on node:http, Arbor on its own server. */
const SERVER_SPAN_SCOPE = testServer === 'arbor' ? 'arbor-router' : '@opentelemetry/instrumentation-http';

describe(`OpenTelemetry over HTTP (${testServer} server)`, () => {
  test('a matched route: the server span is named after it, with the HTTP attributes; handler and inner spans under it', async () => {
    const base = await serve();
    const reply = await fetch(`${base}/tasks/7?sig=secret&page=2`, {
      headers: { 'user-agent': 'otel-test' },
    });
    expect(reply.status).toBe(200);
    await reply.text();
    const all = await spans(1);
    const server = serverSpan(all);
    expect(server.instrumentationScope.name).toBe(SERVER_SPAN_SCOPE);
    expect(server.name).toBe('GET /tasks/:id');
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.attributes).toMatchObject({
      'http.route': '/tasks/:id',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'url.path': '/tasks/7',
      'url.scheme': 'http',
      'url.query': 'sig=REDACTED&page=2',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(base).port),
      'network.peer.address': '127.0.0.1',
      'network.peer.port': expect.any(Number),
      'network.protocol.version': '1.1',
      'user_agent.original': 'otel-test',
    });
    const handler = all.find((span) => span.name === 'handler /tasks/:id');
    expect(handler?.kind).toBe(SpanKind.INTERNAL);
    expect(handler?.attributes['http.route']).toBe('/tasks/:id');
    expect(handler?.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(handler?.spanContext().traceId).toBe(server.spanContext().traceId);
    const inner = all.find((span) => span.name === 'load task');
    expect(inner?.parentSpanContext?.spanId).toBe(handler?.spanContext().spanId);
  });

  test('a 404: the span keeps the bare method, no route, no error, no handler span', async () => {
    const base = await serve();
    expect((await fetch(`${base}/nowhere/1`)).status).toBe(404);
    const all = await spans(1);
    const server = serverSpan(all);
    expect(server.name).toBe('GET');
    expect(server.attributes['http.route']).toBeUndefined();
    expect(server.attributes['http.response.status_code']).toBe(404);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(all.filter((span) => span.name.startsWith('handler'))).toEqual([]);
  });

  test('a thrown error: a 500, the error recorded on the server span and the handler span', async () => {
    const base = await serve();
    expect((await fetch(`${base}/boom`)).status).toBe(500);
    const all = await spans(1);
    const server = serverSpan(all);
    expect(server.name).toBe('GET /boom');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['http.response.status_code']).toBe(500);
    expect(server.attributes['error.type']).toBeDefined();
    expect(server.events.find((event) => event.name === 'exception')?.attributes).toMatchObject({
      'exception.message': 'boom',
    });
    const handler = all.find((span) => span.name === 'handler /boom');
    expect(handler?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
  });

  test('a streamed answer: the span ends once the stream has been sent, not when its head was ready', async () => {
    const base = await serve();
    const reply = await fetch(`${base}/stream`);
    expect(await reply.text()).toBe('chunk 0\nchunk 1\nchunk 2\n');
    const server = serverSpan(await spans(1));
    expect(server.name).toBe('GET /stream');
    expect(server.attributes['http.response.status_code']).toBe(200);
    // Three chunks 40 ms apart: at least ~120 ms (timers never fire early).
    const durationMs = server.duration[0] * 1000 + server.duration[1] / 1e6;
    expect(durationMs).toBeGreaterThanOrEqual(110);
  });

  test("the peer's port is the client socket's own port", async () => {
    const base = await serve();
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    await once(socket, 'connect');
    const clientPort = socket.localPort;
    socket.end('GET /tasks/3 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    let answer = '';
    for await (const chunk of socket) answer += String(chunk);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const server = serverSpan(await spans(1));
    expect(server.attributes['network.peer.port']).toBe(clientPort);
    expect(server.attributes['network.peer.address']).toBe('127.0.0.1');
  });

  test("the caller's traceparent is the server span's parent", async () => {
    const base = await serve();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    await (await fetch(`${base}/tasks/1`, { headers: { traceparent: `00-${traceId}-${parent}-01` } })).text();
    const server = serverSpan(await spans(1));
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(parent);
  });
});

describe('OpenTelemetry through app.fetch()', () => {
  test('Arbor makes the server span, and the handler span under it', async () => {
    const app = application();
    const reply = await app.fetch(new Request('http://arbor.test/tasks/9'), { remoteAddress: '10.0.0.9' });
    expect(reply.status).toBe(200);
    const all = await spans(1);
    const server = serverSpan(all);
    expect(server.instrumentationScope.name).toBe('arbor-router');
    expect(server.name).toBe('GET /tasks/:id');
    expect(server.attributes).toMatchObject({
      'http.route': '/tasks/:id',
      'http.response.status_code': 200,
      'url.path': '/tasks/9',
      'url.scheme': 'http',
      'client.address': '10.0.0.9',
      'network.peer.address': '10.0.0.9',
    });
    expect(all.find((span) => span.name === 'handler /tasks/:id')?.parentSpanContext?.spanId).toBe(
      server.spanContext().spanId,
    );
  });

  test('disabled, it traces nothing and the channels have no subscriber', async () => {
    arbor.disable();
    try {
      expect(arbor.getConfig().enabled).toBe(false);
      const app = application();
      expect((await app.fetch(new Request('http://arbor.test/tasks/9'))).status).toBe(200);
      // Only the inner span the handler starts itself, with no parent.
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['load task']);
    } finally {
      arbor.enable();
    }
  });
});

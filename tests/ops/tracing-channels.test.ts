/**
 * The pipeline's `diagnostics_channel` events (ts/src/app/tracing.ts), over real HTTP on the test server and
 * through `app.fetch()`: which events a request publishes, in which order, with its route, its answer and a
 * handler's error; a store bound to `start` is the active one inside the handler; and nothing at all is
 * published while nobody subscribes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import type { HandlerTrace, RequestTrace } from '../../ts/src/app/tracing.js';
import { withEngine } from '../app/support/engine.js';
import { type Client, transports } from '../app/support/transport.js';

const PHASES = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
type Phase = (typeof PHASES)[number];

/** Every event of both channels, in order, as `channel:phase` with the context it carried. */
function record() {
  const events: { name: string; context: RequestTrace | HandlerTrace }[] = [];
  const subscriptions = (['arbor.request', 'arbor.request.handler'] as const).map((name) => {
    const channel = diagnostics.tracingChannel<object, RequestTrace | HandlerTrace>(name);
    const handlers = Object.fromEntries(
      PHASES.map((phase: Phase) => [
        phase,
        (context: RequestTrace | HandlerTrace) => events.push({ name: `${name}:${phase}`, context }),
      ]),
    ) as unknown as Parameters<typeof channel.subscribe>[0];
    channel.subscribe(handlers);
    return () => channel.unsubscribe(handlers);
  });
  return {
    events,
    stop: () => {
      for (const stop of subscriptions) stop();
    },
  };
}

function application() {
  const app = new Application(withEngine({ logger: memoryLogger(), requestId: true }));
  app.get('/tasks/:id', (req, res) => res.json({ id: req.param('id') }));
  app.get('/later/:id', async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return res.json({ id: req.param('id') });
  });
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.get('/reject', async () => {
    await Promise.resolve();
    throw new Error('rejected');
  });
  return app;
}

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

for (const transport of transports) {
  describe(`tracing channels (${transport.name})`, () => {
    async function connect(): Promise<Client> {
      const client = await transport.connect(application());
      cleanup.push(() => client.close());
      return client;
    }

    const R = 'arbor.request';
    const H = 'arbor.request.handler';
    test.each([
      // path, status, route, the handler's error message (none: it answered), the events in order. A handler
      // that answers at once ends inside the request's synchronous part; one that answers later (or rejects)
      // after the request's `end`.
      [
        '/tasks/7',
        200,
        '/tasks/:id',
        null,
        [
          `${R}:start`,
          `${H}:start`,
          `${H}:end`,
          `${H}:asyncStart`,
          `${H}:asyncEnd`,
          `${R}:end`,
          `${R}:asyncStart`,
          `${R}:asyncEnd`,
        ],
      ],
      [
        '/later/8',
        200,
        '/later/:id',
        null,
        [
          `${R}:start`,
          `${H}:start`,
          `${H}:end`,
          `${R}:end`,
          `${H}:asyncStart`,
          `${H}:asyncEnd`,
          `${R}:asyncStart`,
          `${R}:asyncEnd`,
        ],
      ],
      [
        '/boom',
        500,
        '/boom',
        'boom',
        [
          `${R}:start`,
          `${H}:start`,
          `${H}:error`,
          `${H}:end`,
          `${H}:asyncStart`,
          `${H}:asyncEnd`,
          `${R}:end`,
          `${R}:asyncStart`,
          `${R}:asyncEnd`,
        ],
      ],
      [
        '/reject',
        500,
        '/reject',
        'rejected',
        [
          `${R}:start`,
          `${H}:start`,
          `${H}:end`,
          `${R}:end`,
          `${H}:error`,
          `${H}:asyncStart`,
          `${H}:asyncEnd`,
          `${R}:asyncStart`,
          `${R}:asyncEnd`,
        ],
      ],
    ] as const)(
      '%s: request and handler events, in order, with the route and the answer',
      async (path, status, route, thrown, expected) => {
        const client = await connect();
        const { events, stop } = record();
        cleanup.push(stop);
        const reply = await client.request(path);
        expect(reply.status).toBe(status);
        expect(events.map((event) => event.name)).toEqual(expected);
        const request = events.find((event) => event.name === 'arbor.request:asyncEnd')
          ?.context as RequestTrace;
        expect(request.route).toBe(route);
        expect(request.input.method).toBe('GET');
        expect(request.input.target).toBe(path);
        expect(request.request?.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(request.result?.getStatus()).toBe(status);
        expect(request.error).toBeUndefined();
        const handler = events.find((event) => event.name === 'arbor.request.handler:asyncEnd')
          ?.context as HandlerTrace;
        expect(handler.route).toBe(route);
        expect(handler.request).toBe(request.request);
        if (thrown === null) expect(handler.result?.getStatus()).toBe(200);
        else expect((handler.error as Error).message).toBe(thrown);
      },
    );

    test('a request no route matches: the request events with no route, no handler events', async () => {
      const client = await connect();
      const { events, stop } = record();
      cleanup.push(stop);
      expect((await client.request('/nowhere/1')).status).toBe(404);
      expect(events.map((event) => event.name)).toEqual([
        'arbor.request:start',
        'arbor.request:end',
        'arbor.request:asyncStart',
        'arbor.request:asyncEnd',
      ]);
      const context = events[0]?.context as RequestTrace;
      expect(context.route).toBeNull();
      expect(context.result?.getStatus()).toBe(404);
    });

    test('a store bound to start is the active one in the handler', async () => {
      const store = new AsyncLocalStorage<string>();
      const seen: (string | undefined)[] = [];
      const app = new Application(withEngine({ logger: memoryLogger() }));
      app.get('/store', async (_req, res) => {
        seen.push(store.getStore());
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen.push(store.getStore());
        return res.send('ok');
      });
      const client = await transport.connect(app);
      cleanup.push(() => client.close());
      const start = diagnostics.tracingChannel<string, RequestTrace>('arbor.request').start;
      start.bindStore(store, (context) => `request ${context.input.target}`);
      cleanup.push(() => void start.unbindStore(store));
      expect((await client.request('/store')).text).toBe('ok');
      expect(seen).toEqual(['request /store', 'request /store']);
    });

    test('with nobody subscribed, nothing is published', async () => {
      const client = await connect();
      const request = diagnostics.tracingChannel('arbor.request');
      const handler = diagnostics.tracingChannel('arbor.request.handler');
      expect(request.hasSubscribers).toBe(false);
      expect(handler.hasSubscribers).toBe(false);
      // A plain channel subscriber sees every publish, even one a TracingChannel's own `hasSubscribers` check
      // skipped: subscribe to one phase only and check nothing reaches the others.
      const seen: string[] = [];
      const onEnd = () => seen.push('end');
      diagnostics.subscribe('tracing:arbor.request:end', onEnd);
      cleanup.push(() => void diagnostics.unsubscribe('tracing:arbor.request:end', onEnd));
      expect((await client.request('/tasks/1')).status).toBe(200);
      expect(seen).toEqual(['end']);
    });
  });
}

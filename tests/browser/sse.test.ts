/**
 * Server-Sent Events read by Chromium's own `EventSource`, on both servers: typed events, JSON data,
 * multi-line data, the push form, and the reconnection the format exists for — the server ends the
 * stream, the browser reconnects after `retry` ms sending `Last-Event-ID`, and the handler resumes after
 * that id.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer, type ServerSentEvent } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

/** Events 1..6, three per connection: a client resuming from id n gets n+1.. (the stream ends after three). */
async function* numbered(after: number): AsyncGenerator<ServerSentEvent> {
  for (let id = after + 1; id <= Math.min(after + 3, 6); id++) {
    yield { id, event: 'count', data: { n: id }, ...(id === after + 1 ? { retry: 50 } : {}) };
  }
}

function application(server: 'node' | 'arbor'): { app: Application; resumedFrom: (string | undefined)[] } {
  const resumedFrom: (string | undefined)[] = [];
  const app = new Application({ server });
  app.get('/', (_req, res) => res.html('<!doctype html><title>sse</title>'));
  app.get('/count', (req, res) => {
    const last = req.header('last-event-id');
    resumedFrom.push(last);
    if (Number(last ?? 0) >= 6) return res.status(204).send();
    return res.sse(numbered(Number(last ?? 0)));
  });
  app.get('/pushed', (_req, res) =>
    res.sse(async (events) => {
      for (let n = 1; n <= 3; n++) await events.send({ event: 'count', id: n, data: { n } });
      events.close();
    }),
  );
  app.get('/lines', (_req, res) =>
    res.sse(
      (async function* () {
        yield { data: 'first line\nsecond line' };
      })(),
    ),
  );
  return { app, resumedFrom };
}

describe.each(['node', 'arbor'] as const)("Chromium's EventSource, server: '%s'", (serverKind) => {
  let app: Application;
  let resumedFrom: (string | undefined)[];
  let server: ArborServer;
  let origin: string;
  let page: Page;

  beforeAll(async () => {
    ({ app, resumedFrom } = application(serverKind));
    ({ server, origin } = await serve(app));
    page = await browser().newPage();
    await page.goto(`${origin}/`);
  });
  afterAll(async () => {
    await page?.close();
    await server?.closeGracefully(1000);
  });

  it('receives every event across reconnections, each resumed from Last-Event-ID', async () => {
    const received = await page.evaluate(
      () =>
        new Promise<{ id: string; n: number; type: string }[]>((resolve, reject) => {
          const source = new EventSource('/count');
          const events: { id: string; n: number; type: string }[] = [];
          source.addEventListener('count', (event) => {
            const message = event as MessageEvent<string>;
            events.push({ id: message.lastEventId, n: JSON.parse(message.data).n, type: message.type });
            if (events.length === 6) {
              source.close();
              resolve(events);
            }
          });
          setTimeout(() => reject(new Error(`only ${events.length} events`)), 20_000);
        }),
    );
    expect(received).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ id: String(n), n, type: 'count' })));
    // The first connection sent no id; the second resumed after the third event.
    expect(resumedFrom.slice(0, 2)).toEqual([undefined, '3']);
  });

  it('receives what the push form sends, in order', async () => {
    const received = await page.evaluate(
      () =>
        new Promise<{ id: string; n: number }[]>((resolve, reject) => {
          const source = new EventSource('/pushed');
          const events: { id: string; n: number }[] = [];
          source.addEventListener('count', (event) => {
            const message = event as MessageEvent<string>;
            events.push({ id: message.lastEventId, n: JSON.parse(message.data).n });
            if (events.length === 3) {
              source.close();
              resolve(events);
            }
          });
          setTimeout(() => reject(new Error(`only ${events.length} events`)), 20_000);
        }),
    );
    expect(received).toEqual([1, 2, 3].map((n) => ({ id: String(n), n })));
  });

  it('joins the lines of multi-line data back with a line feed', async () => {
    const data = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const source = new EventSource('/lines');
          source.onmessage = (event) => {
            source.close();
            resolve(event.data);
          };
        }),
    );
    expect(data).toBe('first line\nsecond line');
  });
});

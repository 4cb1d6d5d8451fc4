/**
 * WebSocket routes driven by Chromium's own `WebSocket`, on both servers: the page (served by the same
 * application) opens a socket, echoes text and binary messages, sees the server's close code, and sees a
 * handshake that a middleware refused (by Origin, as an application guarding against cross-site
 * WebSocket hijacking would) fail without ever opening.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer, Response } from '../../ts/src/app/index.js';
import { chromiumForFile, serve } from './chromium.js';

const browser = chromiumForFile();

function application(server: 'node' | 'arbor'): Application {
  const app = new Application({ server });
  app.get('/', (_req, res) => res.html('<!doctype html><title>ws</title>'));
  app.ws('/echo/:room', (socket, req) => {
    socket.send(`joined ${req.param('room')} from ${req.header('origin')}`);
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  app.ws('/bye', (socket) => socket.close(4001, 'done'));
  // Browsers send cookies with a handshake from any site: a route that trusts them checks the Origin.
  app
    .ws('/guarded', (socket) => socket.send('in'))
    .middleware(async (req, next) =>
      req.header('origin') === 'http://elsewhere.example'
        ? new Response().status(403).json({ error: 'Forbidden', code: 403 })
        : next.handle(req),
    );
  return app;
}

describe.each(['node', 'arbor'] as const)("Chromium's WebSocket, server: '%s'", (serverKind) => {
  let app: Application;
  let server: ArborServer;
  let origin: string;
  let page: Page;

  beforeAll(async () => {
    app = application(serverKind);
    ({ server, origin } = await serve(app));
    page = await browser().newPage();
    await page.goto(`${origin}/`);
  });
  afterAll(async () => {
    await page?.close();
    await app.webSockets.closeAll(500);
    await server?.closeGracefully(1000);
  });

  it('opens, greets with the route parameter and the page origin, echoes text and binary', async () => {
    const result = await page.evaluate(
      async (url) => {
        const socket = new WebSocket(url);
        socket.binaryType = 'arraybuffer';
        const messages: (string | number[])[] = [];
        await new Promise<void>((resolve, reject) => {
          socket.onerror = () => reject(new Error('error'));
          socket.onmessage = (event) => {
            messages.push(typeof event.data === 'string' ? event.data : [...new Uint8Array(event.data)]);
            if (messages.length === 1) {
              socket.send('hello');
              socket.send(new Uint8Array([0, 1, 2, 255]));
            }
            if (messages.length === 3) resolve();
          };
        });
        const closed = new Promise<number>((resolve) => {
          socket.onclose = (event) => resolve(event.code);
        });
        socket.close(1000);
        return { messages, code: await closed };
      },
      `${origin.replace('http', 'ws')}/echo/lobby`,
    );
    expect(result.messages).toEqual([`joined lobby from ${origin}`, 'hello', [0, 1, 2, 255]]);
    expect(result.code).toBe(1000);
  });

  it("sees the server's close code and reason", async () => {
    const result = await page.evaluate(
      (url) =>
        new Promise<{ code: number; reason: string }>((resolve) => {
          const socket = new WebSocket(url);
          socket.onclose = (event) => resolve({ code: event.code, reason: event.reason });
        }),
      `${origin.replace('http', 'ws')}/bye`,
    );
    expect(result).toEqual({ code: 4001, reason: 'done' });
  });

  it('a handshake the middleware refuses never opens (the browser reports 1006)', async () => {
    // Another page's origin: Chromium sends `Origin: http://elsewhere.example` from a page served there.
    const other = await browser().newPage();
    try {
      await other.route('http://elsewhere.example/', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>elsewhere</title>' }),
      );
      await other.goto('http://elsewhere.example/');
      const result = await other.evaluate(
        (url) =>
          new Promise<{ opened: boolean; code: number }>((resolve) => {
            let opened = false;
            const socket = new WebSocket(url);
            socket.onopen = () => {
              opened = true;
            };
            socket.onclose = (event) => resolve({ opened, code: event.code });
          }),
        `${origin.replace('http', 'ws')}/guarded`,
      );
      expect(result).toEqual({ opened: false, code: 1006 });
    } finally {
      await other.close();
    }
    // The same route from the application's own page opens.
    const own = await page.evaluate(
      (url) =>
        new Promise<string>((resolve, reject) => {
          const socket = new WebSocket(url);
          socket.onmessage = (event) => resolve(String(event.data));
          socket.onerror = () => reject(new Error('error'));
        }),
      `${origin.replace('http', 'ws')}/guarded`,
    );
    expect(own).toBe('in');
  });
});

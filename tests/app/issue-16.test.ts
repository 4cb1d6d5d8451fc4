/** Issue 16, the smaller items: redirect targets are percent-encoded; throttle refuses an unknown client. */
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawGet, rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

describe('res.redirect() percent-encodes its target as Express does (encodeurl)', () => {
  test.each([
    ['/search?q=café', '/search?q=caf%C3%A9'],
    ['/a b', '/a%20b'],
    ['/line\u2028sep', '/line%E2%80%A8sep'],
    // Escapes already there are kept, a stray % is encoded.
    ['/already%20encoded', '/already%20encoded'],
    ['/100%', '/100%25'],
    ['https://example.com/ü?x=1#frag', 'https://example.com/%C3%BC?x=1#frag'],
  ])('%s → Location: %s', async (target, location) => {
    const app = new Application(withEngine());
    app.get('/go', (_req, res) => res.redirect(target));
    const { server, port } = await listen(app);
    try {
      const reply = await rawRequest(port, rawGet('/go'));
      expect(reply.status).toBe(302);
      expect(reply.head).toContain(`\r\nLocation: ${location}`);
    } finally {
      await server.closeGracefully(500);
    }
  });
});

describe('throttle under app.fetch() with no remote address', () => {
  test('the default key refuses to count every client as one (a 500 whose log names the fix)', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/t', (_req, res) => res.send('ok')).middleware('throttle:1,1');
    const reply = await app.fetch(new Request('http://x/t'));
    expect(reply.status).toBe(500);
    expect(logger.errors[0]?.message).toMatch(/client address is unknown.*remoteAddress/);
    // With an address, or a user id, it counts.
    expect((await app.fetch(new Request('http://x/t'), { remoteAddress: '10.0.0.1' })).status).toBe(200);
    expect((await app.fetch(new Request('http://x/t'), { remoteAddress: '10.0.0.1' })).status).toBe(429);
    expect((await app.fetch(new Request('http://x/t'), { remoteAddress: '10.0.0.2' })).status).toBe(200);
  });
});

describe('an aborted upload under app.fetch()', () => {
  test('a body stream that fails after the request was aborted is 499, not a logged 500', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.post('/upload', (req, res) => res.json({ length: req.rawBody().byteLength }));
    const controller = new AbortController();
    let fail: (error: Error) => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new Uint8Array(100));
        fail = (error) => stream.error(error);
      },
    });
    const request = new Request('http://x/upload', {
      method: 'POST',
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit);
    const answer = app.fetch(request, { remoteAddress: '10.0.0.1' });
    // What a runtime does when the client goes away: abort the request's signal, fail its body.
    controller.abort();
    fail(new Error('client disconnected'));
    expect((await answer).status).toBe(499);
    expect(logger.errors).toEqual([]);
  });
});

/**
 * `res.send()` given what it cannot send (an object, a number, null) throws a `TypeError` at the call that
 * says what to use instead: the client gets the usual 500 JSON answer and the connection stays usable —
 * never `Content-Length: undefined` followed by a second response. (Streams are sent: streaming.test.ts.)
 */
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger, Response } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

describe('res.send() refuses what it cannot send, at the call', () => {
  test.each([
    [{ a: 1 }, /not Object: use res\.json\(value\)/],
    [42, /not number: use res\.json\(value\)/],
    [null, /not null: use res\.json\(value\)/],
    [new Map(), /not Map: use res\.json\(value\)/],
  ])('%o', (body, message) => {
    expect(() => new Response().send(body as never)).toThrow(TypeError);
    expect(() => new Response().send(body as never)).toThrow(message);
  });

  test('over HTTP: a 500 answer, logged with the TypeError, then the next pipelined request is served', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    app.get('/stream', (_q, res) => res.send({ not: 'bytes' } as never));
    app.get('/ok', (_q, res) => res.send('ok'));
    const { server, port } = await listen(app);
    try {
      const reply = await rawRequest(
        port,
        'GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      const statuses = [...reply.raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
      expect(statuses).toEqual([500, 200]);
      expect(reply.raw).not.toContain('undefined');
      expect(logger.errors.map((e) => (e.error as Error).message)).toEqual([
        expect.stringMatching(/res\.send\(\) takes a string, bytes or a stream, not Object/),
      ]);
    } finally {
      await server.closeGracefully(500);
    }
  });
});

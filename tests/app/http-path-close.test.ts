/**
 * A graceful close with responses still in progress on keep-alive connections (the server no longer
 * tracks responses one by one; it asks node which response each connection is writing): every request
 * already received is answered, in order, then its connection closes, and close() resolves at once
 * rather than after the keep-alive timeout or the grace period. Both are set to a minute, so "at once"
 * can be told from either with a bound that holds on a busy machine.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';

test('responses in progress at close() go out in order, then the connection closes and close() resolves', async () => {
  /** The keep-alive timeout and the grace period: what close() must not wait for. */
  const minute = 60_000;
  const app = new Application(
    withEngine({ port: 0, host: '127.0.0.1', logger: memoryLogger(), keepAliveTimeout: minute }),
  );
  let started = () => {};
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  app.get('/slow', async (_req, res) => {
    started();
    await new Promise((resolve) => setTimeout(resolve, 150));
    return res.send('slow');
  });
  app.get('/fast', (_req, res) => res.send('fast'));
  const server = app.run();
  await once(server, 'listening');

  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = once(socket, 'close');
  // Two keep-alive requests pipelined: the second waits behind the first.
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
  await running;

  const start = Date.now();
  await app.close(minute);
  const took = Date.now() - start;
  await closed;

  const bodies = [...received.matchAll(/\r\n\r\n(slow|fast)/g)].map((m) => m[1]);
  expect(bodies).toEqual(['slow', 'fast']);
  expect(received.startsWith('HTTP/1.1 200')).toBe(true);
  // A small part of either minute: the answers went out and the connection closed, nothing timed out.
  expect(took).toBeLessThan(minute / 4);
  expect(server.listening).toBe(false);
});

/**
 * A client that writes its whole request before it reads (curl without `Expect`, most HTTP libraries)
 * and is refused part-way — a body over the limit, a 401 before the upload — must read its answer, not a
 * connection reset. The server answers, closes its side, and reads and drops what the client goes on
 * sending for a bounded time (a lingering close, as nginx's), on both servers: node:http's own close
 * would reset a connection with unread bytes, and the client's read of the answer can then fail.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type ArborServer, HttpError } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

let server: ArborServer | undefined;
afterEach(async () => {
  await server?.closeGracefully(500);
  server = undefined;
});

/**
 * Writes `head` and `body`, then reads: the answer's status line, or how the connection failed before it
 * arrived (a reset, a close).
 */
async function writeThenRead(port: number, head: string, body: Buffer): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const line = received.indexOf('\r\n');
      if (line !== -1) {
        resolve(received.slice(0, line));
        socket.destroy();
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`${error.code ?? error.message} before an answer`),
    );
    socket.on('close', () => resolve('closed before an answer'));
    // Nothing is read until the whole request is written (or the write fails): answers wait in the
    // client's receive buffer, where a reset from the server would discard them.
    socket.pause();
    socket.write(head);
    socket.write(body, () => socket.resume());
  });
}

describe('a refused upload written before reading gets its answer', () => {
  test.each([
    ['over the limit (413)', '/upload', 413],
    ['refused by a middleware (401)', '/private', 401],
  ])(
    '%s, 20 times over',
    async (_label, path, status) => {
      const app = new Application(withEngine({ bodyLimit: 64 * 1024, keepAliveTimeout: 2_000 }));
      app.post('/upload', (req, res) => res.json({ size: req.rawBody().byteLength }));
      app
        .post('/private', (req, res) => res.json({ size: req.rawBody().byteLength }))
        .middleware((_req, _next) => {
          throw new HttpError(401, 'no token');
        });
      ({ server } = await listen(app));
      const port = (server.address() as { port: number }).port;
      const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.byteLength}\r\n\r\n`;
      const outcomes: string[] = [];
      for (let i = 0; i < 20; i++) {
        const line = await writeThenRead(port, head, body);
        outcomes.push(line.startsWith(`HTTP/1.1 ${status} `) ? 'answered' : line);
      }
      expect(outcomes).toEqual(Array(20).fill('answered'));
    },
    60_000,
  );
});

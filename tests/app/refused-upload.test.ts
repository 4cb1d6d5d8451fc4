/**
 * A client that writes its whole request before it reads (curl without `Expect`, most HTTP libraries)
 * and is refused part-way — a body over the limit, a 401 before the upload — must read its answer, not a
 * connection reset. The server answers, closes its side, and reads and drops what the client goes on
 * sending for a bounded time (a lingering close, as nginx's), on both servers: node:http's own close
 * would reset a connection with unread bytes, and the client's read of the answer can then fail.
 *
 * - 4 MiB, 20 times over, from a client in the test process;
 * - 50 MiB (more than the kernel's socket buffers hold, so the server must really read it) from a client
 *   in its own process (support/eager-uploader-process.ts), so that a pause of the test process, where
 *   the server lives, never stalls its writing or its clocks;
 * - a client that never stops writing gets its answer, is read for the lingering time
 *   (`keepAliveTimeout`), and is then cut: the server does not read for ever.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { Application, type ArborServer, HttpError } from '../../ts/src/app/index.js';
import type { UploadOutcome } from './support/eager-uploader-process.js';
import { testServer, withEngine } from './support/engine.js';
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

// The 50 MiB uploads and the lingering take a few seconds each, on a loaded machine more.
vi.setConfig({ testTimeout: 60_000 });

const MIB = 2 ** 20;
/** How long a refused connection lingers: the keep-alive timeout. */
const LINGER_MS = 1000;

const run = promisify(execFile);

/** Runs the uploading client against `path` with a body of `bytes` (or an endless one). */
async function upload(
  port: number,
  path: string,
  bytes: number | 'endless',
  framing: 'length' | 'chunked' = 'length',
): Promise<UploadOutcome> {
  const client = join(import.meta.dirname, 'support', 'eager-uploader-process.ts');
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', client, String(port), path, String(bytes), framing],
    {
      timeout: 45_000,
    },
  );
  return JSON.parse(stdout) as UploadOutcome;
}

describe(`a refused body's client in its own process gets its answer (${testServer})`, () => {
  let port: number;
  let close: () => Promise<unknown>;

  beforeAll(async () => {
    const app = new Application(withEngine({ keepAliveTimeout: LINGER_MS }));
    app.post('/small', (req, res) => res.json({ bytes: req.rawBody().byteLength })).bodyLimit(1024);
    app
      .post('/guarded', (req, res) => res.json({ bytes: req.rawBody().byteLength }))
      .middleware(() => {
        throw new HttpError(401, 'Unauthorized');
      });
    const started = await listen(app);
    port = started.port;
    close = () => started.server.closeGracefully(500);
  });
  afterAll(() => close?.());

  test('50 MiB written whole to a route whose limit is 1 KiB, then read: the 413', async () => {
    const outcome = await upload(port, '/small', 50 * MIB);
    expect(outcome).toMatchObject({ status: 413, written: 50 * MIB });
  });

  test('50 MiB chunked, refused once 1 KiB of it is read, written whole, then read: the 413', async () => {
    const outcome = await upload(port, '/small', 50 * MIB, 'chunked');
    expect(outcome).toMatchObject({ status: 413, written: 50 * MIB });
  });

  test('50 MiB written whole past a middleware that answers 401 first: the 401', async () => {
    const outcome = await upload(port, '/guarded', 50 * MIB);
    expect(outcome).toMatchObject({ status: 401, written: 50 * MIB });
  });

  test('a client that never stops writing gets its 413, and is cut once the lingering is over', async () => {
    const outcome = await upload(port, '/small', 'endless');
    expect(outcome.status).toBe(413);
    // Read for the lingering time (not reset at once), then cut, not read for ever: the own server's sweep
    // that checks it runs a second at most after it is due.
    expect(outcome.cutAfterMs).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(outcome.cutAfterMs).toBeLessThan(LINGER_MS + 4000);
    expect(outcome.written).toBeGreaterThan(0);
  });
});

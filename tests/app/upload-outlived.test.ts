/**
 * Uploads outlived by their answer: a `timeout()` that passes while a multipart body is still arriving, or
 * a middleware that starts `readBody()` without waiting and answers. The answer goes out; the rest of the
 * body is not waited for (the connection closes), and nothing of the upload stays behind: no temporary
 * folder, no partial file, no open descriptor — on both servers and through `app.fetch()`.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, Response as ArborResponse, type Middleware, timeout } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

const BOUNDARY = 'outlived';
const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
/** The start of a form whose file never ends: one part head and 64 KiB of it. */
const FORM_START = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  ),
  Buffer.alloc(64 * 1024, 0x61),
]);
/** What the form announces: far more than is ever sent. */
const DECLARED = 10 * 2 ** 20;

/** A folder of its own for one application's uploads, to see what is left in it. */
const uploadFolder = () => mkdtempSync(join(tmpdir(), 'arbor-outlived-'));
const openDescriptors = () => readdirSync('/proc/self/fd').length;

/** Waits until `check` holds (polling every 20 ms), or fails after `ms` saying what it saw last. */
async function eventually(check: () => string | null, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const problem = check();
    if (problem === null) return;
    if (Date.now() > deadline) throw new Error(problem);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function application(folder: string, guard: Middleware): { app: Application; handled: () => number } {
  const app = new Application(withEngine({ uploads: { tmpDir: folder }, bodyLimit: 2 * DECLARED }));
  let handled = 0;
  app
    .post('/upload', (req, res) => {
      handled++;
      return res.json({ files: req.files().length });
    })
    .middleware(guard);
  return { app, handled: () => handled };
}

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

/**
 * Sends a form's head and its first 64 KiB, then nothing more: resolves with the answer's status line
 * once the whole answer has arrived (then the client leaves, as a client given its answer would).
 * node:http drains the rest of such a body and keeps the connection; Arbor's server closes it.
 */
function stalledUpload(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? Number.NaN);
      if (received.byteLength < end + 4 + length) return;
      socket.destroy();
      resolve(text.split('\r\n')[0] ?? '');
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`closed before a whole answer: ${received.toString('latin1')}`)),
    );
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: ${DECLARED}\r\n\r\n`,
    );
    socket.write(FORM_START);
  });
}

const guards: { name: string; guard: () => Middleware; status: string }[] = [
  { name: 'timeout(300) passes mid-upload', guard: () => timeout(300), status: '503' },
  {
    name: 'a middleware starts readBody() and answers without waiting',
    guard: () => (req) => {
      req.readBody().catch(() => undefined);
      return new ArborResponse().status(403).json({ error: 'Forbidden', code: 403 });
    },
    status: '403',
  },
];

describe('over HTTP', () => {
  test.each(guards)('$name: 40 uploads leave no folder, file or descriptor', async ({ guard, status }) => {
    const folder = uploadFolder();
    const { app, handled } = application(folder, guard());
    const { server, port } = await listen(app);
    cleanup = () => server.closeGracefully(1000);
    // Warm up what a first request opens once (the engine, lazily loaded packages), then count.
    await stalledUpload(port);
    await eventually(() => (readdirSync(folder).length === 0 ? null : 'the warm-up left a folder'));
    const baseline = openDescriptors();

    const answers = await Promise.all(Array.from({ length: 40 }, () => stalledUpload(port)));
    for (const answer of answers) expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    await eventually(() => {
      const left = readdirSync(folder);
      return left.length === 0 ? null : `left behind: ${left.length} folders`;
    });
    await eventually(() => {
      const open = openDescriptors();
      return open <= baseline ? null : `${open - baseline} descriptors still open`;
    });
    expect(handled()).toBe(0);
  });
});

describe('through app.fetch()', () => {
  test.each(guards)('$name: the upload is cut and leaves no folder', async ({ guard }) => {
    const folder = uploadFolder();
    const { app, handled } = application(folder, guard());
    let cancelled = 0;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new Uint8Array(FORM_START));
          },
          cancel() {
            cancelled++;
          },
        });
        return app.fetch(
          new Request('http://arbor.test/upload', {
            method: 'POST',
            headers: { 'content-type': FORM_TYPE },
            body,
            duplex: 'half',
          } as RequestInit),
        );
      }),
    );
    for (const response of responses) expect(response.status).toBeGreaterThanOrEqual(400);
    await eventually(() => (cancelled === 10 ? null : `${cancelled} of 10 bodies cancelled`));
    await eventually(() => {
      const left = readdirSync(folder);
      return left.length === 0 ? null : `left behind: ${left.length} folders`;
    });
    expect(handled()).toBe(0);
  });
});

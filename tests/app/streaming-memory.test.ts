/**
 * A 100 MiB streamed answer through a client that reads slowly: the server (in its own process) holds
 * no more than a few MiB more than when idle, because it reads the source only as fast as the socket
 * takes it. Without backpressure it would hold most of the 100 MiB.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { testServer } from './support/engine.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

/** What the server may hold above idle while it streams: socket buffers, a chunk or two, GC slack. */
const MAX_GROWTH_MIB = 8;

let child: ChildProcess;
let port: number;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'stream-server.ts')],
    {
      env: { ...process.env, ARBOR_TEST_SERVER: testServer },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (line: Buffer) => resolve(Number(line.toString().trim())));
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

async function rss(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/memory`);
  return ((await response.json()) as { rss: number }).rss;
}

/** Downloads `/big?mb=N`, pausing `delayMs` after each chunk received; resolves to the bytes read. */
function slowDownload(mb: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: `/big?mb=${mb}` }, (response) => {
      let bytes = 0;
      const slow = new Writable({
        highWaterMark: 16 * 1024,
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.byteLength;
          setTimeout(done, delayMs);
        },
      });
      pipeline(response, slow).then(() => resolve(bytes), reject);
    }).on('error', reject);
  });
}

test('100 MiB to a slow reader: the server grows by a few MiB at most', async () => {
  // Warm up the path (code, buffers) so that idle means "ready to stream".
  expect(await slowDownload(4, 0)).toBe(4 * 1024 * 1024);
  const idle = await rss();
  let peak = idle;
  const sampler = setInterval(() => {
    rss().then(
      (value) => {
        peak = Math.max(peak, value);
      },
      () => undefined,
    );
  }, 100);
  try {
    expect(await slowDownload(100, 1)).toBe(100 * 1024 * 1024);
  } finally {
    clearInterval(sampler);
  }
  const growthMiB = (peak - idle) / (1024 * 1024);
  console.log(`server RSS: idle ${(idle / 2 ** 20).toFixed(1)} MiB, peak +${growthMiB.toFixed(1)} MiB`);
  expect(growthMiB).toBeLessThan(MAX_GROWTH_MIB);
});

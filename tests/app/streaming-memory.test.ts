/**
 * A 100 MiB streamed answer through a client that reads slowly: the server (in its own process) holds
 * no more than a few MiB more than when idle, because it reads the source only as fast as the socket
 * takes it. Without backpressure it would hold most of the 100 MiB.
 */
import { get } from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { MemoryServer } from './support/memory-server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

/** What the server may hold above idle while it streams: socket buffers, a chunk or two, GC slack. */
const MAX_GROWTH_MIB = 8;

let server: MemoryServer;

beforeAll(async () => {
  server = await MemoryServer.start();
});
afterAll(() => {
  server?.stop();
});

/** Downloads `/big?mb=N`, pausing `delayMs` after each chunk received; resolves to the bytes read. */
function slowDownload(mb: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: server.port, path: `/big?mb=${mb}` }, (response) => {
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
  const growthMiB = await server.growthDuring(async () => {
    expect(await slowDownload(100, 1)).toBe(100 * 1024 * 1024);
  });
  expect(growthMiB).toBeLessThan(MAX_GROWTH_MIB);
});

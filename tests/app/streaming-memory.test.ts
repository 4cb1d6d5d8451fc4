/**
 * A 100 MiB streamed answer through a client that reads slowly. The server (in its own process) reads
 * its source only as fast as the client takes the bytes: at every MiB the client has taken, the chunks
 * the source has given stay within a few MiB of it, and the server's resident size grows by a small
 * fraction of the body. The source yields a new buffer per chunk, so a pump that ignored backpressure would read all
 * 100 MiB at once and hold them, failing both.
 */
import { get } from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { MemoryServer } from './support/memory-server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const MIB = 2 ** 20;
/** The fixture's chunk size. */
const CHUNK_BYTES = 64 * 1024;
/**
 * What the server may hold above idle while it streams: a chunk or two, the chunks dropped since the last
 * collection, GC slack (2 to 7 MiB seen). Without backpressure it holds the whole body: about 100 MiB.
 */
const MAX_GROWTH_MIB = 16;
/**
 * How far the source may run ahead of the bytes the client has taken: both loopback sockets' kernel
 * buffers (autotuned up to a few MiB each), the client's stream buffers, the chunk in hand (5 to 6 MiB
 * seen). Without backpressure the lead is the whole body less what was taken: close to 100 MiB.
 */
const MAX_LEAD_MIB = 16;

let server: MemoryServer;

beforeAll(async () => {
  // Each chunk is a new buffer, dropped once written: a collection every 50 ms frees them at once, so the
  // resident size shows what the server holds rather than what V8 has not yet collected.
  server = await MemoryServer.start(['--expose-gc'], { ARBOR_TEST_COLLECT_MS: '50' });
});
afterAll(() => {
  server?.stop();
});

/** Chunks the server has read from `/big`'s sources so far. */
async function reads(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${server.port}/reads`);
  return ((await response.json()) as { reads: number }).reads;
}

/**
 * Downloads `/big?mb=N`, pausing `delayMs` after each chunk received. At each MiB received the reader
 * stops and asks the server how many chunks it has read (since `readsBefore`); resolves to the bytes
 * read and the largest lead of the source over the client seen, in MiB.
 */
function slowDownload(
  mb: number,
  delayMs: number,
  readsBefore = 0,
): Promise<{ bytes: number; lead: number }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: server.port, path: `/big?mb=${mb}` }, (response) => {
      let bytes = 0;
      let lead = 0;
      let nextSample = MIB;
      const slow = new Writable({
        highWaterMark: 16 * 1024,
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.byteLength;
          if (bytes < nextSample) {
            setTimeout(done, delayMs);
            return;
          }
          nextSample += MIB;
          // The reader holds still while the server answers: its `bytes` are what it has taken.
          reads().then((read) => {
            lead = Math.max(lead, ((read - readsBefore) * CHUNK_BYTES - bytes) / MIB);
            setTimeout(done, delayMs);
          }, done);
        },
      });
      pipeline(response, slow).then(() => resolve({ bytes, lead }), reject);
    }).on('error', reject);
  });
}

test('100 MiB to a slow reader: the source is read as fast as the client takes it, the server holds a few MiB', async () => {
  // Warm up the path (code, buffers) so that idle means "ready to stream".
  expect((await slowDownload(4, 0)).bytes).toBe(4 * MIB);
  const before = await reads();
  let lead = 0;
  const growthMiB = await server.growthDuring(async () => {
    const got = await slowDownload(100, 1, before);
    expect(got.bytes).toBe(100 * MIB);
    lead = got.lead;
  });
  console.log(`source ahead of the client by ${lead.toFixed(1)} MiB at most`);
  expect(lead).toBeLessThan(MAX_LEAD_MIB);
  expect(growthMiB).toBeLessThan(MAX_GROWTH_MIB);
});

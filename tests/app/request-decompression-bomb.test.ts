/**
 * Decompression bombs against a server in its own process (fixtures/decompress-server.ts), on both
 * servers: ten gigabytes of zeros gzipped to about ten megabytes, sent to routes that decompress. Each is
 * a 413 as soon as the decoded bytes pass the route's limit, the server's resident size grows by about
 * the limit at most (never by the inflated size), and the connection is closed after the answer (the
 * rest of the body is not read and dropped: the client never gets to send it).
 *
 * - chunked, one gzip stream of 10 GiB of zeros compressed as the socket takes it, to a route with the
 *   default limit (1 MiB);
 * - with its `Content-Length` (10 MiB of gzip: 1,024 gzip members of 10 MiB of zeros each, which a gzip
 *   decoder reads as one body), to a route whose limit is 16 MiB: the declared size passes, the decoded
 *   one does not.
 *
 * The server collects every 50 ms (`--expose-gc`), so that its resident size shows what it holds rather
 * than buffers already dropped that V8 has not yet freed.
 *
 * It runs on Node 24 only (CI runs the suites on 22 and 26 too): what it proves is the decoder's and the
 * transports' bound, which request-decompression.test.ts checks on every line at small sizes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { testServer } from './support/engine.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const MIB = 2 ** 20;
/** What the bomb inflates to: 10 GiB. */
const INFLATED = 10 * 1024 * MIB;
/** The fixture's `/big` limit. */
const BIG_LIMIT_MIB = 16;
/**
 * Growth of the server's resident size allowed over idle, beyond the route's limit: socket buffers, the
 * decoder's window and output chunks, and what the collector has not freed yet on a loaded machine. A
 * server that inflated the bomb would grow by gigabytes, or die.
 */
const SLACK_MIB = 32;

let child: ChildProcess;
let port: number;

describe.skipIf(!process.version.startsWith('v24.'))('decompression bombs (Node 24)', () => {
  beforeAll(async () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'decompress-server.ts');
    child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fixture], {
      env: { ...process.env, ARBOR_TEST_SERVER: testServer, ARBOR_TEST_COLLECT_MS: '50' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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

  /** The peak growth of the server's resident size (MiB) while `work` runs, sampled every 50 ms. */
  async function growthDuring(work: () => Promise<void>): Promise<number> {
    const idle = await rss();
    let peak = idle;
    const sampler = setInterval(() => {
      rss().then(
        (value) => {
          peak = Math.max(peak, value);
        },
        () => undefined,
      );
    }, 50);
    try {
      await work();
      // One more sample after the answer: a server that inflated late would show it now.
      peak = Math.max(peak, await rss());
    } finally {
      clearInterval(sampler);
    }
    const growth = (peak - idle) / MIB;
    console.log(`server RSS: idle ${(idle / MIB).toFixed(1)} MiB, peak +${growth.toFixed(1)} MiB`);
    return growth;
  }

  /** `total` bytes of zeros, one shared buffer at a time: nothing held. */
  function zeros(total: number): Readable {
    const block = Buffer.alloc(MIB);
    let left = total;
    return new Readable({
      read() {
        if (left <= 0) {
          this.push(null);
          return;
        }
        const size = Math.min(left, block.byteLength);
        left -= size;
        this.push(size === block.byteLength ? block : block.subarray(0, size));
      },
    });
  }

  interface Outcome {
    /** The answer's status, or 0 when none came. */
    status: number;
    /** Encoded bytes the client got to write before its answer came or the server cut it off. */
    sent: number;
    /** How the connection ended: `closed` (the server closed it), or the socket error's code. */
    ended: string;
  }

  /**
   * POSTs `body` (gzip) to `path`, writing as fast as the socket takes it until the answer begins (as an
   * HTTP client that reads while it sends does) or the body ends; resolves once the server closes the
   * connection. A server that read and dropped the rest of the body instead would keep the connection open
   * (waiting for the next request), and the test would time out.
   */
  function attack(path: string, body: Readable, contentLength?: number): Promise<Outcome> {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunked = contentLength === undefined;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n` +
        (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${contentLength}\r\n\r\n`),
    );
    return new Promise((resolve) => {
      let received = '';
      let sent = 0;
      let ended = 'closed';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        body.destroy();
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        ended = error.code ?? error.message;
      });
      socket.on('close', () => {
        body.destroy();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
        resolve({ status: status === undefined ? 0 : Number(status), sent, ended });
      });
      body.on('data', (chunk: Buffer) => {
        if (socket.destroyed || received !== '') return;
        sent += chunk.byteLength;
        const more = chunked
          ? socket.write(`${chunk.byteLength.toString(16)}\r\n`) &&
            socket.write(chunk) &&
            socket.write('\r\n')
          : socket.write(chunk);
        if (!more) {
          body.pause();
          socket.once('drain', () => body.resume());
        }
      });
      body.on('end', () => (chunked ? socket.end('0\r\n\r\n') : socket.end()));
    });
  }

  test('10 GiB of zeros gzipped, chunked, to a route with the default limit (1 MiB): 413, memory flat', async () => {
    let outcome: Outcome = { status: 0, sent: 0, ended: '' };
    const started = Date.now();
    const growth = await growthDuring(async () => {
      outcome = await attack('/json', zeros(INFLATED).pipe(createGzip()));
    });
    console.log(
      `sent ${(outcome.sent / MIB).toFixed(2)} MiB of gzip in ${Date.now() - started} ms, ${outcome.ended}`,
    );
    expect(outcome.status).toBe(413);
    expect(growth).toBeLessThan(1 + SLACK_MIB);
    // Cut off long before the end of its ~10 MiB: the server stopped reading, and did not drain the rest.
    expect(outcome.sent).toBeLessThan(5 * MIB);
  });

  test('10 MiB of gzip declared by Content-Length, inflating to 10 GiB, to a route allowing 16 MiB: 413', async () => {
    // One gzip member of 10 MiB of zeros (streamed through gzip), sent 1,024 times: 10 GiB inflated.
    const parts: Buffer[] = [];
    await pipeline(zeros(10 * MIB), createGzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) parts.push(chunk);
    });
    const member = Buffer.concat(parts);
    const members = 1024;
    expect(member.byteLength * members).toBeLessThan(BIG_LIMIT_MIB * MIB);
    let outcome: Outcome = { status: 0, sent: 0, ended: '' };
    const growth = await growthDuring(async () => {
      outcome = await attack(
        '/big',
        Readable.from(
          (function* () {
            for (let i = 0; i < members; i++) yield member;
          })(),
        ),
        member.byteLength * members,
      );
    });
    console.log(
      `sent ${(outcome.sent / MIB).toFixed(2)} of ${((member.byteLength * members) / MIB).toFixed(2)} MiB, ${outcome.ended}`,
    );
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(member.byteLength * members);
    expect(growth).toBeLessThan(BIG_LIMIT_MIB + SLACK_MIB);
  });

  test('after the bombs the server still answers, with a body that fits', async () => {
    const { gzipSync } = await import('node:zlib');
    const text = JSON.stringify({ ok: 'x'.repeat(1000) });
    const response = await fetch(`http://127.0.0.1:${port}/json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(text),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bytes: text.length });
  });
});

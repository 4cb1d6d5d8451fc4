/**
 * The bodies every server of the I/O benchmarks sends, built the same way in every process: the runner
 * imports them too, to know what a correct answer hashes to.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** The chunk size of the streamed body (64 KiB): the generator pushes this buffer again and again. */
export const STREAM_CHUNK = 64 * 1024;

/** A chunk whose bytes are not all equal, so that a dropped or repeated range changes the hash. */
export const streamChunk: Buffer = Buffer.from(
  Uint8Array.from({ length: STREAM_CHUNK }, (_, i) => (i * 31 + (i >> 8)) & 0xff),
);

/**
 * A Node Readable of `total` bytes made of {@link streamChunk} (the last piece cut short), produced on
 * demand: what Arbor's `res.send(readable)` and Fastify's `reply.send(stream)` both receive.
 */
export function chunkedStream(total: number): Readable {
  let sent = 0;
  return new Readable({
    highWaterMark: STREAM_CHUNK,
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(STREAM_CHUNK, total - sent);
      sent += size;
      this.push(size === STREAM_CHUNK ? streamChunk : streamChunk.subarray(0, size));
    },
  });
}

/** The SHA-256 (hex) of what {@link chunkedStream} produces for `total` bytes. */
export function chunkedStreamHash(total: number): string {
  const hash = createHash('sha256');
  for (let sent = 0; sent < total; sent += STREAM_CHUNK) {
    hash.update(streamChunk.subarray(0, Math.min(STREAM_CHUNK, total - sent)));
  }
  return hash.digest('hex');
}

/**
 * About 100 KiB of JSON, the body `compress()` and `@fastify/compress` compress: a list of records like an
 * API's, varied enough that it does not compress to nothing. Sent as a prebuilt string, so that the
 * benchmark times compression rather than `JSON.stringify`.
 */
export const JSON_BODY: string = (() => {
  const items: unknown[] = [];
  let length = 2;
  for (let i = 0; length < 100 * 1024; i++) {
    const item = {
      id: `task-${i.toString(36).padStart(6, '0')}`,
      title: `Task ${i}: ${['write', 'review', 'ship', 'measure', 'document'][i % 5]} the ${['router', 'server', 'docs', 'benchmarks'][i % 4]}`,
      completed: i % 3 === 0,
      priority: (i * 7) % 5,
      tags: ['io', `t${i % 11}`, `g${(i * 13) % 17}`],
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    };
    const text = JSON.stringify(item);
    length += text.length + 1;
    items.push(item);
  }
  return JSON.stringify(items);
})();

/** The `n`th event (from 0) of every SSE stream: JSON-encoded by the framework (Arbor) or by hand (Hono). */
export function sseEvent(n: number): { data: { n: number; at: string }; event: string; id: string } {
  return {
    data: { n, at: new Date(Date.UTC(2026, 0, 1) + n * 100).toISOString() },
    event: 'tick',
    id: String(n),
  };
}

/** `count` events, one every `intervalMs` (the first at once): each client's SSE source. */
export async function* sseSource(
  count: number,
  intervalMs: number,
): AsyncGenerator<ReturnType<typeof sseEvent>> {
  for (let n = 0; n < count; n++) {
    if (n > 0 && intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
    yield sseEvent(n);
  }
}

/** The static files, by size: name and content (text, so that both servers pick the same type). */
export function staticFile(size: number): { name: string; body: Buffer } {
  const line =
    'Arbor serves this file to measure static file serving. 0123456789 abcdefghijklmnopqrstuvwxyz\n';
  const body = Buffer.alloc(size);
  for (let at = 0; at < size; at += line.length) body.write(line, at, 'latin1');
  return { name: `file-${size}.txt`, body };
}

/** Events of the SSE equivalence check (`GET /sse/check`, sent without delay). */
export const CHECK_EVENTS = 5;

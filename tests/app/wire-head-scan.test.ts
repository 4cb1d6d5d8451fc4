/**
 * The own server's head scanner (`wire/head-scan.ts`): it finds a head's end however the bytes are cut,
 * and a head trickled one byte per packet costs linear work. The cost is counted, not timed: every byte
 * `Buffer#indexOf` examines and every byte `Buffer.concat` copies, through spies on both, so the count
 * cannot be fooled by the scanner's own bookkeeping (a scanner that re-joins and rescans its bytes on
 * each packet, as the server's first one did, counts about n²/2 for an n-byte head).
 */
import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpError } from '../../ts/src/http/errors.js';
import { HeadScanner } from '../../ts/src/http/wire/head-scan.js';
import { createWireServer } from '../../ts/src/http/wire/server.js';

/** Counts bytes examined by `indexOf` and copied by `concat` while `run` runs. */
async function counted(run: () => unknown): Promise<{ examined: number; copied: number }> {
  const counts = { examined: 0, copied: 0 };
  const indexOf = Buffer.prototype.indexOf;
  const concat = Buffer.concat;
  const spies = [
    vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(function (this: Buffer, ...args: unknown[]) {
      const [value, byteOffset, encoding] = args as [
        string | number | Uint8Array,
        number | undefined,
        BufferEncoding | undefined,
      ];
      const found = indexOf.call(this, value, byteOffset, encoding);
      const from = typeof byteOffset === 'number' ? Math.max(0, byteOffset) : 0;
      counts.examined += (found === -1 ? this.byteLength : found + 1) - from;
      return found;
    }),
    vi.spyOn(Buffer, 'concat').mockImplementation((list, total) => {
      const joined = concat(list, total);
      counts.copied += joined.byteLength;
      return joined;
    }),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return counts;
}

/** A GET whose head is about `size` bytes of short field lines. */
const headOf = (size: number) => {
  let head = 'GET /health HTTP/1.1\r\nHost: x\r\n';
  for (let i = 0; head.length < size - 20; i++) head += `X-F${i}: ${'v'.repeat(8)}\r\n`;
  return `${head}\r\n`;
};

/** What the scanner must find: empty lines (CRLF) skipped, then up to the first blank line. */
function reference(bytes: Buffer): { head: string; rest: string } | null {
  let start = 0;
  while (bytes[start] === 0x0d && bytes[start + 1] === 0x0a) start += 2;
  const end = bytes.indexOf('\r\n\r\n', start);
  if (end === -1) return null;
  return { head: bytes.toString('latin1', start, end), rest: bytes.toString('latin1', end + 4) };
}

/** mulberry32: a small seeded PRNG, so a failing split can be replayed. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('the head scanner', () => {
  const streams = [
    'GET / HTTP/1.1\r\nHost: x\r\n\r\nrest',
    '\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\n\r\n',
    'GET /a HTTP/1.1\r\nA: b\r\n\r\n',
    '\r\nGET / HTTP/1.1\r\n\r\n\r\n\r\n',
    'POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n\r\n\r\n',
  ];
  const random = prng(0x5ca9);
  test.each(streams)('finds the same head however %j is cut (500 splittings)', (text) => {
    const bytes = Buffer.from(text, 'latin1');
    const want = reference(bytes);
    for (let round = 0; round < 500; round++) {
      const cuts = [...new Set(Array.from({ length: 1 + Math.floor(random() * 10) }, () => random()))]
        .map((at) => Math.ceil(at * (bytes.byteLength - 1)))
        .sort((a, b) => a - b);
      const bounds = [0, ...cuts, bytes.byteLength];
      const scanner = new HeadScanner();
      let found: ReturnType<HeadScanner['next']> = null;
      for (let i = 1; i < bounds.length; i++) {
        scanner.push(bytes.subarray(bounds[i - 1], bounds[i]));
        if (found === null) found = scanner.next(16 * 1024);
      }
      const got =
        found === null || found instanceof HttpError
          ? found
          : { head: found.head.toString('latin1'), rest: scanner.take().toString('latin1') };
      expect(got, `cut before ${cuts.join(',')}`).toEqual(want);
    }
  });

  test.each([
    ['a bare LF ends a line', 'GET / HTTP/1.1\nHost: x\n', 400],
    ['a bare CR ends a line', 'GET / HTTP/1.1\rHost: x\r', 400],
    ['a CR, then a packet without its LF', ['GET / HTTP/1.1\r', 'Host: x'], 400],
    ['a head over the limit, not yet whole', `GET / HTTP/1.1\r\nX: ${'a'.repeat(200)}`, 431],
    ['a whole head over the limit', `GET / HTTP/1.1\r\nX: ${'a'.repeat(200)}\r\n\r\n`, 431],
  ])('refuses a head that can never be read: %s → %i', (_name, pieces, status) => {
    const scanner = new HeadScanner();
    let found: ReturnType<HeadScanner['next']> = null;
    for (const piece of Array.isArray(pieces) ? pieces : [pieces]) {
      scanner.push(Buffer.from(piece, 'latin1'));
      found = scanner.next(128);
    }
    expect(found instanceof HttpError ? found.status : found).toBe(status);
  });

  test('a 14 KB head trickled one byte per packet costs linear work', async () => {
    const head = Buffer.from(headOf(14_000), 'latin1');
    let found: ReturnType<HeadScanner['next']> = null;
    const cost = await counted(() => {
      const scanner = new HeadScanner();
      for (let i = 0; i < head.byteLength; i++) {
        scanner.push(head.subarray(i, i + 1));
        found = scanner.next(16 * 1024);
      }
    });
    expect(found).not.toBeNull();
    // Each byte searched for the blank line and for bare line breaks (three searches), joined once.
    expect(cost.examined).toBeLessThanOrEqual(4 * head.byteLength);
    expect(cost.copied).toBeLessThanOrEqual(head.byteLength);
  });
});

describe.skipIf(process.env.ARBOR_TEST_SERVER !== undefined)('a trickled head on the own server', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  test('a 6 KB head written one byte at a time: linear work in the server, then its answer', async () => {
    const server = createWireServer(
      () => ({ getStatus: () => 200, getHeaders: () => ({}), getBody: () => 'ok' }),
      { error: () => {} },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    close = () => server.closeGracefully(100);
    const head = Buffer.from(headOf(6_000), 'latin1');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.setNoDelay(true);
    await once(socket, 'connect');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    let packets = 0;
    const cost = await counted(async () => {
      for (let i = 0; i < head.byteLength; i++) {
        socket.write(head.subarray(i, i + 1));
        // One byte per turn of the event loop: the server sees many packets, not one.
        if (i % 4 === 0) {
          await new Promise((resolve) => setImmediate(resolve));
          packets++;
        }
      }
      while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    });
    socket.destroy();
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(packets).toBeGreaterThan(1000);
    // Rescanning from the start on every packet would cost about n²/2 here: millions, not thousands.
    expect(cost.examined).toBeLessThanOrEqual(4 * head.byteLength);
    expect(cost.copied).toBeLessThanOrEqual(2 * head.byteLength);
  });
});

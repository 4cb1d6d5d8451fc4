/**
 * The body decoders of Arbor's HTTP/1.1 server: what a body takes from the bytes after the head, what it
 * leaves for the next request, and how reading it fails. Every chunked case is also fed split at every
 * byte, since the network may cut anywhere.
 */
import { describe, expect, test } from 'vitest';
import { ChunkedBody, type IncomingBody, LengthBody } from '../../ts/src/http/wire/body.js';

/** Feeds `bytes` in pieces of `size`; returns what was left over after the body ended. */
function feed(body: IncomingBody, bytes: Buffer, size = bytes.byteLength): Buffer {
  const rest: Buffer[] = [];
  for (let at = 0; at < bytes.byteLength; at += size) {
    const piece = bytes.subarray(at, Math.min(at + size, bytes.byteLength));
    if (body.complete || body.failed) {
      rest.push(piece);
      continue;
    }
    const used = body.feed(piece, 0);
    rest.push(piece.subarray(used));
  }
  return Buffer.concat(rest);
}

describe('Content-Length', () => {
  test('takes its bytes and leaves the next request', async () => {
    const body = new LengthBody(5);
    const rest = feed(body, Buffer.from('helloGET / HTTP/1.1'), 3);
    expect(rest.toString()).toBe('GET / HTTP/1.1');
    expect(body.complete).toBe(true);
    expect(Buffer.from(await body.read(100, 5)).toString()).toBe('hello');
  });

  test('a declared length over the limit is refused before anything arrives, and what arrives is dropped', async () => {
    const body = new LengthBody(10);
    await expect(body.read(5, 10)).rejects.toMatchObject({ status: 413 });
    body.feed(Buffer.from('0123456789'), 0);
    expect(body.buffered).toBe(0);
  });

  test('a body still arriving is read once whole; a client that leaves makes it 499', async () => {
    const body = new LengthBody(4);
    const reading = body.read(100, 4);
    body.feed(Buffer.from('ab'), 0);
    body.feed(Buffer.from('cd'), 0);
    expect(Buffer.from(await reading).toString()).toBe('abcd');
    const cut = new LengthBody(4);
    const waiting = cut.read(100, 4);
    cut.feed(Buffer.from('ab'), 0);
    cut.abort();
    await expect(waiting).rejects.toMatchObject({ status: 499 });
  });
});

const CHUNKED: [string, string, string][] = [
  ['one chunk', '5\r\nhello\r\n0\r\n\r\n', 'hello'],
  ['several chunks, upper-case hex', '3\r\nabc\r\nA\r\n0123456789\r\n0\r\n\r\n', 'abc0123456789'],
  ['extensions are skipped', '3;name=value;x\r\nabc\r\n0;last\r\n\r\n', 'abc'],
  ['trailers are read and dropped', '2\r\nok\r\n0\r\nX-Sum: 1\r\nX-Other: 2\r\n\r\n', 'ok'],
  ['empty body', '0\r\n\r\n', ''],
];

describe('chunked', () => {
  test.each(CHUNKED)('%s, split at every byte', async (_label, wire, expected) => {
    for (let size = 1; size <= wire.length; size++) {
      const body = new ChunkedBody();
      const rest = feed(body, Buffer.from(`${wire}NEXT`), size);
      expect(rest.toString(), `pieces of ${size}`).toBe('NEXT');
      expect(body.complete).toBe(true);
      expect(Buffer.from(await body.read(1000, undefined)).toString()).toBe(expected);
    }
  });

  test.each([
    ['a size that is not hex', 'zz\r\nab\r\n0\r\n\r\n'],
    ['no CRLF after the data', '2\r\nabX\r\n0\r\n\r\n'],
    ['a size line ending in a bare LF', '2\nab\r\n0\r\n\r\n'],
    ['a size line past 4 KiB', `1;${'x'.repeat(5000)}\r\na\r\n0\r\n\r\n`],
    ['a size past 2^52', 'FFFFFFFFFFFFFF\r\n'],
    ['a trailer line ending in a bare LF', '0\r\nX: 1\n\r\n'],
  ])('400 for %s', async (_label, wire) => {
    const body = new ChunkedBody();
    const reading = body.read(1 << 20, undefined);
    feed(body, Buffer.from(wire));
    expect(body.failed).toBe(true);
    await expect(reading).rejects.toMatchObject({ status: 400 });
  });

  test('413 as soon as the chunks pass the limit; nothing more is kept', async () => {
    const body = new ChunkedBody();
    const reading = body.read(4, undefined);
    feed(body, Buffer.from('3\r\nabc\r\n3\r\ndef\r\n'));
    await expect(reading).rejects.toMatchObject({ status: 413 });
    expect(body.buffered).toBe(0);
  });
});

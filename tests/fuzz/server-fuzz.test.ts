// Property tests for Arbor's HTTP/1.1 server: whatever bytes arrive, the head parser and the body
// decoders answer (a head, or a refusal) without throwing; a chunked body decodes to what was encoded
// however the network cuts it; and the live server, sent random mixes of valid and broken requests,
// never crashes, never answers 5xx (but 501 and 505 for what it does not implement), never writes anything but whole HTTP/1.1 responses, and still serves
// the next client.
import fc from 'fast-check';
import '../support/fast-check.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { HttpError } from '../../ts/src/http/errors.js';
import { ChunkedBody, LengthBody } from '../../ts/src/http/wire/body.js';
import { Framing, parseHead } from '../../ts/src/http/wire/head.js';
import { exchange } from '../app/support/raw-exchange.js';
import { listen } from '../app/support/transport.js';

/** Pieces a request head is made of, valid and not, so that random heads get past the first check. */
const headPiece = fc.constantFrom(
  'GET',
  'POST',
  'get',
  'FOO',
  ' ',
  '  ',
  '\t',
  '/',
  '/a?b=1',
  'http://h/x',
  '*',
  'HTTP/1.1',
  'HTTP/1.0',
  'HTTP/2.0',
  '\r\n',
  '\n',
  '\r',
  'Host: x',
  'Content-Length: 3',
  'Content-Length: -1',
  'Transfer-Encoding: chunked',
  'Transfer-Encoding: gzip',
  'Connection: close',
  'Expect: 100-continue',
  ':',
  'X-A: \x00',
  'é',
);
const head = fc.array(headPiece, { maxLength: 24 }).map((pieces) => pieces.join(''));

describe('the head parser', () => {
  it('answers a head or a 4xx/5xx refusal for any text, and a head it accepts is coherent', () => {
    fc.assert(
      fc.property(fc.oneof(head, fc.string({ maxLength: 200 })), (text) => {
        const parsed = parseHead(text);
        if (parsed instanceof HttpError) {
          expect([400, 417, 501, 505]).toContain(parsed.status);
          return;
        }
        expect(parsed.target).toMatch(/^[\x21-\x7e]+$/);
        expect(parsed.names.every((name) => name === name.toLowerCase())).toBe(true);
        expect(parsed.names.length).toBe(parsed.values.length);
        const lengths = parsed.names.filter((name) => name === 'content-length').length;
        const codings = parsed.names.filter((name) => name === 'transfer-encoding').length;
        expect(lengths === 0 || codings === 0).toBe(true);
        expect(lengths).toBeLessThanOrEqual(1);
        if (parsed.framing === Framing.Chunked) expect(codings).toBeGreaterThan(0);
        if (parsed.minor === 1) expect(parsed.names.filter((name) => name === 'host')).toHaveLength(1);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Random cuts of `bytes`: the pieces the network might deliver. */
function cut(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const point of [...points, bytes.byteLength]) {
    if (point > at) pieces.push(bytes.subarray(at, point));
    at = Math.max(at, point);
  }
  return pieces;
}

describe('the body decoders', () => {
  it('a chunked body decodes to its data however it is cut, and leaves what follows it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (chunks, cuts, withTrailer) => {
          const wire = Buffer.concat([
            ...chunks.flatMap((c) => [
              Buffer.from(`${c.byteLength.toString(16)}\r\n`),
              c,
              Buffer.from('\r\n'),
            ]),
            Buffer.from(withTrailer ? '0\r\nX-Sum: 1\r\n\r\nNEXT' : '0\r\n\r\nNEXT'),
          ]);
          const body = new ChunkedBody();
          const rest: Buffer[] = [];
          for (const piece of cut(wire, cuts)) {
            if (body.complete) rest.push(piece);
            else rest.push(piece.subarray(body.feed(piece, 0)));
          }
          expect(body.complete).toBe(true);
          expect(Buffer.concat(rest).toString()).toBe('NEXT');
          expect(Buffer.from(await body.read(1 << 20, undefined))).toEqual(Buffer.concat(chunks));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('random bytes never make a decoder throw or take more than it was given', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        for (const body of [new ChunkedBody(), new LengthBody(50)]) {
          for (const piece of cut(Buffer.from(bytes), cuts)) {
            if (body.complete || body.failed) break;
            const used = body.feed(piece, 0);
            expect(used).toBeGreaterThanOrEqual(0);
            expect(used).toBeLessThanOrEqual(piece.byteLength);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the live server', () => {
  const logger = memoryLogger();
  let server: ArborServer;
  let port: number;
  beforeAll(async () => {
    const app = new Application({ server: 'arbor', logger, headersTimeout: 300, requestTimeout: 300 });
    app.get('/health', (_req, res) => res.json({ ok: true }));
    app.post('/echo', (req, res) => res.json({ length: req.rawBody().byteLength }));
    app.get('/items/:id', (req, res) => res.json({ id: req.param('id') }));
    ({ server, port } = await listen(app));
  });
  afterAll(() => server.closeGracefully(500));

  const valid = fc.constantFrom(
    'GET /health HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
    'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    // No HEAD: its answer has a Content-Length and no body, which the reader must be told by position,
    // and a broken request before it may or may not have an answer (the differential suite covers HEAD).
  );
  const broken = fc.oneof(
    head.map((text) => `${text}\r\n\r\n`),
    fc.string({ maxLength: 60 }),
    fc.constantFrom('0\r\n\r\n', '\r\n', 'zz\r\n', 'Content-Length: 99999999\r\n'),
  );

  it('answers whole responses, no 5xx but 501/505, and serves the next client', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: broken }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (requests, cuts) => {
          const bytes = Buffer.from(requests.join(''), 'latin1');
          const seen = await exchange(port, cut(bytes, cuts), { waitMs: 1000, quietMs: 150 });
          // 5xx only for what the server does not implement (an unknown method, another HTTP version).
          for (const { status } of seen.responses)
            expect(status < 500 || status === 501 || status === 505).toBe(true);
          // Whatever is left after the last whole response is a response still cut short, never garbage.
          if (seen.leftover.byteLength > 0) expect(seen.leftover.toString('latin1')).toMatch(/^HTTP\/1\.1 /);
          const next = await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
          expect(next.responses.map((r) => r.status)).toEqual([200]);
        },
      ),
      { numRuns: 60 },
    );
    expect(logger.errors).toEqual([]);
  }, 120_000);
});

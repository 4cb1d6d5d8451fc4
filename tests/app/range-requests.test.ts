/**
 * How a file answer reads the `Range` field (docs/framework/files.md): every spec decimal digits, an
 * invalid field ignored (the whole file, 200), a suffix longer than the file the whole file (206), and
 * what send decides beyond that (merging, several ranges, 416) kept. On both servers and through
 * `app.fetch()`, by `serveStatic`; `res.sendFile` shares the code, and gets one row to show it.
 * static-files.test.ts has the common ranges, and how curl reads them beside @fastify/static.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { serveStatic } from '../../ts/src/app/index.js';
import { rangeForSize, rangeSpecs } from '../../ts/src/helpers/static-files.js';
import { appStarter, transports } from './support/transport.js';

const ROOT = resolve(import.meta.dirname, 'fixtures/static/public');
const ALPHABET = readFileSync(join(ROOT, 'alphabet.txt'), 'utf8'); // 37 bytes
const WHOLE = 'bytes 0-36/37';
/** Past Number.MAX_SAFE_INTEGER (9007199254740991), where `Number` rounds both to 9007199254740992. */
const HUGE_FIRST = '9007199254740993';
const HUGE_LAST = '9007199254740992';

type Row = [range: string, status: number, contentRange: string | null, body: string];

/** Each row was answered otherwise before the field was read here (the old answer is in its comment). */
const FIXED: Row[] = [
  // A suffix longer than the file selects the whole file (was 416: send took its start as negative).
  ['bytes=-38', 206, WHOLE, ALPHABET],
  ['bytes=-1000000', 206, WHOLE, ALPHABET],
  ['bytes=-99999999999999999999', 206, WHOLE, ALPHABET],
  // Merged with the other range, the whole file (was 206 0-4: the suffix was dropped).
  ['bytes=-1000000,0-4', 206, WHOLE, ALPHABET],
  // A spec is digits only; anything else makes the field invalid, and an invalid field is ignored.
  ['bytes=0x10-0x20', 200, null, ALPHABET], // was 206 0-0 (parseInt)
  ['bytes=0-0x20', 200, null, ALPHABET], // was 206 0-0
  ['bytes=+1-5', 200, null, ALPHABET], // was 206 1-5
  ['bytes=1e1-20', 200, null, ALPHABET], // was 206 1-20
  ['bytes=0-9junk', 200, null, ALPHABET], // was 206 0-9
  ['bytes=0-4,foo', 200, null, ALPHABET], // was 206 0-4: the bad spec dropped, the good one answered
  ['bytes=0 -9', 200, null, ALPHABET], // was 206 0-9: no whitespace inside a spec
  // A last position before the first is invalid, not unsatisfiable (was 416).
  ['bytes=5-3', 200, null, ALPHABET],
  [`bytes=${HUGE_FIRST}-${HUGE_LAST}`, 200, null, ALPHABET],
  // No spec at all (was 416).
  ['bytes=', 200, null, ALPHABET],
  ['bytes=,', 200, null, ALPHABET],
  ['bytes=-', 200, null, ALPHABET],
];

/** Answered so before and after: what send decides once the field is valid, and units it ignores. */
const KEPT: Row[] = [
  ['bytes=0-9', 206, 'bytes 0-9/37', '0123456789'],
  ['bytes=007-009', 206, 'bytes 7-9/37', '789'],
  ['bytes=-37', 206, WHOLE, ALPHABET],
  ['bytes=-5', 206, 'bytes 32-36/37', 'wxyz\n'],
  ['bytes=0-99999999999999999999', 206, WHOLE, ALPHABET],
  // Spaces and tabs around a spec, and empty list elements, are allowed; overlapping ranges merge.
  ['bytes= 0-9', 206, 'bytes 0-9/37', '0123456789'],
  ['bytes=0-4 ,\t3-9', 206, 'bytes 0-9/37', '0123456789'],
  ['bytes=0-4,,5-9', 206, 'bytes 0-9/37', '0123456789'],
  // Several disjoint ranges: the whole file (no multipart/byteranges).
  ['bytes=0-1,5-6', 200, null, ALPHABET],
  // Valid, but nothing of the file: 416.
  ['bytes=37-', 416, 'bytes */37', ''],
  ['bytes=99999999999999999999-', 416, 'bytes */37', ''],
  ['bytes=-0', 416, 'bytes */37', ''],
  // A unit other than `bytes` (lower-case, as send reads it) is ignored.
  ['items=0-1', 200, null, ALPHABET],
  ['Bytes=0-1', 200, null, ALPHABET],
];

describe.each(transports)('Range over $name', (transport) => {
  const start = appStarter(transport);
  const assets = () => start((app) => app.middleware(serveStatic(ROOT)));

  test.each([...FIXED.map((row) => ['fixed', ...row]), ...KEPT.map((row) => ['kept', ...row])] as [
    string,
    ...Row,
  ][])('%s: %s → %i %s', async (_kind, range, status, contentRange, body) => {
    const c = await assets();
    const reply = await c.request('/alphabet.txt', { headers: { Range: range } });
    expect([reply.status, reply.headers.get('content-range')]).toEqual([status, contentRange]);
    if (status === 416) return; // the framework's JSON error body: static-files.test.ts
    expect(reply.text).toBe(body);
    expect(reply.headers.get('content-length')).toBe(String(body.length));
  });

  test('HEAD and res.sendFile read the field alike', async () => {
    const c = await start((app) => {
      app.middleware(serveStatic(ROOT, { prefix: '/assets' }));
      app.get('/file', (_req, res) => res.sendFile('alphabet.txt', { root: ROOT }));
    });
    const head = await c.request('/assets/alphabet.txt', {
      method: 'HEAD',
      headers: { Range: 'bytes=-1000000' },
    });
    expect([head.status, head.headers.get('content-range'), head.headers.get('content-length')]).toEqual([
      206,
      WHOLE,
      '37',
    ]);
    for (const [range, status, contentRange, body] of [FIXED[1], FIXED[4]] as Row[]) {
      const reply = await c.request('/file', { headers: { Range: range } });
      expect([reply.status, reply.headers.get('content-range'), reply.text], range).toEqual([
        status,
        contentRange,
        body,
      ]);
    }
  });

  describe('a zero-length file', () => {
    const empty = mkdtempSync(join(tmpdir(), 'arbor-range-'));
    writeFileSync(join(empty, 'empty.txt'), '');
    afterAll(() => rmSync(empty, { recursive: true, force: true }));

    // Nothing of an empty file can be selected, a long suffix included (kept); an invalid field is still
    // ignored (fixed: was 416).
    test.each<[string, string, number, string | null]>([
      ['kept', 'bytes=-5', 416, 'bytes */0'],
      ['kept', 'bytes=0-', 416, 'bytes */0'],
      ['fixed', 'bytes=5-3', 200, null],
    ])('%s: %s → %i', async (_kind, range, status, contentRange) => {
      const c = await start((app) => app.middleware(serveStatic(empty)));
      const reply = await c.request('/empty.txt', { headers: { Range: range } });
      expect([reply.status, reply.headers.get('content-range')]).toEqual([status, contentRange]);
    });
  });
});

describe('the field send is given', () => {
  // What the rows above rest on, without a server: the specs kept, and a long suffix resolved by size.
  test.each<[string | undefined, number, string | null]>([
    [undefined, 37, null],
    ['bytes=0-9, 20-', 37, 'bytes=0-9,20-'],
    ['bytes=-37,-38', 37, 'bytes=-37,0-'],
    ['bytes=-1', 0, 'bytes=0-'],
    [`bytes=${HUGE_LAST}-${HUGE_FIRST}`, 37, `bytes=${HUGE_LAST}-${HUGE_FIRST}`],
    [`bytes=${HUGE_FIRST}-${HUGE_LAST}`, 37, null],
    ['bytes=00010-9', 37, null],
    ['bytes=0010-10', 37, 'bytes=0010-10'],
  ])('%s (size %i) → %s', (field, size, sent) => {
    const specs = rangeSpecs(field);
    expect(specs === null ? null : rangeForSize(specs, size)).toBe(sent);
  });
});

/**
 * The cache file format and the fingerprint, in process: what is detected as corrupt or as another
 * version, and what makes a cache stale. (The commands and start-ups are tested as processes elsewhere.)
 */
import { describe, expect, it } from 'vitest';
import { fingerprint, type RouteKey, tableOptions } from '../../ts/src/cache/fingerprint.js';
import {
  CacheFormatError,
  decodeCache,
  decodeCacheStart,
  encodeCache,
  parseSection,
} from '../../ts/src/cache/format.js';

const meta = {
  arborVersion: '0.1.0',
  fingerprint: 'f'.repeat(64),
  options: tableOptions({}),
  createdAt: '2025-01-01T00:00:00.000Z',
};
const contents = {
  snapshot: new Uint8Array([1, 2, 3, 4, 5]),
  routes: [
    { id: 0, methods: ['GET'], pattern: '/a', name: 'a', middleware: ['auth'], handlerLocation: null },
  ],
  annotations: { version: 1 as const, operations: {}, schemas: {}, diagnostics: [] },
};

describe('cache file format', () => {
  const file = encodeCache(meta, contents);

  it('round-trips the header and the three sections', () => {
    const decoded = decodeCache(file);
    expect(decoded.header).toMatchObject({
      format: 2,
      ...meta,
      routeCount: 1,
      sections: [5, expect.any(Number), expect.any(Number)],
    });
    expect([...decoded.snapshot]).toEqual([1, 2, 3, 4, 5]);
    expect(parseSection(decoded.routes)).toEqual(contents.routes);
    expect(parseSection(decoded.annotations)).toEqual(contents.annotations);
  });

  const reason = (decode: () => unknown): string => {
    try {
      decode();
      return 'ok';
    } catch (error) {
      return error instanceof CacheFormatError ? `${error.reason}: ${error.message}` : `other: ${error}`;
    }
  };
  /** What a start sees: the header and the snapshot, read through the same kind of reader it uses. */
  const start = (bytes: Buffer) => () =>
    decodeCacheStart(
      (position, length) => bytes.subarray(position, Math.min(bytes.length, position + length)),
      bytes.length,
    );
  const altered = (change: (b: Buffer) => void): Buffer => {
    const copy = Buffer.from(file);
    change(copy);
    return copy;
  };
  const sectionStart = (b: Buffer, section: number): number => {
    const headerLength = b.readUInt32LE(12);
    const { sections } = decodeCache(file).header;
    return 16 + headerLength + sections.slice(0, section).reduce((sum, n) => sum + n, 0);
  };

  it.each([
    ['empty', Buffer.alloc(0), /^corrupt: .*magic/],
    ['other magic', altered((b) => b.write('XXXX', 0, 'latin1')), /^corrupt: .*magic/],
    ['other format version', altered((b) => b.writeUInt32LE(3, 8)), /^version: cache format 3/],
    [
      'header length past the end',
      altered((b) => b.writeUInt32LE(1 << 30, 12)),
      /^corrupt: truncated header/,
    ],
    ['truncated sections', file.subarray(0, file.length - 3), /^corrupt: size mismatch/],
    ['bytes appended', Buffer.concat([file, Buffer.from('x')]), /^corrupt: size mismatch/],
  ])('%s is detected, by a full read and by a start', (_what, bytes, expected) => {
    expect(reason(() => decodeCache(bytes))).toMatch(expected);
    expect(reason(start(bytes))).toMatch(expected);
  });

  // A start leaves the snapshot's integrity to the engine, which checks its own checksum on load
  // (tests/cli/route-cache.test.ts: altered snapshot bytes warn and the routes are compiled).
  it.each([
    [0, /^corrupt: checksum mismatch \(snapshot\)/],
    [1, /^corrupt: checksum mismatch \(route list\)/],
    [2, /^corrupt: checksum mismatch \(annotations\)/],
  ])(
    'a byte of section %i changed is detected by a full read; a start does not check it',
    (section, expected) => {
      const bytes = altered((b) =>
        b.writeUInt8(b[sectionStart(b, section)] === 32 ? 33 : 32, sectionStart(b, section)),
      );
      expect(reason(() => decodeCache(bytes))).toMatch(expected);
      expect(reason(start(bytes))).toBe('ok');
    },
  );

  it('the checks can pass (the tables above are not vacuous)', () => {
    expect(reason(() => decodeCache(file))).toBe('ok');
    const { header, snapshot } = start(file)();
    expect(header.routeCount).toBe(1);
    expect([...snapshot]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('fingerprint', () => {
  const routes: RouteKey[] = [
    { methods: ['GET'], pattern: '/tasks', name: 'tasks.index' },
    { methods: ['GET', 'HEAD'], pattern: '/tasks/:id', name: null },
  ];
  const base = fingerprint(routes, tableOptions({}));

  it('normalises methods as the engine stores them (upper case, first occurrence kept)', () => {
    const spelled = [routes[0] as RouteKey, { ...(routes[1] as RouteKey), methods: ['get', 'GET', 'head'] }];
    expect(fingerprint(spelled, tableOptions({}))).toBe(base);
  });

  it.each([
    ['a route added', [...routes, { methods: ['POST'], pattern: '/tasks', name: null }], {}],
    ['routes reordered', [...routes].reverse(), {}],
    ['a route renamed', [{ ...(routes[0] as RouteKey), name: 'tasks.all' }, routes[1]], {}],
    ['methods reordered', [routes[0], { ...(routes[1] as RouteKey), methods: ['HEAD', 'GET'] }], {}],
    ['order: specificity', routes, { order: 'specificity' as const }],
    ['strict trailing slash', routes, { trailingSlash: false }],
  ])('changes when %s', (_what, changed, config) => {
    expect(fingerprint(changed as RouteKey[], tableOptions(config))).not.toBe(base);
  });

  it("`trailingSlash: 'redirect'` compiles like strict matching (the redirect is the framework's)", () => {
    expect(tableOptions({ trailingSlash: 'redirect' })).toEqual(tableOptions({ trailingSlash: false }));
  });
});

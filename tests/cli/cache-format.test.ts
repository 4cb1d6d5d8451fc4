/**
 * The cache file format and the fingerprint, in process: what is detected as corrupt or as another
 * version, and what makes a cache stale. (The commands and start-ups are tested as processes elsewhere.)
 */
import { describe, expect, it } from 'vitest';
import { fingerprint, type RouteKey, tableOptions } from '../../ts/src/cache/fingerprint.js';
import { CacheFormatError, decodeCache, encodeCache, parseSection } from '../../ts/src/cache/format.js';

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
      format: 1,
      ...meta,
      routeCount: 1,
      sections: [5, expect.any(Number), expect.any(Number)],
    });
    expect([...decoded.snapshot]).toEqual([1, 2, 3, 4, 5]);
    expect(parseSection(decoded.routes)).toEqual(contents.routes);
    expect(parseSection(decoded.annotations)).toEqual(contents.annotations);
  });

  const reason = (bytes: Uint8Array): string => {
    try {
      decodeCache(bytes);
      return 'ok';
    } catch (error) {
      return error instanceof CacheFormatError ? `${error.reason}: ${error.message}` : `other: ${error}`;
    }
  };
  const altered = (change: (b: Buffer) => void): Buffer => {
    const copy = Buffer.from(file);
    change(copy);
    return copy;
  };

  it.each([
    ['empty', Buffer.alloc(0), /^corrupt: .*magic/],
    ['other magic', altered((b) => b.write('XXXX', 0, 'latin1')), /^corrupt: .*magic/],
    ['other format version', altered((b) => b.writeUInt32LE(2, 8)), /^version: cache format 2/],
    [
      'header length past the end',
      altered((b) => b.writeUInt32LE(1 << 30, 12)),
      /^corrupt: truncated header/,
    ],
    ['truncated sections', file.subarray(0, file.length - 3), /^corrupt: size mismatch/],
    [
      'a byte of the snapshot changed',
      altered((b) => b.writeUInt8(9, 16 + b.readUInt32LE(12))),
      /^corrupt: checksum/,
    ],
    ['bytes appended', Buffer.concat([file, Buffer.from('x')]), /^corrupt: size mismatch/],
  ])('%s is detected', (_what, bytes, expected) => {
    expect(reason(bytes)).toMatch(expected);
  });

  it('the check can pass (the table above is not vacuous)', () => {
    expect(reason(file)).toBe('ok');
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

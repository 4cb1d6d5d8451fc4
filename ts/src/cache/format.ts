/**
 * The route cache file: one binary file holding everything a start needs to skip compiling patterns and
 * reading source comments.
 *
 *     offset  size  content
 *     0       8     magic "ARBORRC\n"
 *     8       4     format version, u32 little-endian ({@link FORMAT_VERSION})
 *     12      4     header length H, u32 LE
 *     16      H     header, UTF-8 JSON ({@link CacheHeader})
 *     16+H    …     three sections back to back: the engine snapshot (`router.snapshot()` bytes), the route
 *                   list (UTF-8 JSON, {@link CachedRoute}[]), the annotations (UTF-8 JSON, `AnnotationSet`)
 *
 * The header carries each section's length and CRC-32, so a truncated or altered file is detected before
 * anything in it is trusted. The format version is read before the header: a file from another format is
 * reported as such, not as corrupt. Only the header and the snapshot are needed to start, and a start reads
 * only them ({@link decodeCacheStart}: the other two sections are more than a third of a large file); the
 * route list and the annotations are read and checked when asked for (the docs routes, tooling).
 */
import { zlib } from '../builtins.js';
import type { AnnotationSet } from '../openapi/types.js';
import type { TableOptions } from './fingerprint.js';

const MAGIC = Buffer.from('ARBORRC\n', 'latin1');
export const FORMAT_VERSION = 2;
const PREAMBLE = MAGIC.length + 8;

/** One route as the cache lists it (what `route:list` shows, minus what only a live process knows). */
export interface CachedRoute {
  id: number;
  methods: string[];
  pattern: string;
  name: string | null;
  middleware: string[];
  handlerLocation: string | null;
}

export interface CacheHeader {
  format: number;
  arborVersion: string;
  /** {@link fingerprint} of the routes the snapshot was compiled from. */
  fingerprint: string;
  options: TableOptions;
  routeCount: number;
  createdAt: string;
  /** Byte lengths of the snapshot, route list and annotations sections, in file order. */
  sections: [number, number, number];
  /** CRC-32 of each section, in file order. */
  crc32: [number, number, number];
  /**
   * The routes in registration order and their call sites, compactly, for a start to check registrations
   * against as they happen (see `expected.ts`). Absent from caches written before it was stored.
   */
  registrations?: RegistrationIndex;
}

/** Parallel arrays, one entry per route id (a few small arrays parse far faster than 10,000 objects). */
export interface RegistrationIndex {
  /** The route's methods, joined with `,`. */
  methods: string[];
  patterns: string[];
  names: (string | null)[];
  /** The source files the call sites name, with the SHA-1 (hex) of their bytes when the cache was written
   * (`null`: the file could not be read). */
  files: { file: string; sha1: string | null }[];
  /** Two numbers per route: the index of its call site's file in `files` and the line; `-1, 0` for none. */
  sites: number[];
}

export interface CacheContents {
  snapshot: Uint8Array;
  routes: CachedRoute[];
  annotations: AnnotationSet | null;
}

/** CRC-32 of one section (node:zlib loads on its first use). */
const crc32 = (section: Uint8Array): number => zlib().crc32(section);

/** Why a file cannot be used: `version` (another format) or `corrupt` (anything else). */
export class CacheFormatError extends Error {
  readonly reason: 'version' | 'corrupt';
  constructor(reason: 'version' | 'corrupt', message: string) {
    super(message);
    this.name = 'CacheFormatError';
    this.reason = reason;
  }
}

export function encodeCache(
  meta: Omit<CacheHeader, 'format' | 'sections' | 'crc32' | 'routeCount'>,
  contents: CacheContents,
): Buffer {
  const sections = [
    Buffer.from(contents.snapshot.buffer, contents.snapshot.byteOffset, contents.snapshot.byteLength),
    Buffer.from(JSON.stringify(contents.routes), 'utf8'),
    Buffer.from(JSON.stringify(contents.annotations), 'utf8'),
  ] as const;
  const body = Buffer.concat(sections);
  const header: CacheHeader = {
    format: FORMAT_VERSION,
    ...meta,
    routeCount: contents.routes.length,
    sections: [sections[0].length, sections[1].length, sections[2].length],
    crc32: [crc32(sections[0]), crc32(sections[1]), crc32(sections[2])],
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const preamble = Buffer.alloc(PREAMBLE);
  MAGIC.copy(preamble, 0);
  preamble.writeUInt32LE(FORMAT_VERSION, MAGIC.length);
  preamble.writeUInt32LE(headerBytes.length, MAGIC.length + 4);
  return Buffer.concat([preamble, headerBytes, body]);
}

/** A checked file: the header and its sections (views into the file's bytes, decoded on demand). */
export interface DecodedCache {
  header: CacheHeader;
  snapshot: Uint8Array;
  /** The route list section (UTF-8 JSON); see {@link parseSection}. */
  routes: Buffer;
  /** The annotations section (UTF-8 JSON); see {@link parseSection}. */
  annotations: Buffer;
}

export function parseSection<T>(section: Buffer): T {
  return JSON.parse(section.toString('utf8')) as T;
}

export function decodeCache(file: Uint8Array): DecodedCache {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const { header, bodyStart } = decodeHeader(bytes.subarray(0, PREAMBLE), (length) =>
    bytes.subarray(PREAMBLE, PREAMBLE + length),
  );
  checkSize(header, bodyStart, bytes.length);
  const [snapshotLength, routesLength] = header.sections;
  const body = bytes.subarray(bodyStart);
  const sections = [
    body.subarray(0, snapshotLength),
    body.subarray(snapshotLength, snapshotLength + routesLength),
    body.subarray(snapshotLength + routesLength),
  ] as const;
  for (const [i, section] of sections.entries()) checkSection(header, i, section);
  return { header, snapshot: sections[0], routes: sections[1], annotations: sections[2] };
}

/** What a start reads of a cache file: the header and the snapshot. */
export interface DecodedCacheStart {
  header: CacheHeader;
  snapshot: Uint8Array;
}

/**
 * The header and the snapshot of a cache file of `size` bytes, checked like {@link decodeCache} checks them
 * (the file's size included, so a truncated file is still refused) but for the snapshot's CRC, reading
 * nothing else: `read(position, length)` gives those bytes of the file (fewer at its end).
 */
export function decodeCacheStart(
  read: (position: number, length: number) => Buffer,
  size: number,
): DecodedCacheStart {
  const { header, bodyStart } = decodeHeader(read(0, PREAMBLE), (length) => read(PREAMBLE, length));
  checkSize(header, bodyStart, size);
  // The snapshot's CRC is not checked here: the engine checks the snapshot's own checksum when it loads
  // it (a corrupt one is refused there, and the start warns as for any corrupt cache), and hashing 4 MB
  // twice is a measurable part of a cached start.
  return { header, snapshot: read(bodyStart, header.sections[0]) };
}

/** The header, from the preamble and a reader of the `length` bytes that follow it. */
function decodeHeader(
  preamble: Buffer,
  readHeader: (length: number) => Buffer,
): { header: CacheHeader; bodyStart: number } {
  if (preamble.length < PREAMBLE || !preamble.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new CacheFormatError('corrupt', 'not an Arbor route cache (bad magic bytes)');
  }
  const format = preamble.readUInt32LE(MAGIC.length);
  if (format !== FORMAT_VERSION) {
    throw new CacheFormatError(
      'version',
      `cache format ${format}, this Arbor reads format ${FORMAT_VERSION}`,
    );
  }
  const headerLength = preamble.readUInt32LE(MAGIC.length + 4);
  const headerBytes = readHeader(headerLength);
  if (headerBytes.length < headerLength) throw new CacheFormatError('corrupt', 'truncated header');
  let header: CacheHeader;
  try {
    header = JSON.parse(headerBytes.toString('utf8')) as CacheHeader;
  } catch {
    throw new CacheFormatError('corrupt', 'unreadable header');
  }
  const counts = (list: unknown): boolean =>
    Array.isArray(list) && list.length === 3 && list.every((n) => Number.isInteger(n) && n >= 0);
  if (header === null || typeof header !== 'object' || !counts(header.sections) || !counts(header.crc32)) {
    throw new CacheFormatError('corrupt', 'malformed header');
  }
  return { header, bodyStart: PREAMBLE + headerLength };
}

function checkSize(header: CacheHeader, bodyStart: number, size: number): void {
  const expected = header.sections.reduce((sum, n) => sum + n, 0);
  if (size - bodyStart !== expected) {
    throw new CacheFormatError(
      'corrupt',
      `size mismatch (${size - bodyStart} bytes of sections, header says ${expected})`,
    );
  }
}

const SECTION_NAMES = ['snapshot', 'route list', 'annotations'] as const;

function checkSection(header: CacheHeader, index: number, section: Uint8Array): void {
  if (crc32(section) !== header.crc32[index])
    throw new CacheFormatError('corrupt', `checksum mismatch (${SECTION_NAMES[index]})`);
}

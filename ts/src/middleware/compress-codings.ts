/**
 * The content codings `compress()` offers (gzip, deflate, brotli, zstd) as node:zlib gives them, and the
 * choice among them from a request's `Accept-Encoding`. Split from compress.ts, which decides whether a
 * response is compressed at all: this file knows zlib and the negotiator, not responses.
 */
import type { Transform } from 'node:stream';
import type { BrotliOptions, ZlibOptions, ZstdOptions } from 'node:zlib';
import { lazyPackage, util, zlib } from '../builtins.js';

/** A content coding `compress()` can produce. */
export type CompressEncoding = 'br' | 'zstd' | 'gzip' | 'deflate';

/** One coding's three forms: in one go on the event loop, in one go on the thread pool, and as a stream. */
export interface Codec {
  sync(body: string | Uint8Array): Buffer;
  async(body: string | Uint8Array): Promise<Buffer>;
  stream(): Transform;
}

export interface CodecOptions {
  brotliOptions: BrotliOptions;
  zlibOptions: ZlibOptions;
  zstdOptions: ZstdOptions;
}

/** Whether the running Node has zstd (`zlib.createZstdCompress`: Node ≥ 22.15 and ≥ 23.8). */
export function hasZstd(): boolean {
  return typeof zlib().createZstdCompress === 'function';
}

type Compress<O> = (
  body: string | Uint8Array,
  options: O,
  callback: (error: Error | null, out: Buffer) => void,
) => void;

function codec<O>(
  sync: (body: string | Uint8Array, options: O) => Buffer,
  async: Compress<O>,
  stream: (options: O) => Transform,
  options: O,
): Codec {
  const promised = util.promisify(async) as (body: string | Uint8Array, options: O) => Promise<Buffer>;
  return {
    sync: (body) => sync(body, options),
    async: (body) => promised(body, options),
    stream: () => stream(options),
  };
}

/** The codec of `encoding`; zstd only where {@link hasZstd}. */
export function createCodec(encoding: CompressEncoding, options: CodecOptions): Codec {
  const z = zlib();
  switch (encoding) {
    case 'br':
      return codec(z.brotliCompressSync, z.brotliCompress, z.createBrotliCompress, options.brotliOptions);
    case 'zstd':
      return codec(z.zstdCompressSync, z.zstdCompress, z.createZstdCompress, options.zstdOptions);
    case 'gzip':
      return codec(z.gzipSync, z.gzip, z.createGzip, options.zlibOptions);
    case 'deflate':
      return codec(z.deflateSync, z.deflate, z.createDeflate, options.zlibOptions);
  }
}

/** The part of `negotiator` used here (its `preferred` option is newer than `@types/negotiator`). */
interface NegotiatorInstance {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
}
type NegotiatorClass = new (request: { headers: Record<string, string> }) => NegotiatorInstance;
const loadNegotiator = lazyPackage<NegotiatorClass>('negotiator');

/** Distinct `Accept-Encoding` values remembered; clients send few, and a full cache starts over. */
const CACHE_LIMIT = 512;
/** A value longer than this is negotiated every time rather than kept. */
const CACHE_KEY_LIMIT = 256;

/**
 * A function from an `Accept-Encoding` value to the coding to use, or `null` for none. The client's
 * q-values rank first; among equal ones, `offered`'s order (the server's preference) decides. `identity`
 * and `*` count as RFC 9110 §12.5.3 says (`*` matches every coding the value does not name; `identity`
 * is acceptable unless refused, by `identity;q=0` or `*;q=0`). No header means no coding, as in express
 * and @fastify/compress: the RFC allows any, but a client that sends none seldom decodes one.
 *
 * The `negotiator` package does the ranking; its answers are cached by header value, since browsers send
 * a handful of fixed values and parsing one per response would be the middleware's largest cost.
 */
export function encodingNegotiator(
  offered: readonly CompressEncoding[],
): (accept: string | undefined) => CompressEncoding | null {
  const Negotiator = loadNegotiator();
  const available = [...offered, 'identity'];
  const options = { preferred: available };
  // One instance whose header is swapped per call: `encoding()` reads it synchronously.
  const headers: Record<string, string> = { 'accept-encoding': '' };
  const negotiator = new Negotiator({ headers });
  const cache = new Map<string, CompressEncoding | null>();
  return (accept) => {
    if (accept === undefined) return null;
    const known = cache.get(accept);
    if (known !== undefined) return known;
    headers['accept-encoding'] = accept;
    const best = negotiator.encoding(available, options);
    const chosen = best === undefined || best === 'identity' ? null : (best as CompressEncoding);
    if (accept.length <= CACHE_KEY_LIMIT) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(accept, chosen);
    }
    return chosen;
  };
}

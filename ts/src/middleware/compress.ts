/**
 * Response compression (gzip, deflate, brotli, and zstd where Node has it), negotiated from the request's
 * `Accept-Encoding`. Whole bodies are compressed in one go, streamed ones as a stream. See
 * docs/framework/middleware.md, "Compression", for what is compressed and why the defaults are what they are.
 */
import { pipeline } from 'node:stream';
import type { BrotliOptions, ZlibOptions, ZstdOptions } from 'node:zlib';
import { lazyPackage, zlib } from '../builtins.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import { Response, StreamBody } from '../core/response.js';
import {
  type Codec,
  type CompressEncoding,
  createCodec,
  encodingNegotiator,
  hasZstd,
} from './compress-codings.js';

export type { CompressEncoding } from './compress-codings.js';

/** Options of the {@link compress} middleware: what is worth compressing, and with which codings. */
export interface CompressOptions {
  /**
   * The smallest whole body compressed, in bytes (default 1024, as @fastify/compress and express's
   * `compression`): below it the coding's framing and the work outweigh the bytes saved. A stream is
   * compressed whatever its size unless it declares a smaller `Content-Length`.
   */
  threshold?: number;
  /**
   * The codings offered, in the server's order of preference, used among those the client rates
   * equally (default `['br', 'zstd', 'gzip', 'deflate']`; zstd is left out where Node lacks it, Node
   * before 22.15 or 23.8, rather than refused, so one configuration runs on every supported Node).
   */
  encodings?: readonly CompressEncoding[];
  /**
   * For brotli (default quality 4, as @fastify/compress: zlib's default, 11, is meant for files
   * compressed once, and costs many times the time for a few per cent fewer bytes).
   */
  brotliOptions?: BrotliOptions;
  /** For gzip and deflate (default zlib's: level 6). */
  zlibOptions?: ZlibOptions;
  /** For zstd (default zstd's: level 3). */
  zstdOptions?: ZstdOptions;
  /**
   * Whole bodies up to this size are compressed synchronously on the event loop, larger ones on zlib's
   * thread pool (default 8192 bytes): handing a small body to the thread pool costs more than
   * compressing it (measured: the two meet between 4 and 16 KiB), while a large one would hold the event
   * loop. `0` sends every body to the pool.
   */
  syncThreshold?: number;
  /**
   * Whether this response may be compressed, in place of the test by type; `byType` is that test's
   * answer (`compressible` types, less `text/event-stream`). The other rules still apply.
   *
   * @example filter: (req, res, byType) => byType && req.route?.name !== 'export'
   */
  filter?: (req: Request, res: Response, byType: boolean) => boolean;
}

const DEFAULT_THRESHOLD = 1024;
const DEFAULT_SYNC_THRESHOLD = 8192;
/** Brotli's quality for on-the-fly compression: Cloudflare's measurements, and @fastify/compress's default. */
const DEFAULT_BROTLI_QUALITY = 4;
const ENCODINGS: readonly CompressEncoding[] = ['br', 'zstd', 'gzip', 'deflate'];

/**
 * Compresses responses a client accepts compressed. A response is left as it is when: its type is not
 * compressible (or `filter` says no), it is `text/event-stream`, it is a HEAD answer, its status has no
 * body (1xx, 204, 205, 304) or is 206 (a range of the uncompressed bytes), it already has a
 * `Content-Encoding` or `Cache-Control: no-transform`, its whole body is below `threshold`, or the
 * client accepts none of `encodings`. `Vary: Accept-Encoding` is added to every response of a
 * compressible type, compressed or not; a compressed one's strong `ETag` becomes weak.
 *
 * @example
 * app.middleware(compress());
 * app.middleware(compress({ threshold: 2048, encodings: ['zstd', 'br', 'gzip'] }));
 */
export function compress(options: CompressOptions = {}): Middleware {
  const threshold = size('threshold', options.threshold, DEFAULT_THRESHOLD);
  const syncThreshold = size('syncThreshold', options.syncThreshold, DEFAULT_SYNC_THRESHOLD);
  const offered = offeredEncodings(options.encodings);
  const codecOptions = {
    brotliOptions: {
      ...options.brotliOptions,
      params: {
        [zlib().constants.BROTLI_PARAM_QUALITY]: DEFAULT_BROTLI_QUALITY,
        ...options.brotliOptions?.params,
      },
    },
    zlibOptions: options.zlibOptions ?? {},
    zstdOptions: options.zstdOptions ?? {},
  };
  const codecs = new Map<CompressEncoding, Codec>(offered.map((e) => [e, createCodec(e, codecOptions)]));
  const negotiate = encodingNegotiator(offered);
  const byType = typeTest();
  const filter = options.filter;

  return async function compress(req, handler) {
    const res = await handler.handle(req);
    const status = res.getStatus();
    const body = res.getBody();
    if (status < 200 || status === 204 || status === 205 || (body === null && status !== 304)) return res;
    const typeOk = byType(res.getHeader('content-type'));
    if (!(filter === undefined ? typeOk : filter(req, res, typeOk))) return res;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.getHeader('cache-control') ?? '')) return res;
    const encoded = res.getHeader('content-encoding');
    if (encoded !== undefined && encoded.toLowerCase() !== 'identity') return res;

    const encoding = negotiate(req.header('accept-encoding'));
    const codec = encoding === null ? undefined : codecs.get(encoding);
    const length = bodySize(res, body);
    if (
      codec === undefined ||
      encoding === null ||
      status === 304 ||
      status === 206 ||
      res.hasHeader('content-range') ||
      req.getMethod() === 'HEAD' ||
      length < threshold
    ) {
      const out = varied(res.clone());
      // A 304 stands for the 200 it confirms, which would have been compressed: the same weak tag.
      return status === 304 && encoding !== null ? weakened(out) : out;
    }

    if (body instanceof StreamBody) {
      const compressor = codec.stream();
      // Errors travel both ways: a failing source destroys the compressor, which the transport reads
      // (the response is cut short); the transport destroying the compressor (the client left)
      // destroys the source. `pipeline` also keeps backpressure from the socket to the source.
      pipeline(body.readable, compressor, () => {});
      return encodedAs(withoutBody(res).send(compressor), encoding);
    }
    const whole = body as string | Uint8Array;
    const compressed = length <= syncThreshold ? codec.sync(whole) : await codec.async(whole);
    return encodedAs(res.clone().send(compressed), encoding);
  };
}

function size(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    throw new RangeError(`compress: ${name} must be a number of bytes, 0 or more; got ${String(value)}`);
  return value;
}

function offeredEncodings(encodings: readonly CompressEncoding[] | undefined): CompressEncoding[] {
  if (encodings === undefined) return ENCODINGS.filter((e) => e !== 'zstd' || hasZstd());
  for (const e of encodings) {
    if (!ENCODINGS.includes(e))
      throw new TypeError(`compress: unknown encoding ${JSON.stringify(e)}; known: ${ENCODINGS.join(', ')}`);
  }
  const usable = [...new Set(encodings)].filter((e) => e !== 'zstd' || hasZstd());
  if (usable.length === 0)
    throw new TypeError(
      `compress: no usable encoding in ${JSON.stringify(encodings)} (zstd needs Node 22.15 or 23.8 and later)`,
    );
  return usable;
}

/** The byte length of a whole body, or the `Content-Length` a stream declared (else `Infinity`). */
function bodySize(res: Response, body: string | Uint8Array | StreamBody | null): number {
  if (body === null) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  const declared = Number(res.getHeader('content-length') ?? Number.NaN);
  return Number.isNaN(declared) ? Number.POSITIVE_INFINITY : declared;
}

/**
 * The test by type: `compressible` (mime-db's flags: text, JSON, XML, SVG, JavaScript yes; images,
 * archives, audio, video no; a type mime-db does not know, no), less `text/event-stream`, whose events a
 * compressor would hold back until its buffer fills. Answers are cached by header value.
 */
function typeTest(): (type: string | undefined) => boolean {
  const compressible = lazyPackage<(type: string) => boolean | undefined>('compressible')();
  const cache = new Map<string, boolean>();
  return (type) => {
    if (type === undefined) return false;
    let answer = cache.get(type);
    if (answer === undefined) {
      answer = compressible(type) === true && !/^\s*text\/event-stream\s*(?:;|$)/i.test(type);
      if (cache.size >= 256) cache.clear();
      cache.set(type, answer);
    }
    return answer;
  };
}

/** Adds `Accept-Encoding` to `Vary` unless it (or `*`) is there. */
function varied(res: Response): Response {
  const vary = res.getHeader('vary');
  if (vary === undefined) return res.setKnownHeader('vary', 'Vary', 'Accept-Encoding');
  if (!/(?:^|,)\s*(?:\*|accept-encoding)\s*(?:,|$)/i.test(vary)) res.appendHeader('Vary', 'Accept-Encoding');
  return res;
}

/**
 * A strong `ETag` made weak: the compressed bytes are not the ones the tag was made for, but the same
 * content (RFC 9110 §8.8.1). `If-None-Match` compares weakly, so revalidation still answers 304, while
 * `If-Range` compares strongly, so no range of other bytes is ever joined to this body. nginx, Varnish
 * and hono's `compress` do the same; express's `compression` leaves the tag strong (its issue #45 asks for
 * this) and so does @fastify/compress, so that a cache may take one coding's bytes for another's.
 */
function weakened(res: Response): Response {
  const etag = res.getHeader('etag');
  if (etag?.startsWith('"') === true) res.setKnownHeader('etag', 'ETag', `W/${etag}`);
  return res;
}

function encodedAs(res: Response, encoding: CompressEncoding): Response {
  res.removeHeader('content-length');
  res.setKnownHeader('content-encoding', 'Content-Encoding', encoding);
  return weakened(varied(res));
}

/**
 * A copy of `res` without its body, for a streamed body that is replaced by its compressed form: a
 * `clone()` would share the source, which `send()` on it releases (destroys) as a replaced body.
 */
function withoutBody(res: Response): Response {
  const out = new Response(res.request).status(res.getStatus());
  const flat = res.headerList();
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    const value = flat[i + 1] as string;
    const key = name.toLowerCase();
    if (out.hasHeader(key)) out.appendHeader(name, value);
    else out.setKnownHeader(key, name, value);
  }
  return out;
}

/**
 * Request bodies sent compressed (`Content-Encoding: gzip`, `x-gzip`, `deflate`, `br`, `zstd`), decoded
 * as they arrive on the routes that ask for it (`decompress`: docs/framework/request.md, "Compressed
 * bodies").
 *
 * The body limit counts the decoded bytes, and every decoder stops the moment its output passes it: a
 * body of a few kilobytes that would inflate to gigabytes (a "zip bomb") costs the server at most the
 * limit, never the inflated size. The encoded bytes are held to the same limit as they come (and a
 * `Content-Length` above it is refused before any is read), so a body that decodes to little but never
 * ends cannot keep a decoder busy either.
 */
import { type Duplex, pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { zlib } from '../builtins.js';
import { HttpError } from '../http/errors.js';
import { tooLarge } from '../http/request-body.js';

/** A content coding a request body may be sent in, when its route decompresses (`x-gzip` is `gzip`). */
export type RequestCoding = 'gzip' | 'deflate' | 'br' | 'zstd';

/**
 * At most this many codings applied one over the other. Each decoder holds a window (up to 16 MiB for
 * `br`, 8 MiB for `zstd`): a field listing a hundred would make one request hold a hundred of them.
 * No client stacks codings in practice; two leave room for one that does.
 */
const MAX_CODINGS = 2;

/**
 * The largest window a `zstd` body may ask its decoder to hold: 8 MiB (2^23), what the `zstd` content
 * coding allows (RFC 9659). zstd's own default would let a frame of a few bytes make the decoder
 * allocate 128 MiB.
 */
const ZSTD_WINDOW_LOG_MAX = 23;

/**
 * The codings of a `Content-Encoding` value, in the order they were applied (`identity` dropped; `[]`
 * when only it was named). A coding this server cannot decode, or more than two, is a 415, as for any
 * route that does not decompress.
 */
export function requestCodings(header: string): RequestCoding[] {
  const codings: RequestCoding[] = [];
  for (const token of header.split(',')) {
    const name = token.trim().toLowerCase();
    if (name === '' || name === 'identity') continue;
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (!decodable(coding)) throw unsupportedEncoding(header);
    codings.push(coding);
  }
  if (codings.length > MAX_CODINGS)
    throw new HttpError(
      415,
      `Content-Encoding ${JSON.stringify(header)} stacks ${codings.length} codings (at most ${MAX_CODINGS} are decoded)`,
    );
  return codings;
}

/** 415 for a `Content-Encoding` the route does not decode: what every route answers when it does not decompress. */
export function unsupportedEncoding(header: string): HttpError {
  return new HttpError(415, `Content-Encoding ${JSON.stringify(header)} is not supported`);
}

function decodable(coding: string): coding is RequestCoding {
  if (coding === 'gzip' || coding === 'deflate' || coding === 'br') return true;
  // zstd came to node:zlib in Node 22.15 and 23.8: an older Node answers it 415.
  return coding === 'zstd' && typeof zlib().createZstdDecompress === 'function';
}

/**
 * The decoded bytes of `encoded` (the body as the transport streams it, already held to `limit`), the
 * codings undone last first, each decoder's output held to `limit` bytes: 413 as soon as one passes it
 * (the decoders are destroyed, nothing more is inflated), 400 for data that is not what its coding says
 * (corrupt, truncated). Read as fast as it is taken: a decoder inflates only what its reader has room for.
 */
export async function* decodedChunks(
  encoded: AsyncIterable<Uint8Array>,
  codings: readonly RequestCoding[],
  limit: number,
): AsyncGenerator<Uint8Array> {
  // The transport's own stream when it has one: a failure here (the limit) then reaches it as such, and
  // node:http closes the connection after the 413 instead of reading the rest of a bomb.
  const source = encoded instanceof Readable ? encoded : Readable.from(encoded, { objectMode: false });
  let malformed: { coding: RequestCoding; error: Error } | null = null;
  const stages: Duplex[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i] as RequestCoding;
    const decoder = decoderFor(coding);
    // The pipeline destroys every stage with the first error: only a decoder's own is the data's fault.
    decoder.once('error', (error) => {
      if (!(error instanceof HttpError)) malformed ??= { coding, error };
    });
    stages.push(decoder, new DecodedLimit(limit));
  }
  const decoded = pipeline([source, ...stages], () => undefined) as unknown as Readable;
  try {
    for await (const chunk of decoded) yield chunk as Uint8Array;
  } catch (error) {
    if (error instanceof HttpError) {
      // The transport's stream learns of a refusal now, before the answer is written (the pipeline tells
      // it a tick later): node:http then closes the connection after the 413 rather than reading the rest.
      if (error.status === 413 && !source.destroyed) source.destroy(error);
      throw error;
    }
    const failure = malformed as { coding: RequestCoding; error: Error } | null;
    if (failure !== null)
      throw new HttpError(400, `Request body is not valid ${failure.coding}: ${failure.error.message}`);
    throw error;
  } finally {
    // A reader that stopped early (a multipart parser that failed) stops the decoders and the source.
    if (!decoded.destroyed) decoded.destroy();
  }
}

function decoderFor(coding: RequestCoding): Duplex {
  const z = zlib();
  switch (coding) {
    case 'gzip':
      return z.createGunzip();
    case 'deflate':
      // HTTP's `deflate` is the zlib format (RFC 1950), as node, curl and browsers send it.
      return z.createInflate();
    case 'br':
      return z.createBrotliDecompress();
    case 'zstd':
      return z.createZstdDecompress({ params: { [z.constants.ZSTD_d_windowLogMax]: ZSTD_WINDOW_LOG_MAX } });
  }
}

/** Passes a decoder's output on, failing with 413 the moment it passes `limit` bytes. */
class DecodedLimit extends Transform {
  readonly #limit: number;
  #total = 0;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#total += chunk.byteLength;
    if (this.#total > this.#limit) callback(tooLarge(this.#limit));
    else callback(null, chunk);
  }
}

/**
 * A fixed text file served over HTTP the way a static file server would: a strong `ETag` with
 * `If-None-Match` → 304, a `Cache-Control`, and a brotli or gzip body when the client accepts one.
 *
 * Why: the Swagger UI bundle is 1.7 MB of JavaScript; sent as is on every load it cost ~1.7 MB a page
 * view. Compressed it is ~0.4 MB, and a revalidated copy costs one 304 with no body.
 *
 * Each encoding is a separate representation with its own tag (`"<hash>"`, `"<hash>-br"`,
 * `"<hash>-gzip"`), so a cache can never be told that its gzip copy is the brotli one. Compression runs
 * once per process and encoding, on first request, off the event loop (zlib's thread pool); concurrent
 * first requests share the one result.
 *
 * @example
 * const bundle = new StaticAsset(text, 'text/javascript; charset=utf-8');
 * app.get('/ui/bundle.js', (req, res) => bundle.respond(req, res));
 */
import { crypto, util, zlib } from '../builtins.js';

/** What the asset reads from a request (Arbor's `Request` has it). */
export interface AssetRequest {
  header(name: string): string | undefined;
}

/** What the asset writes to a response (Arbor's `Response` has it). */
export interface AssetResponse {
  status(code: number): AssetResponse;
  header(name: string, value: string): AssetResponse;
  send(body?: string | Uint8Array): unknown;
}

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Below this size compression saves less than the header costs. */
const MIN_COMPRESSED_SIZE = 1024;

export class StaticAsset {
  readonly type: string;
  readonly cacheControl: string;
  readonly #body: Buffer;
  readonly #hash: string;
  readonly #encoded = new Map<'br' | 'gzip', Promise<Buffer>>();

  /** `cacheControl` defaults to an hour, then revalidation (a 304 while the file is unchanged). */
  constructor(text: string | Uint8Array, type: string, cacheControl = 'public, max-age=3600') {
    this.#body = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);
    this.type = type;
    this.cacheControl = cacheControl;
    this.#hash = crypto().createHash('sha256').update(this.#body).digest('base64url').slice(0, 27);
  }

  /** The tag of one representation. */
  etag(coding: ContentCoding): string {
    return coding === 'identity' ? `"${this.#hash}"` : `"${this.#hash}-${coding}"`;
  }

  /** Fills `res` for `req`: 304 when the client's copy is current, else 200 with the chosen encoding. */
  async respond<R extends AssetResponse>(req: AssetRequest, res: R): Promise<R> {
    const coding =
      this.#body.length < MIN_COMPRESSED_SIZE ? 'identity' : chooseCoding(req.header('accept-encoding'));
    const etag = this.etag(coding);
    res
      .header('ETag', etag)
      .header('Cache-Control', this.cacheControl)
      .header('Vary', 'Accept-Encoding')
      .header('Content-Type', this.type);
    if (ifNoneMatchHits(req.header('if-none-match'), etag)) {
      res.status(304).send();
      return res;
    }
    if (coding === 'identity') {
      res.send(this.#body);
      return res;
    }
    res.header('Content-Encoding', coding).send(await this.encoded(coding));
    return res;
  }

  /** The body in `coding`, compressed on first use. */
  encoded(coding: 'br' | 'gzip'): Promise<Buffer> {
    let pending = this.#encoded.get(coding);
    if (pending === undefined) {
      const { brotliCompress, constants, gzip } = zlib();
      pending =
        coding === 'br'
          ? util.promisify(brotliCompress)(this.#body, {
              params: {
                // Quality 6: within ~10 % of the best size at a fiftieth of quality 11's time (~0.2 s
                // instead of ~8 s for the 1.7 MB bundle), paid once per process.
                [constants.BROTLI_PARAM_QUALITY]: 6,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: this.#body.length,
              },
            })
          : util.promisify(gzip)(this.#body, { level: 9 });
      // A failed compression is not kept: the next request tries again.
      pending.catch(() => this.#encoded.delete(coding));
      this.#encoded.set(coding, pending);
    }
    return pending;
  }
}

/**
 * The preferred coding the client accepts (RFC 9110 §12.5.3): the highest q-value, brotli before zlib.gzip
 * on a tie; `identity` when neither is accepted (identity is always acceptable to a client that sent no
 * header, and we never answer 406 for a file that exists).
 */
export function chooseCoding(acceptEncoding: string | undefined): ContentCoding {
  if (acceptEncoding === undefined) return 'identity';
  const q = { br: -1, gzip: -1, '*': -1 };
  for (const item of acceptEncoding.split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim());
    const coding = name.toLowerCase();
    if (coding !== 'br' && coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    let weight = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(param);
      if (match?.[1] !== undefined) weight = Number(match[1]);
    }
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    q[key] = Math.max(q[key], weight);
  }
  const br = q.br >= 0 ? q.br : q['*'];
  const gz = q.gzip >= 0 ? q.gzip : q['*'];
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

/** `If-None-Match` holds `etag` or `*` (weak comparison, as RFC 9110 §13.1.2 asks for this header). */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag.replace(/^W\//, '') === wanted) return true;
  }
  return false;
}

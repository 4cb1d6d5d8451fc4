/**
 * How the kernel reads a request's body, once, when it is first asked for: whole (then parsed by its
 * `Content-Type`), or, for `multipart/form-data`, streamed — its files to disk within the upload limits,
 * deleted once the answer is out — or, on a route with `.uploads({ stream: true })`, handed to the handler
 * part by part (`req.parts()`). On a route that decompresses, a body sent with a `Content-Encoding` is
 * decoded as it arrives, whichever way it is then read.
 */

import { EMPTY_BODY, isMultipart, multipartBody, type ParsedBody, parseBody } from '../body/body.js';
import { decodedChunks, requestCodings, unsupportedEncoding } from '../body/decompress.js';
import { readMultipart, type UploadLimits } from '../body/multipart.js';
import { PartStream } from '../body/multipart-parts.js';
import { HttpError } from '../core/errors.js';
import type { Outcome } from '../core/outcome.js';
import { Response, StreamBody } from '../core/response.js';
import type { IncomingInput } from '../http/dispatch.js';
import { readLimited } from '../http/request-body.js';

/**
 * One request's body: built only for a request that has one.
 *
 * The answer can be decided while the body is still arriving (a `timeout()` passing during a slow upload,
 * a middleware that starts `readBody()` and answers without waiting). From then on nobody will use the
 * body: a read still under way is abandoned (the transport stops reading once the answer is out and closes
 * the connection), a read that completes anyway has its uploaded files deleted at once, and no new read
 * starts. So an upload outlived by its answer leaves no file, no folder and no open descriptor behind.
 */
export class BodyLoader {
  readonly #input: IncomingInput;
  readonly #limit: number;
  readonly #uploads: () => UploadLimits;
  readonly #decompress: () => boolean;
  /** Deletes the uploaded files, once a multipart body was read. */
  #release: (() => Promise<unknown>) | null = null;
  /** A body taken part by part: stopped once the answer is out. */
  #parts: PartStream | null = null;
  /** The answer is out (or its stream closed): the body will never be used. */
  #answered = false;

  /**
   * @param limit The route's, its group's or the application's body limit, in bytes.
   * @param uploads The upload limits that apply, asked for only when the body is multipart.
   * @param decompress Whether the route decodes compressed bodies, asked for only when one is encoded.
   */
  constructor(input: IncomingInput, limit: number, uploads: () => UploadLimits, decompress: () => boolean) {
    this.#input = input;
    this.#limit = limit;
    this.#uploads = uploads;
    this.#decompress = decompress;
  }

  /**
   * Reads and parses the body (the request's loader: `Request.loadBody` calls it once). A body the
   * transport already holds whole is parsed now, and the parsed body returned as it is: the handler then
   * runs in the same turn. A failure is always a rejected promise, whichever way the body came.
   */
  readonly load = (): ParsedBody | Promise<ParsedBody> => {
    if (this.#answered) return Promise.reject(answeredFirst());
    const input = this.#input;
    const type = input.headers.get('content-type');
    const encoding = input.headers.get('content-encoding');
    if (encoding !== undefined && this.#decompress()) {
      const decoded = this.#decoded(type, encoding);
      if (decoded !== null) return decoded;
    }
    if (!isMultipart(type) || input.openBody === undefined) {
      const raw = input.readBody(this.#limit);
      if (!(raw instanceof Uint8Array)) return raw.then((bytes) => parseBody(bytes, type, encoding));
      try {
        return parseBody(raw, type, encoding);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
      return Promise.reject(unsupportedEncoding(encoding));
    return this.#multipart(input.openBody(this.#limit), type as string);
  };

  /**
   * A multipart body from its (decoded) chunks: its files streamed to disk, or, on a route with
   * `.uploads({ stream: true })`, its parts handed to the handler as they come.
   */
  #multipart(chunks: AsyncIterable<Uint8Array>, type: string): Promise<ParsedBody> {
    const uploads = this.#uploads();
    if (uploads.stream === true) {
      // Opened now, read as the handler iterates: a body nobody iterates is cut after the answer.
      try {
        const parts = new PartStream(chunks, type, uploads);
        this.#parts = parts;
        return Promise.resolve({ ...EMPTY_BODY, kind: 'multipart', mediaType: 'multipart/form-data', parts });
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return readMultipart(chunks, type, uploads).then((body) => {
      if (this.#answered) {
        // Completed after its answer: nobody will see these files.
        body.cleanup().catch(() => undefined);
        throw answeredFirst();
      }
      this.#release = body.cleanup;
      return multipartBody(body, 'multipart/form-data');
    });
  }

  /**
   * A body sent with a `Content-Encoding`, on a route that decompresses: decoded as it arrives, the limit
   * held on the encoded bytes and on every decoder's output. `null` when the field names only `identity`.
   */
  #decoded(type: string | undefined, encoding: string): Promise<ParsedBody> | null {
    let codings: ReturnType<typeof requestCodings>;
    try {
      codings = requestCodings(encoding);
    } catch (error) {
      return Promise.reject(error);
    }
    if (codings.length === 0) return null;
    const input = this.#input;
    const limit = this.#limit;
    const encoded = input.openBody?.(limit) ?? whole(input.readBody(limit));
    const decoded = decodedChunks(encoded, codings, limit);
    if (isMultipart(type)) return this.#multipart(decoded, type as string);
    return readLimited(decoded, limit, undefined).then((bytes) => parseBody(bytes, type));
  }

  /**
   * The answer, once the body is set to be let go after it: uploaded files deleted (at once for a body
   * held whole, when the stream closes for a streamed one, which may be reading an uploaded file), and a
   * read still under way left to fail. Files the handler moved are not touched.
   */
  afterAnswer(answer: Outcome): Outcome {
    if (answer instanceof Response) return this.#answer(answer);
    return answer.then(
      (res) => this.#answer(res),
      (error: unknown) => {
        this.#letGo();
        throw error;
      },
    );
  }

  #answer(res: Response): Response {
    const body = res.getBody();
    if (body instanceof StreamBody && !body.readable.destroyed)
      body.readable.once('close', () => this.#letGo());
    else this.#letGo();
    return res;
  }

  #letGo(): void {
    this.#answered = true;
    this.#parts?.close();
    const release = this.#release;
    if (release === null) return;
    this.#release = null;
    // After the answer is handed to the transport (a body held whole is already in memory).
    setImmediate(() => release().catch(() => undefined));
  }
}

/** A body the transport reads whole, as chunks (a transport that cannot stream one). */
async function* whole(bytes: Uint8Array | Promise<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield await bytes;
}

/** Why a body read fails once its request was answered (nobody sees it: the client has its answer). */
const answeredFirst = () => new HttpError(503, 'The request was answered before its body was read');

/** The application's upload limits, with a route's (or its groups') over them. */
export function uploadLimits(app: UploadLimits | undefined, route: UploadLimits | undefined): UploadLimits {
  return route === undefined ? (app ?? {}) : { ...app, ...route };
}

/**
 * How the kernel reads a request's body, once, when it is first asked for: whole (then parsed by its
 * `Content-Type`), or, for `multipart/form-data`, streamed — its files to disk within the upload limits,
 * deleted once the answer is out — or, on a route with `.uploads({ stream: true })`, handed to the handler
 * part by part (`req.parts()`).
 */

import { EMPTY_BODY, isMultipart, multipartBody, type ParsedBody, parseBody } from '../body/body.js';
import { readMultipart, type UploadLimits } from '../body/multipart.js';
import { PartStream } from '../body/multipart-parts.js';
import { HttpError } from '../core/errors.js';
import type { Outcome } from '../core/outcome.js';
import { Response, StreamBody } from '../core/response.js';
import type { IncomingInput } from '../http/dispatch.js';

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
  /** Deletes the uploaded files, once a multipart body was read. */
  #release: (() => Promise<unknown>) | null = null;
  /** A body taken part by part: stopped once the answer is out. */
  #parts: PartStream | null = null;
  /** The answer is out (or its stream closed): the body will never be used. */
  #answered = false;

  /**
   * @param limit The route's, its group's or the application's body limit, in bytes.
   * @param uploads The upload limits that apply, asked for only when the body is multipart.
   */
  constructor(input: IncomingInput, limit: number, uploads: () => UploadLimits) {
    this.#input = input;
    this.#limit = limit;
    this.#uploads = uploads;
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
      return Promise.reject(
        new HttpError(415, `Content-Encoding ${JSON.stringify(encoding)} is not supported`),
      );
    const uploads = this.#uploads();
    if (uploads.stream === true) {
      // Opened now, read as the handler iterates: a body nobody iterates is cut after the answer.
      try {
        const parts = new PartStream(input.openBody(this.#limit), type as string, uploads);
        this.#parts = parts;
        return Promise.resolve({ ...EMPTY_BODY, kind: 'multipart', mediaType: 'multipart/form-data', parts });
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return readMultipart(input.openBody(this.#limit), type as string, uploads).then((body) => {
      if (this.#answered) {
        // Completed after its answer: nobody will see these files.
        body.cleanup().catch(() => undefined);
        throw answeredFirst();
      }
      this.#release = body.cleanup;
      return multipartBody(body, 'multipart/form-data');
    });
  };

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

/** Why a body read fails once its request was answered (nobody sees it: the client has its answer). */
const answeredFirst = () => new HttpError(503, 'The request was answered before its body was read');

/** The application's upload limits, with a route's (or its groups') over them. */
export function uploadLimits(app: UploadLimits | undefined, route: UploadLimits | undefined): UploadLimits {
  return route === undefined ? (app ?? {}) : { ...app, ...route };
}

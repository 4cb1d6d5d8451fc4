/**
 * How the kernel reads a request's body, once, when it is first asked for: whole (then parsed by its
 * `Content-Type`), or, for `multipart/form-data`, streamed — its files to disk within the upload limits —
 * and those files deleted once the answer is out.
 */
import type { IncomingInput } from '../http/dispatch.js';
import { EMPTY_BODY, isMultipart, multipartBody, type ParsedBody, parseBody } from './body.js';
import { HttpError } from './errors.js';
import { readMultipart, type UploadLimits } from './multipart.js';
import { type Response, StreamBody } from './response.js';

/** The body of a request that has none: the shared empty body (its media type is only ever read together
 * with the request's Content-Type, so the empty body need not carry it). */
export const noBody = (): ParsedBody => EMPTY_BODY;

/** One request's body: built only for a request that has one. */
export class BodyLoader {
  readonly #input: IncomingInput;
  readonly #limit: number;
  readonly #uploads: () => UploadLimits;
  /** Deletes the uploaded files, once a multipart body was read. */
  #release: (() => Promise<unknown>) | null = null;

  /**
   * @param limit The route's, its group's or the application's body limit, in bytes.
   * @param uploads The upload limits that apply, asked for only when the body is multipart.
   */
  constructor(input: IncomingInput, limit: number, uploads: () => UploadLimits) {
    this.#input = input;
    this.#limit = limit;
    this.#uploads = uploads;
  }

  /** Reads and parses the body (the request's loader: `Request.loadBody` calls it once). */
  readonly load = (): Promise<ParsedBody> => {
    const input = this.#input;
    const type = input.headers.get('content-type');
    const encoding = input.headers.get('content-encoding');
    if (!isMultipart(type) || input.openBody === undefined)
      return input.readBody(this.#limit).then((raw) => parseBody(raw, type, encoding));
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
      return Promise.reject(
        new HttpError(415, `Content-Encoding ${JSON.stringify(encoding)} is not supported`),
      );
    return readMultipart(input.openBody(this.#limit), type as string, this.#uploads()).then((body) => {
      this.#release = body.cleanup;
      return multipartBody(body, 'multipart/form-data');
    });
  };

  /**
   * The answer, once uploaded files (if any) are set to be deleted after it: at once for a body held
   * whole, when the stream closes for a streamed one (it may be reading an uploaded file). Files the
   * handler moved are not touched.
   */
  afterAnswer(answer: Promise<Response>): Promise<Response> {
    return answer.then(
      (res) => {
        const release = this.#release;
        if (release === null) return res;
        const run = () => {
          release().catch(() => undefined);
        };
        const body = res.getBody();
        if (body instanceof StreamBody && !body.readable.destroyed) body.readable.once('close', run);
        else setImmediate(run);
        return res;
      },
      (error: unknown) => {
        this.#release?.().catch(() => undefined);
        throw error;
      },
    );
  }
}

/** The application's upload limits, with a route's (or its groups') over them. */
export function uploadLimits(app: UploadLimits | undefined, route: UploadLimits | undefined): UploadLimits {
  return route === undefined ? (app ?? {}) : { ...app, ...route };
}

/**
 * HTTP errors: what a handler or middleware throws to answer with a status other than 500.
 *
 * Every error response the framework writes itself has the body `{ "error": "<message>", "code": <status> }`
 * (docs/framework/errors.md). Anything thrown that is not an {@link HttpError}, nor carries an HTTP
 * status of its own, becomes a 500 whose body says only "Internal Server Error": the real message and stack
 * go to the application's logger, never to the client.
 */
export {
  ARBOR_ERRORS,
  type ErrorBody,
  type ErrorShape,
  errorBody,
  HttpError,
  type HttpErrorOptions,
  httpErrorOf,
  PROBLEM_ERRORS,
  statusOf,
  statusText,
} from '../http/errors.js';

/**
 * A handler set a header that can never be sent (a name that is not an HTTP token, a value carrying CR,
 * LF or NUL — the classic response-splitting attempt). It is a programming error, so it surfaces as a 500;
 * the message names the header for the log.
 */
export class HeaderError extends TypeError {
  readonly code = 'INVALID_HEADER';
  readonly header: string;

  constructor(header: string, reason: string) {
    super(`invalid response header ${JSON.stringify(header)}: ${reason}`);
    this.name = 'HeaderError';
    this.header = header;
  }
}

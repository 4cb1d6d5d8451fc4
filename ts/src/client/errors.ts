/** What a typed client call rejects with, besides the network failures `fetch` itself rejects with. */

/** Why a call failed without a documented answer. */
export type ClientErrorCode =
  /** The server answered a status the route does not document: `status`, `data` and `response` say what. */
  | 'UNDOCUMENTED_STATUS'
  /** The answer claims JSON but its body does not parse. */
  | 'INVALID_JSON'
  /** A required path parameter was not given. */
  | 'MISSING_PARAMETER'
  /** A path parameter no URL can carry as itself (`.`, `..`). */
  | 'UNSENDABLE_PARAMETER'
  /** A route key or name the client's table does not hold (a call the types would have refused). */
  | 'UNKNOWN_ROUTE';

/**
 * A call that ends in no documented answer: an `Error` with a stable `code` (never a thrown string). For
 * `UNDOCUMENTED_STATUS`, the answer is kept: `status`, the body read (`data`) and the `response`.
 *
 * @example
 * try {
 *   await api.get('/tasks/:id', { params: { id } });
 * } catch (error) {
 *   if (error instanceof ClientError && error.code === 'UNDOCUMENTED_STATUS') console.log(error.status);
 * }
 */
export class ClientError extends Error {
  readonly code: ClientErrorCode;
  /** The status answered, for an answer that came. */
  readonly status: number | undefined;
  /** The body of the answer, read as the documented ones are. */
  readonly data: unknown;
  /** The answer, when one came. */
  readonly response: Response | undefined;

  constructor(
    code: ClientErrorCode,
    message: string,
    answer?: { status: number; data: unknown; response: Response },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ClientError';
    this.code = code;
    this.status = answer?.status;
    this.data = answer?.data;
    this.response = answer?.response;
  }
}

/**
 * The answers a transport writes itself, without the application: a request refused before it reaches
 * the kernel (400, 408, 413, 417, 431, 501, 505), and the bare 500 when serving it failed (a bug). One
 * builder for all of them, so that every such answer has the same body: the application's error shape
 * ({@link ErrorShape}: `{ "error", "code" }` by default, or a problem document).
 */
import type { OutgoingResponse } from './dispatch.js';
import { ARBOR_ERRORS, type ErrorShape, HttpError } from './errors.js';

/**
 * The answer refusing `error` (its status, message and headers) as a fixed JSON response. The transport
 * decides how it goes out (the connection closes after it on HTTP/1.x).
 */
export function refusal(error: HttpError, shape: ErrorShape = ARBOR_ERRORS): OutgoingResponse {
  const json = JSON.stringify(shape.body(error, undefined));
  // Its length said, so that node:http frames it by length rather than in chunks.
  const length = String(Buffer.byteLength(json));
  const type = shape.contentType;
  const list = ['Content-Type', type, 'Content-Length', length];
  for (const [name, value] of Object.entries(error.headers)) list.push(name, value);
  return {
    getStatus: () => error.status,
    getHeaders: () => ({ ...error.headers, 'Content-Type': type, 'Content-Length': length }),
    headerList: () => list,
    getBody: () => json,
  };
}

/** The bare 500 a transport answers when serving failed (the kernel threw, or wrote an unwritable answer). */
export const crashAnswer = (shape: ErrorShape = ARBOR_ERRORS): OutgoingResponse =>
  refusal(new HttpError(500), shape);

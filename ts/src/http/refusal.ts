/**
 * The answers a transport writes itself, without the application: a request refused before it reaches
 * the kernel (400, 408, 413, 417, 431, 501, 505), and the bare 500 when serving it failed (a bug). One
 * builder for all of them, so that every such answer has the same body, `{ "error", "code" }` by default:
 * a transport given the application's error format ({@link ErrorFormat}) writes that one instead.
 */
import type { OutgoingResponse } from './dispatch.js';
import { errorBody, HttpError } from './errors.js';

/** The JSON body of an error answer the transport writes, from its status and message. */
export type ErrorFormat = (status: number, message: string) => unknown;

/** The default format: `{ "error": message, "code": status }`. */
export const defaultErrorFormat: ErrorFormat = errorBody;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer refusing `error` (its status, message and headers) as a fixed JSON response. The transport
 * decides how it goes out (the connection closes after it on HTTP/1.x).
 */
export function refusal(error: HttpError, format: ErrorFormat = defaultErrorFormat): OutgoingResponse {
  const json = JSON.stringify(format(error.status, error.message));
  // Its length said, so that node:http frames it by length rather than in chunks.
  const length = String(Buffer.byteLength(json));
  const list = ['Content-Type', JSON_TYPE, 'Content-Length', length];
  for (const [name, value] of Object.entries(error.headers)) list.push(name, value);
  return {
    getStatus: () => error.status,
    getHeaders: () => ({ ...error.headers, 'Content-Type': JSON_TYPE, 'Content-Length': length }),
    headerList: () => list,
    getBody: () => json,
  };
}

/** The bare 500 a transport answers when serving failed (the kernel threw, or wrote an unwritable answer). */
export const crashAnswer = (format: ErrorFormat = defaultErrorFormat): OutgoingResponse =>
  refusal(new HttpError(500), format);

/**
 * Request bodies: read with a size limit, then parsed by `Content-Type`, once the middleware chain has let
 * the request through, so an auth middleware answers 401 without buffering or parsing anything.
 * A middleware that needs the body awaits `req.readBody()`.
 *
 * Decisions (docs/framework/request.md, "Bodies"):
 * - the limit (default 1 MiB) is checked against `Content-Length` first, so an announced oversize body is
 *   refused with 413 without reading it, and again while reading (chunked bodies);
 * - `application/json` and `*+json` are parsed eagerly: malformed JSON (or invalid UTF-8) is a 400 even if
 *   the handler never looks at the body;
 * - `application/x-www-form-urlencoded` becomes a record (a repeated key becomes an array), `text/*` a
 *   string (in its declared charset), anything else stays bytes;
 * - a `Content-Encoding` other than `identity` is a 415, unless the route decompresses (decompress.ts
 *   decodes the body before it reaches this parser).
 */
import { HttpError } from '../http/errors.js';
import type { MultipartBody, UploadedFile } from './multipart.js';
import type { PartStream } from './multipart-parts.js';

/** The default body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export type BodyKind = 'empty' | 'json' | 'form' | 'text' | 'binary' | 'multipart';

export interface ParsedBody {
  kind: BodyKind;
  /** The media type without parameters, lower-case (`''` when the request sent none). */
  mediaType: string;
  raw: Uint8Array;
  /** JSON value, form record (a multipart body's fields too), text, or the raw bytes. */
  value: unknown;
  /** A multipart body's files, on disk (see multipart.ts); the raw bytes of such a body are not kept. */
  files?: UploadedFile[];
  /** Deletes a multipart body's files. */
  release?: () => Promise<void>;
  /** A multipart body taken part by part (a route with `.uploads({ stream: true })`): not read yet. */
  parts?: PartStream;
}

export const EMPTY_BODY: ParsedBody = {
  kind: 'empty',
  mediaType: '',
  raw: new Uint8Array(0),
  value: undefined,
};

/** Parses a raw body according to its `Content-Type` (and refuses encoded bodies). */
export function parseBody(
  raw: Uint8Array,
  contentType: string | undefined,
  contentEncoding?: string,
): ParsedBody {
  const { mediaType, charset } = contentTypeOf(contentType);
  if (raw.byteLength === 0) return { ...EMPTY_BODY, mediaType };
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    throw new HttpError(415, `Content-Encoding ${JSON.stringify(contentEncoding)} is not supported`);
  }
  if (isJsonMediaType(mediaType)) return { kind: 'json', mediaType, raw, value: decodeJson(raw) };
  if (mediaType === 'application/x-www-form-urlencoded') {
    return { kind: 'form', mediaType, raw, value: formRecord(decodeText(raw, charset)) };
  }
  if (mediaType.startsWith('text/')) return { kind: 'text', mediaType, raw, value: decodeText(raw, charset) };
  return { kind: 'binary', mediaType, raw, value: raw };
}

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * One decoder for every JSON body: `decode()` without `{ stream: true }` keeps no state between calls, so
 * sharing it is safe, and it strips a leading byte-order mark as a decoder built per body did.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes JSON from UTF-8 bytes; 400 on invalid UTF-8 or syntax. `JSON.parse` makes `__proto__` an own
 * property like any other key (it never sets a prototype), so the value is plain data; merging it into
 * another object with `Object.assign` or a spread is the caller's choice, as with any JSON.
 */
export function decodeJson(raw: Uint8Array): unknown {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new HttpError(400, 'Malformed JSON body: invalid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}

function decodeText(raw: Uint8Array, charset: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new HttpError(415, `Unsupported charset ${JSON.stringify(charset)}`);
  }
  try {
    return decoder.decode(raw);
  } catch {
    throw new HttpError(400, `Body is not valid ${charset}`);
  }
}

function formRecord(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const previous = out[key];
    if (previous === undefined) out[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[key] = [previous, value];
  }
  return out;
}

/** The media type of a `Content-Type` value, lower-case, without its parameters (`''` for none). */
export function mediaTypeOf(header: string | undefined): string {
  return contentTypeOf(header).mediaType;
}

/** A `multipart/form-data` body (its files are streamed to disk rather than read whole). */
export function isMultipart(header: string | undefined): boolean {
  return mediaTypeOf(header) === 'multipart/form-data';
}

interface ContentType {
  /** Lower-case, without parameters. */
  readonly mediaType: string;
  readonly charset: string;
}

const NO_CONTENT_TYPE: ContentType = { mediaType: '', charset: 'utf-8' };
/** The last `Content-Type` value read, and what it said: most requests to a service send the same one. */
let lastHeader = 'application/json';
let lastContentType: ContentType = { mediaType: 'application/json', charset: 'utf-8' };

/** A `Content-Type` value read once per distinct value in a row, not once per use (a body reads it twice). */
function contentTypeOf(header: string | undefined): ContentType {
  if (header === undefined) return NO_CONTENT_TYPE;
  if (header === lastHeader) return lastContentType;
  const parsed = parseContentType(header);
  lastHeader = header;
  lastContentType = parsed;
  return parsed;
}

function parseContentType(header: string): ContentType {
  const [type = '', ...params] = header.split(';');
  let charset = 'utf-8';
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key?.trim().toLowerCase() === 'charset' && value !== undefined) {
      charset = value.trim().replace(/^"|"$/g, '').toLowerCase();
    }
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** A parsed multipart body as a {@link ParsedBody}: its fields as the value, its files beside. */
export function multipartBody(body: MultipartBody, mediaType: string): ParsedBody {
  return {
    kind: 'multipart',
    mediaType,
    raw: new Uint8Array(0),
    value: body.fields,
    files: body.files,
    release: body.cleanup,
  };
}

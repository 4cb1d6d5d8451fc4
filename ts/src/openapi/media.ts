/**
 * A documented response: its `@response` line, and what its body is by media type: JSON described by a
 * schema, a file (`{file}`: a binary body, `res.sendFile` or `res.send(readable)`), or a stream of
 * Server-Sent Events (`text/event-stream`, `res.sse`). One reading for the document (`operation.ts`) and
 * for response validation (`contract.ts`), so what the document calls a stream is never checked as JSON.
 *
 * @example
 * responseMediaTypes(doc, { status: '200', type: 'file', description: '', line: 3 }) // ['application/octet-stream']
 */
import { execTyped, parseType } from './grammar/type-expr.js';
import type { OperationDoc, ResponseDoc } from './types.js';

/** The `{file}` response type. */
const FILE_TYPE = 'file';
const EVENT_STREAM = 'text/event-stream';
const OCTET_STREAM = 'application/octet-stream';
const JSON_MEDIA = 'application/json';

/**
 * A media type as `@response` may write it after the type: an IANA top-level type, so that a description
 * starting with a word and a slash ("and/or") is rarely taken for one; `image/*` ranges allowed.
 */
const MEDIA_TYPE = /^(?:application|audio|font|image|message|model|multipart|text|video)\/(?:[\w.+-]+|\*)$/i;

const RESPONSE = /^(\d{3}|[1-5]XX|default)(?:\s+\{([^}]+)\})?(?:\s+-?\s*([\s\S]*))?$/;

/**
 * A `@response` line after the tag: `<status> [{Type}] [media/type[, media/type]] [-] text`; `null` when
 * it is malformed. The media types are those that start the text (`{file} application/pdf - Invoice`).
 */
export function parseResponseLine(text: string, line: number): ResponseDoc | null {
  const m = execTyped(RESPONSE, text, 2);
  if (!m || (m[2] !== undefined && parseType(m[2]) === null)) return null;
  const { media, rest } = leadingMediaTypes(m[3] ?? '');
  return {
    status: m[1] ?? '',
    type: m[2]?.trim() ?? null,
    ...(media.length > 0 ? { media } : {}),
    description: rest.trim(),
    line,
  };
}

/**
 * The media types that start a text (`image/png, image/jpeg - The picture`), lower-case, and the text
 * after them (a `-` separating them from it dropped). Used by `@response` and by `{file}` form fields.
 *
 * @example leadingMediaTypes('image/* - The picture') // { media: ['image/*'], rest: 'The picture' }
 */
export function leadingMediaTypes(text: string): { media: string[]; rest: string } {
  const media: string[] = [];
  let rest = text;
  for (;;) {
    const next = /^([^\s,]+)\s*(,)?\s*/.exec(rest);
    if (!next || !MEDIA_TYPE.test(next[1] ?? '')) break;
    media.push((next[1] ?? '').toLowerCase());
    rest = rest.slice(next[0].length);
    if (next[2] === undefined) break;
  }
  if (media.length > 0) rest = rest.replace(/^-\s*/, '');
  return { media, rest };
}

/** `application/json`, `application/problem+json` (parameters ignored). */
export function isJsonMedia(media: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/i.test(media.split(';')[0]?.trim() ?? '');
}

export function isEventStream(media: string): boolean {
  return (media.split(';')[0]?.trim() ?? '').toLowerCase() === EVENT_STREAM;
}

export function isFileResponse(response: ResponseDoc): boolean {
  return response.type?.trim() === FILE_TYPE;
}

/**
 * The media types of one response: those on its `@response` line, else the operation's `@produces`
 * (a `{file}` skips the JSON ones: a file is not JSON), else `application/octet-stream` for a file and
 * `application/json` for anything else.
 */
export function responseMediaTypes(doc: OperationDoc, response: ResponseDoc): string[] {
  if (response.media !== undefined && response.media.length > 0) return response.media;
  const file = isFileResponse(response);
  const produced = file ? doc.produces.filter((m) => !isJsonMedia(m)) : doc.produces;
  if (produced.length > 0) return produced;
  return [file ? OCTET_STREAM : JSON_MEDIA];
}

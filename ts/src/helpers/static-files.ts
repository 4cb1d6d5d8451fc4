/**
 * Files as answers: `res.sendFile(path)` and the `serveStatic` middleware (serve-static.ts) both end here.
 * @fastify/send does the HTTP — `ETag` and `Last-Modified`, conditional requests (304, 412), ranges (206,
 * 416), the type from the name, dotfiles, index files, and a second root jail; this module checks the path
 * before anything reaches the file system, reads the `Range` field before send does ({@link rangeSpecs}),
 * and turns what send returns into a {@link FileResponse}.
 *
 * It knows a response and a request only by the few methods it calls, so that response.ts can import it
 * (for `res.sendFile`) without an import cycle.
 */
import type { Stats } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import type { ErrorSendResult, SendOptions } from '@fastify/send';
import { HttpError } from '../http/errors.js';

/** How a file is described to caches and clients: what `res.sendFile()` and `serveStatic()` share. */
export interface FileOptions {
  /**
   * How long caches may keep the file: milliseconds, or a number with a unit (`'30s'`, `'10m'`, `'1h'`,
   * `'7d'`, `'1w'`, `'1y'`). Sent as `Cache-Control: public, max-age=<seconds>`, at most one year.
   * Default 0.
   */
  maxAge?: number | string;
  /** Adds `immutable` to `Cache-Control` (with a `maxAge`: for names that change with their content). */
  immutable?: boolean;
  /** `false`: no `Cache-Control` from here (`maxAge`, `immutable` unused). Default `true`. */
  cacheControl?: boolean;
  /** `Last-Modified` from the file's modification time, and `If-Modified-Since` answered. Default `true`. */
  lastModified?: boolean;
  /** A weak `ETag` from the size and modification time, and `If-None-Match` answered. Default `true`. */
  etag?: boolean;
  /** Ranges (206, 416) and `Accept-Ranges: bytes`. Default `true`. */
  acceptRanges?: boolean;
  /**
   * A path with a segment that starts with a dot (`.env`, `.git/config`): `'ignore'` (default) answers as
   * if it were absent (404, and `serveStatic` falls through), `'deny'` answers 403, `'allow'` serves it.
   */
  dotfiles?: 'allow' | 'deny' | 'ignore';
}

/** @example res.sendFile('report.pdf', { root: 'var/reports', maxAge: '1h', headers: { 'Content-Disposition': 'attachment' } }) */
export interface SendFileOptions extends FileOptions {
  /**
   * The directory `path` is taken from (relative to the working directory, or absolute); `path` cannot
   * leave it (`..` is a 403). Without it, `path` must be absolute.
   */
  root?: string;
  /** Headers for the file's answer (200, 206, 304), set after the ones the file gives. */
  headers?: Record<string, string>;
}

/** What a file answer writes on a response (`Response` has all of it). */
export interface FileResponse {
  status(code: number): this;
  header(name: string, value: string): this;
  hasHeader(name: string): boolean;
  send(body?: Readable): this;
}

/** What a file answer reads of the request it answers (`RequestView`, `Request`). */
export interface FileRequest {
  getMethod(): string;
  header(name: string): string | undefined;
}

/** What became of a request for a file: answered, no such file (or an ignored dotfile), or a directory. */
export type FileAnswer = 'file' | 'missing' | 'directory';

/** Called once a file's headers are on the response, before its body (`serveStatic`'s `setHeaders`). */
export type FileHeadersHook<R> = (res: R, path: string, stat: Stats) => void;

/**
 * `res.sendFile()`: answers `res` with the file at `path` (a file-system path, not percent-encoded),
 * or throws a 404 {@link HttpError} when there is none (a directory is none either).
 */
export async function sendFileInto<R extends FileResponse>(
  res: R,
  request: FileRequest | null,
  path: string,
  options: SendFileOptions = {},
): Promise<R> {
  if (typeof path !== 'string' || path === '') {
    throw new TypeError(`res.sendFile() takes a file path, got ${JSON.stringify(path)}`);
  }
  const root = options.root;
  // send takes an empty root for none, which would read a relative path from the working directory.
  if (root !== undefined && (typeof root !== 'string' || root === '')) {
    throw new TypeError(`res.sendFile(): root must be a directory, got ${JSON.stringify(root)}`);
  }
  if (root === undefined && !isAbsolute(path)) {
    throw new TypeError(
      `res.sendFile(${JSON.stringify(path)}): a relative path needs a \`root\` option (or pass an absolute path)`,
    );
  }
  const target = toSendPath(path.split('/'));
  const headers = options.headers;
  const extra =
    headers === undefined
      ? undefined
      : (out: R) => {
          for (const [name, value] of Object.entries(headers)) out.header(name, value);
        };
  const answer = await answerWithFile(
    res,
    request,
    target,
    sendOptions(options, root === undefined ? {} : { root }),
    extra,
  );
  if (answer !== 'file') throw new HttpError(404);
  return res;
}

/**
 * The path @fastify/send is given for a request path (raw, percent-encoded, relative to the root), each
 * segment decoded once and checked: a malformed escape is a 400, a NUL byte, a backslash or an encoded
 * slash inside a segment a 400, a `..` segment a 403. Decoding here, per segment, is what makes `%2e%2e`,
 * `..%2f` and `%2e%2e%5c` the same `..` send would see, and refused before it does.
 */
export function requestPathToFile(rawPath: string): string {
  const segments = rawPath.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (!segment.includes('%')) continue;
    try {
      segments[i] = decodeURIComponent(segment);
    } catch {
      throw new HttpError(400, 'Malformed percent-encoding in the path');
    }
  }
  return toSendPath(segments);
}

/** Decoded segments checked and percent-encoded again: send decodes them back to exactly these. */
function toSendPath(segments: string[]): string {
  for (const segment of segments) {
    if (/[\0\\/]/.test(segment)) {
      throw new HttpError(400, 'A file path holds a NUL byte, a backslash or an encoded slash');
    }
    if (segment === '..') throw new HttpError(403, 'A file path may not climb out of its root (..)');
  }
  try {
    return segments.map(encodeURIComponent).join('/');
  } catch {
    // A lone surrogate (only a path built in code can hold one) has no UTF-8 form: no file has that name.
    throw new HttpError(400, 'A file path holds a lone surrogate');
  }
}

/** send's options from ours, checked (a mistake in them is the caller's, reported before any request). */
export function sendOptions(
  options: FileOptions,
  place: Pick<SendOptions, 'root' | 'index' | 'extensions'>,
): SendOptions {
  const dotfiles = options.dotfiles ?? 'ignore';
  if (dotfiles !== 'allow' && dotfiles !== 'deny' && dotfiles !== 'ignore') {
    throw new TypeError(`dotfiles must be 'allow', 'deny' or 'ignore', not ${JSON.stringify(dotfiles)}`);
  }
  return {
    ...place,
    dotfiles,
    maxAge: maxAgeMs(options.maxAge ?? 0),
    immutable: options.immutable ?? false,
    cacheControl: options.cacheControl ?? true,
    lastModified: options.lastModified ?? true,
    etag: options.etag ?? true,
    acceptRanges: options.acceptRanges ?? true,
  };
}

const UNITS: Record<string, number> = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5, y: 315576e5 };

/** `maxAge` in milliseconds. send would turn a string it cannot read into `max-age=NaN`: refused here. */
function maxAgeMs(value: number | string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
  } else {
    const match = /^(\d+(?:\.\d+)?) *(ms|s|m|h|d|w|y)$/.exec(value.trim().toLowerCase());
    if (match !== null) return Number(match[1]) * (UNITS[match[2] as string] as number);
  }
  throw new TypeError(
    `maxAge must be milliseconds (a number from 0) or a duration like '10m', '1h', '7d', not ${JSON.stringify(value)}`,
  );
}

type Send = typeof import('@fastify/send');
let loaded: Send | undefined;

/** send and its MIME table are loaded on the first file served: an application that serves none never pays. */
async function loadSend(): Promise<Send> {
  loaded ??= (await import('@fastify/send')).default;
  return loaded;
}

/**
 * The `Content-Type` send gives a file named `name` (its type by extension, `; charset=utf-8` for text),
 * for an answer whose bytes come from another file (a precompressed `name.br`); `undefined` when the
 * extension names no type (send then sets none either).
 */
export async function contentTypeOf(name: string): Promise<string | undefined> {
  const send = await loadSend();
  const type = send.mime.getType(name);
  if (type === null) return undefined;
  return send.isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}

/**
 * The request fields send reads (it tests some with `in`, so absent ones must be absent keys). `Range` is
 * not among them: it is read here, and given to send once the file's size is known (answerWithFile).
 */
const FIELDS = [
  'if-range',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'cache-control',
] as const;

/** The part of a node request send reads: `method` (HEAD) and the fields above. */
function sendRequest(request: FileRequest | null): { method: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (request === null) return { method: 'GET', headers };
  for (const name of FIELDS) {
    const value = request.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return { method: request.getMethod(), headers };
}

/** Headers a handler may set before the file and keep (as pillarjs/send keeps them). */
const KEPT = new Set(['Cache-Control', 'Content-Type']);

/**
 * Asks send for the file at `target` (percent-encoded, checked) and writes its answer on `res`: status,
 * headers and, unless it is a 304, the file as a stream framed by its Content-Length. A missing
 * file or a directory leaves `res` untouched; any other refusal (403, 412, 416, …) is thrown as an
 * {@link HttpError}, so it gets the framework's JSON error body.
 */
export async function answerWithFile<R extends FileResponse>(
  res: R,
  request: FileRequest | null,
  target: string,
  options: SendOptions,
  onHeaders?: FileHeadersHook<R>,
): Promise<FileAnswer> {
  const send = await loadSend();
  const asked = sendRequest(request);
  const specs = request === null ? null : rangeSpecs(request.header('range'));
  // send calls onFile with the file's size before it reads `Range`: the one moment a suffix longer than
  // the file can become the whole file (send's own parser drops it, and answers 416).
  const withRange: SendOptions =
    specs === null
      ? options
      : {
          ...options,
          onFile: (_path, stat) => {
            asked.headers.range = rangeForSize(specs, stat.size);
          },
        };
  // send's type asks for a node request; it reads only `method` and `headers` (lib/send.js).
  const result = await send(asked as unknown as Readable, target, withRange);
  if (result.type !== 'file') {
    result.stream.destroy();
    return result.type === 'directory' ? 'directory' : refusal(result);
  }
  for (const [name, value] of Object.entries(result.headers)) {
    if (!KEPT.has(name) || !res.hasHeader(name)) res.header(name, String(value));
  }
  res.status(result.statusCode);
  onHeaders?.(res, result.metadata.path, result.metadata.stat);
  // A HEAD answer carries send's empty stream, so middleware sees what it would see on the GET answer
  // (compress() adds its Vary to it); the kernel drops it unread. No file is opened for a HEAD. A name
  // mime does not know gets send's default type for streams, on HEAD as on GET.
  if (result.statusCode === 304) result.stream.destroy();
  else res.send(result.stream);
  return 'file';
}

/** send's error answer as ours: 404 is 'missing' (the caller decides), a 500 an error for the log. */
function refusal(result: ErrorSendResult): 'missing' {
  const status = result.statusCode;
  if (status === 404) return 'missing';
  const cause = result.metadata.error;
  if (status >= 500) throw new Error(`Reading a file failed: ${cause.message}`, { cause });
  const range = result.headers['Content-Range'];
  throw new HttpError(status, undefined, range === undefined ? {} : { headers: { 'Content-Range': range } });
}

/** One range spec, digits only: `first-last`, `first-` or `-suffix`. */
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-\d+)$/;

/**
 * The specs of a `Range` field (`bytes=0-9, 20-`), or `null` for a field to ignore (the whole file, 200).
 * The unit is `bytes`, lower-case as send reads it; each spec is `first-last`, `first-` or `-suffix` in
 * decimal digits; spaces and tabs are allowed around a spec (not inside), empty list elements skipped.
 * Anything else — another unit, `0x10`, `+5`, `1e3`, `0 - 9`, `5-3`, no spec at all — makes the whole
 * field invalid, and a server may ignore an invalid `Range`. send's own parser reads a spec with
 * `parseInt` (`0x10-0x20` would be `0-0`): it only ever sees specs that passed here.
 */
export function rangeSpecs(field: string | undefined): string[] | null {
  if (field === undefined || !field.startsWith('bytes=')) return null;
  const specs: string[] = [];
  for (const element of field.slice('bytes='.length).split(',')) {
    const spec = trimSpaces(element);
    if (spec === '') continue;
    const match = RANGE_SPEC.exec(spec);
    if (match === null) return null;
    const [, first, last] = match;
    if (first !== undefined && last !== undefined && last !== '' && digitsBelow(last, first)) return null;
    specs.push(spec);
  }
  return specs.length === 0 ? null : specs;
}

/**
 * The `Range` field send reads for a file of `size` bytes: the specs as given, but a suffix longer than
 * the file (`-1000000` on 37 bytes) selects the whole file, `0-`. A zero-length file stays unsatisfiable
 * (send answers `0-` on it with a 416). `Number(suffix)` is exact enough: a file is under 2^53 bytes, so
 * a suffix longer than it stays longer once rounded.
 */
export function rangeForSize(specs: readonly string[], size: number): string {
  const resolved = specs.map((spec) => (spec.startsWith('-') && Number(spec.slice(1)) > size ? '0-' : spec));
  return `bytes=${resolved.join(',')}`;
}

/** Without the spaces and tabs around it; by hand: `/[ \t]+$/` is quadratic on `0<16 KB of spaces>1`. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return text.slice(start, end);
}

/** `a < b` for decimal digit strings of any length (`Number` rounds past 2^53 and would call them equal). */
function digitsBelow(a: string, b: string): boolean {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length !== y.length ? x.length < y.length : x < y;
}

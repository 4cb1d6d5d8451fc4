/**
 * The `multipart/form-data` parser (`busboy`) as both upload modes use it — files to disk
 * (multipart.ts) and parts handed to the handler as they arrive (multipart-parts.ts): the limits that
 * apply, how they are given to busboy, and the 413 each one answers.
 */
import { Readable, type Writable } from 'node:stream';
import type busboy from 'busboy';
import { lazyPackage } from '../builtins.js';
import { HttpError } from '../http/errors.js';

const loadBusboy = lazyPackage<typeof busboy>('busboy');

/**
 * How a multipart body is taken, and how much it may carry: the application's `uploads` key, a route's or
 * group's `.uploads()`.
 */
export interface UploadLimits {
  /** Largest file, in bytes (default: no limit but the body's). */
  fileSize?: number;
  /** Most files (default 10). */
  files?: number;
  /** Most non-file fields (default 100). */
  fields?: number;
  /** Largest field value, in bytes (default 64 KiB). */
  fieldSize?: number;
  /** Most parts, files and fields together (default 1,000). */
  parts?: number;
  /** Where uploads are written (default: the operating system's temporary directory). */
  tmpDir?: string;
  /**
   * Hand the parts to the handler as they arrive (`req.parts()`), nothing written to disk, instead of
   * reading the whole form before the handler with its files on disk (`req.files()`). Default `false`.
   */
  stream?: boolean;
}

/** The limits with every default filled in. */
type ResolvedLimits = Required<Pick<UploadLimits, 'fileSize' | 'files' | 'fields' | 'fieldSize' | 'parts'>>;

const DEFAULT_LIMITS: ResolvedLimits = {
  fileSize: Number.POSITIVE_INFINITY,
  files: 10,
  fields: 100,
  fieldSize: 64 * 1024,
  parts: 1000,
};

/** What a mode does with the parts busboy finds, and with a limit crossed. */
export interface PartHandlers {
  /** A file part: its bytes are `stream`'s (cut short when the file passes `uploads.fileSize`: see `fail`). */
  file(fieldname: string, stream: Readable, info: { filename: string; mimetype: string }): void;
  /** A plain field, within `uploads.fieldSize`. */
  field(fieldname: string, value: string): void;
  /** A limit crossed (a file's or a field's size, the files, fields or parts counted): its 413. */
  fail(error: HttpError): void;
}

/**
 * A parser for one body (write the body into it), and the limits it enforces. Throws a 400 `HttpError`
 * when the `Content-Type` cannot be parsed (no boundary). busboy's own types stay inside this module:
 * its type package is not a dependency of the package's users, so no declaration may name it.
 */
export function openParser(contentType: string, limits: UploadLimits, handlers: PartHandlers): Writable {
  const max = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ResolvedLimits)[]) {
    const value = limits[key];
    if (value !== undefined) max[key] = value;
  }
  let parser: busboy.Busboy;
  try {
    parser = loadBusboy()({
      headers: { 'content-type': contentType },
      // File names in RFC 7578's plain form are UTF-8 in every browser.
      defParamCharset: 'utf8',
      // busboy stops at a size or part count when it *reaches* it (it cannot know whether more follows):
      // one more, so that a file, a field or a form exactly at its limit is taken. Files and fields are
      // counted when the next one arrives, so those limits are given as they are.
      limits: {
        fileSize: max.fileSize + 1,
        files: max.files,
        fields: max.fields,
        fieldSize: max.fieldSize + 1,
        parts: max.parts + 1,
      },
    });
  } catch (error) {
    throw malformed(error);
  }
  parser.on('file', (fieldname, stream, info) => {
    stream.once('limit', () => handlers.fail(fileTooLarge(fieldname, max)));
    handlers.file(fieldname, stream, { filename: info.filename ?? '', mimetype: info.mimeType });
  });
  parser.on('field', (fieldname, value, info) => {
    if (info.valueTruncated) handlers.fail(fieldTooLarge(fieldname, max));
    else handlers.field(fieldname, value);
  });
  parser.on('filesLimit', () =>
    handlers.fail(new HttpError(413, `More files than the limit of ${max.files} (uploads.files)`)),
  );
  parser.on('fieldsLimit', () =>
    handlers.fail(new HttpError(413, `More fields than the limit of ${max.fields} (uploads.fields)`)),
  );
  parser.on('partsLimit', () =>
    handlers.fail(new HttpError(413, `More parts than the limit of ${max.parts} (uploads.parts)`)),
  );
  return parser;
}

/** 413: a file past `uploads.fileSize`. */
const fileTooLarge = (fieldname: string, max: ResolvedLimits) =>
  new HttpError(
    413,
    `File ${JSON.stringify(fieldname)} larger than the limit of ${max.fileSize} bytes (uploads.fileSize)`,
  );

/** 413: a field value past `uploads.fieldSize`. */
const fieldTooLarge = (name: string, max: ResolvedLimits) =>
  new HttpError(
    413,
    `Field ${JSON.stringify(name)} larger than the limit of ${max.fieldSize} bytes (uploads.fieldSize)`,
  );

/** What a failed parse becomes: an `HttpError` the body's reading raised (413, 499) as it is, else 400. */
export function malformed(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  return new HttpError(
    400,
    `Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** A body's chunks as the parser's source: a stream as it is (node:http's request body), anything else
 * through `Readable.from`. */
export function sourceOf(chunks: AsyncIterable<Uint8Array>): Readable {
  return chunks instanceof Readable ? chunks : Readable.from(chunks);
}

/**
 * Stops a parse: `source` and busboy's parser destroyed on the next tick, never from inside one of the
 * parser's own events. busboy emits a file's 'limit' in the middle of a write and then goes on to mark
 * the file stream, which destroying the parser has just cleared: done at once, that throws (uncaught,
 * when the write came from a pipe).
 */
export function stopParse(source: Readable, parser: Writable): void {
  process.nextTick(() => {
    source.destroy();
    parser.destroy();
  });
}

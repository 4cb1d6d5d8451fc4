/**
 * The `multipart/form-data` parser (`busboy`) as both upload modes use it — files to disk
 * (multipart.ts) and parts handed to the handler as they arrive (multipart-parts.ts): the limits that
 * apply, how they are given to busboy, and the 413 each one answers.
 */
import type busboy from 'busboy';
import { lazyPackage } from '../builtins.js';
import { HttpError } from './errors.js';

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
export type ResolvedLimits = Required<
  Pick<UploadLimits, 'fileSize' | 'files' | 'fields' | 'fieldSize' | 'parts'>
>;

const DEFAULT_LIMITS: ResolvedLimits = {
  fileSize: Number.POSITIVE_INFINITY,
  files: 10,
  fields: 100,
  fieldSize: 64 * 1024,
  parts: 1000,
};

/**
 * A parser for one body, and the limits it enforces. Throws a 400 `HttpError` when the `Content-Type`
 * cannot be parsed (no boundary). `fail` is called with a 413 when a count limit is crossed (a size
 * limit is reported on the file stream or the field: see {@link fileTooLarge}, {@link fieldTooLarge}).
 */
export function openParser(
  contentType: string,
  limits: UploadLimits,
  fail: (error: HttpError) => void,
): { parser: busboy.Busboy; max: ResolvedLimits } {
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
  parser.on('filesLimit', () =>
    fail(new HttpError(413, `More files than the limit of ${max.files} (uploads.files)`)),
  );
  parser.on('fieldsLimit', () =>
    fail(new HttpError(413, `More fields than the limit of ${max.fields} (uploads.fields)`)),
  );
  parser.on('partsLimit', () =>
    fail(new HttpError(413, `More parts than the limit of ${max.parts} (uploads.parts)`)),
  );
  return { parser, max };
}

/** 413: a file past `uploads.fileSize`. */
export const fileTooLarge = (fieldname: string, max: ResolvedLimits) =>
  new HttpError(
    413,
    `File ${JSON.stringify(fieldname)} larger than the limit of ${max.fileSize} bytes (uploads.fileSize)`,
  );

/** 413: a field value past `uploads.fieldSize`. */
export const fieldTooLarge = (name: string, max: ResolvedLimits) =>
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

/**
 * `multipart/form-data` bodies, parsed as they arrive with `busboy`: fields are collected, files are
 * streamed to a temporary folder of their own (never held whole in memory), and every limit crossed is a
 * 413 naming it. A body that fails — a limit, a malformed part, the client leaving — leaves no file behind.
 */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type busboy from 'busboy';
import { fs, lazyPackage } from '../builtins.js';
import { HttpError } from './errors.js';

const loadBusboy = lazyPackage<typeof busboy>('busboy');

/** A file of a multipart body, on disk until the answer is sent (unless the handler moves it). */
export interface UploadedFile {
  /** The form field it came in. */
  fieldname: string;
  /** The name the client gave it (UTF-8 decoded; never a path to trust). */
  filename: string;
  /** The type the client declared (not checked against the content). */
  mimetype: string;
  /** Its size in bytes. */
  size: number;
  /** Where it lies: a file in a folder of its own under the temporary directory. */
  path: string;
}

/** How much a multipart body may carry: the application's `uploads` key, a route's or group's `.uploads()`. */
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
}

const DEFAULT_LIMITS = {
  fileSize: Number.POSITIVE_INFINITY,
  files: 10,
  fields: 100,
  fieldSize: 64 * 1024,
  parts: 1000,
};

/** A multipart body, parsed: the fields, the files on disk, and how to delete them. */
export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
  /** Deletes the files (and their folder); what the handler moved elsewhere is not touched. */
  cleanup(): Promise<void>;
}

/**
 * Parses a multipart body from its chunks. Rejects with 400 for a malformed body (no boundary, a part cut
 * short, headers past the limit), 413 for a limit crossed, or whatever the chunks failed with (413 past the
 * body limit, 499 when the client left); the files written so far are deleted first.
 */
export async function readMultipart(
  chunks: AsyncIterable<Uint8Array>,
  contentType: string,
  limits: UploadLimits = {},
): Promise<MultipartBody> {
  const max = { ...DEFAULT_LIMITS, ...withoutUndefined(limits) };
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
    throw new HttpError(400, `Malformed multipart body: ${(error as Error).message}`);
  }
  const tmp = limits.tmpDir ?? process.getBuiltinModule('node:os').tmpdir();
  const folder = await fs.promises.mkdtemp(join(tmp, 'arbor-upload-'));
  const cleanup = () => fs.promises.rm(folder, { recursive: true, force: true });
  const fields: Record<string, string | string[]> = {};
  const files: UploadedFile[] = [];
  const writes: Promise<unknown>[] = [];
  const source = Readable.from(chunks);
  let failure: unknown = null;

  const fail = (error: unknown) => {
    if (failure !== null) return;
    failure = error;
    // Stop reading: the rest of the body is not wanted (the connection closes after the answer).
    source.destroy();
    parser.destroy();
  };

  parser.on('file', (fieldname, stream, info) => {
    if (failure !== null) {
      stream.resume();
      return;
    }
    const file: UploadedFile = {
      fieldname,
      filename: info.filename ?? '',
      mimetype: info.mimeType,
      size: 0,
      path: join(folder, String(files.length)),
    };
    files.push(file);
    stream.on('data', (chunk: Buffer) => {
      file.size += chunk.byteLength;
    });
    stream.once('limit', () =>
      fail(
        new HttpError(
          413,
          `File ${JSON.stringify(fieldname)} larger than the limit of ${max.fileSize} bytes (uploads.fileSize)`,
        ),
      ),
    );
    writes.push(pipeline(stream, fs.createWriteStream(file.path)).catch(fail));
  });
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) {
      fail(
        new HttpError(
          413,
          `Field ${JSON.stringify(name)} larger than the limit of ${max.fieldSize} bytes (uploads.fieldSize)`,
        ),
      );
      return;
    }
    const previous = fields[name];
    if (previous === undefined) fields[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else fields[name] = [previous, value];
  });
  parser.on('filesLimit', () =>
    fail(new HttpError(413, `More files than the limit of ${max.files} (uploads.files)`)),
  );
  parser.on('fieldsLimit', () =>
    fail(new HttpError(413, `More fields than the limit of ${max.fields} (uploads.fields)`)),
  );
  parser.on('partsLimit', () =>
    fail(new HttpError(413, `More parts than the limit of ${max.parts} (uploads.parts)`)),
  );

  try {
    await pipeline(source, parser);
  } catch (error) {
    fail(
      error instanceof HttpError
        ? error
        : new HttpError(400, `Malformed multipart body: ${(error as Error).message}`),
    );
  }
  await Promise.allSettled(writes);
  if (failure !== null) {
    await cleanup();
    throw failure;
  }
  return { fields, files, cleanup };
}

function withoutUndefined(limits: UploadLimits): Partial<typeof DEFAULT_LIMITS> {
  const out: Partial<typeof DEFAULT_LIMITS> = {};
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof typeof DEFAULT_LIMITS)[]) {
    const value = limits[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

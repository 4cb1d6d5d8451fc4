/**
 * `multipart/form-data` bodies, parsed as they arrive with `busboy`: fields are collected, files are
 * streamed to a temporary folder of their own (never held whole in memory), and every limit crossed is a
 * 413 naming it. A body that fails — a limit, a malformed part, the client leaving — leaves no file behind.
 */
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fs, nodeBuiltin } from '../builtins.js';
import { malformed, openParser, sourceOf, stopParse, type UploadLimits } from './multipart-parser.js';

export type { UploadLimits } from './multipart-parser.js';

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
  let failure: unknown = null;
  const fail = (error: unknown) => {
    if (failure !== null) return;
    failure = error;
    // Stop reading: the rest of the body is not wanted (the connection closes after the answer).
    stopParse(source, parser);
  };
  // Null prototype: a field named `__proto__` or `constructor` is a field like any other.
  const fields: Record<string, string | string[]> = Object.create(null);
  const files: UploadedFile[] = [];
  const writes: Promise<unknown>[] = [];
  let folder = '';
  const parser = openParser(contentType, limits, {
    file(fieldname, stream, info) {
      if (failure !== null) {
        stream.resume();
        return;
      }
      const file: UploadedFile = { fieldname, ...info, size: 0, path: join(folder, String(files.length)) };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.byteLength;
      });
      writes.push(pipeline(stream, fs.createWriteStream(file.path)).catch(fail));
    },
    field(name, value) {
      const previous = fields[name];
      if (previous === undefined) fields[name] = value;
      else if (Array.isArray(previous)) previous.push(value);
      else fields[name] = [previous, value];
    },
    fail,
  });
  const tmp = limits.tmpDir ?? nodeBuiltin<typeof import('node:os')>('node:os').tmpdir();
  folder = await fs.promises.mkdtemp(join(tmp, 'arbor-upload-'));
  const cleanup = () => fs.promises.rm(folder, { recursive: true, force: true });
  const source = sourceOf(chunks);

  try {
    await pipeline(source, parser);
  } catch (error) {
    fail(malformed(error));
  }
  await Promise.allSettled(writes);
  if (failure !== null) {
    await cleanup();
    throw failure;
  }
  return { fields, files, cleanup };
}

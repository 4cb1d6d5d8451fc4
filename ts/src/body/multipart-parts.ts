/**
 * A `multipart/form-data` body handed to the handler part by part as it arrives (`req.parts()`, on a
 * route with `.uploads({ stream: true })`): nothing is written to disk, and a file's bytes are read from
 * the client only as fast as the handler reads its stream. The same limits and 413s as the files-on-disk
 * mode apply; a failure (a limit, a malformed body, the client leaving) is thrown by the iterator and
 * destroys the file stream being read with the same error.
 *
 * @example
 * for await (const part of req.parts()) {
 *   if (part.type === 'file') await pipeline(part.stream, createHash('sha256'));
 *   else fields[part.fieldname] = part.value;
 * }
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HttpError } from '../http/errors.js';
import { malformed, openParser, sourceOf, stopParse, type UploadLimits } from './multipart-parser.js';

/** A file of a streamed form: read `stream` to the end (or leave it: the next part skips the rest). */
export interface FilePart {
  type: 'file';
  /** The form field it came in. */
  fieldname: string;
  /** The name the client gave it (UTF-8 decoded; never a path to trust). */
  filename: string;
  /** The type the client declared (not checked against the content). */
  mimetype: string;
  /** Its bytes, as they arrive. Fails with the 413 past `uploads.fileSize`, or the form's failure. */
  stream: Readable;
}

/** A plain field of a streamed form. */
export interface FieldPart {
  type: 'field';
  fieldname: string;
  value: string;
}

/**
 * One part of a `multipart/form-data` body as `req.parts()` yields it: a file (its bytes streamed) or a
 * plain field. Narrow on `type`.
 *
 * @example
 * for await (const part of req.parts()) if (part.type === 'field') fields[part.fieldname] = part.value;
 */
export type Part = FilePart | FieldPart;

/** What checks a streamed form against its route's contract (validation.ts builds it). */
export interface PartGuard {
  /** The problem with this part, given the parts before it, or `null`. */
  part(part: Part): HttpError | null;
  /** The problem with the whole form, once its last part has arrived, or `null`. */
  end(): HttpError | null;
}

/**
 * The parts of one body. Iterated once; breaking out of the loop (or the answer going out) stops the
 * parse and drops the rest of the body (the connection then closes after the answer).
 */
export class PartStream implements AsyncIterable<Part> {
  readonly #source: Readable;
  readonly #parser: Writable;
  readonly #queue: Part[] = [];
  /** The file part last handed out: skipped (drained) if the handler asks for the next part first. */
  #current: FilePart | null = null;
  #failure: HttpError | null = null;
  #ended = false;
  /** Closed by {@link close}: a failure after it (the parse cut short) is nobody's news. */
  #closed = false;
  #iterated = false;
  #wake: (() => void) | null = null;
  #guard: PartGuard | null = null;
  /** Each file part's stream, to busboy's stream it is piped from. */
  readonly #sources = new WeakMap<Readable, Readable>();

  /** Throws a 400 `HttpError` for a `Content-Type` without a usable boundary. */
  constructor(chunks: AsyncIterable<Uint8Array>, contentType: string, limits: UploadLimits) {
    const parser = openParser(contentType, limits, {
      file: (fieldname, source, info) => {
        if (this.#failure !== null) {
          source.resume();
          return;
        }
        // The handler reads a stream of its own, piped from busboy's: busboy fails its file stream with
        // its own errors (a bare `Error`, or a premature close when the body's read fails), before this
        // class hears of them; the handler's stream fails with the form's `HttpError` (400, 413, 499).
        const stream = new PassThrough();
        // Its failure reaches whoever reads it; a stream nobody reads (a part never taken, or given up
        // on) fails quietly rather than as an unhandled 'error'.
        stream.on('error', () => undefined);
        source.pipe(stream);
        source.on('error', (error) => this.#fail(malformed(error)));
        // The handler gave up on the file (destroyed its stream): the rest of it is skipped.
        stream.once('close', () => {
          if (!stream.readableEnded) skip(source, stream);
        });
        this.#sources.set(stream, source);
        this.#push({ type: 'file', fieldname, ...info, stream });
      },
      field: (fieldname, value) => this.#push({ type: 'field', fieldname, value }),
      fail: (error) => this.#fail(error),
    });
    this.#parser = parser;
    this.#source = sourceOf(chunks);
    // Heard before pipeline() destroys the parser: the read's own error (413, 499) is the form's.
    this.#source.once('error', (error) => this.#fail(malformed(error)));
    pipeline(this.#source, parser).then(
      () => {
        this.#ended = true;
        this.#notify();
      },
      (error: unknown) => this.#fail(malformed(error)),
    );
  }

  [Symbol.asyncIterator](): AsyncIterator<Part> {
    if (this.#iterated)
      throw new Error('req.parts() can be iterated once: its parts are read as they arrive');
    this.#iterated = true;
    return {
      next: () => this.#next(),
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  /** Checks each part as the handler takes it, and the form once its last part is taken. */
  guard(guard: PartGuard): void {
    this.#guard = guard;
  }

  /** Stops the parse: what was not read of the body is dropped (the answer is out, or the loop was left). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ended = true;
    this.#source.destroy();
    this.#parser.destroy();
    this.#current?.stream.destroy();
    for (const part of this.#queue) if (part.type === 'file') part.stream.destroy();
    this.#queue.length = 0;
    this.#notify();
  }

  async #next(): Promise<IteratorResult<Part>> {
    // A file the handler did not read to its end: its rest is skipped, so the parse can go on.
    const current = this.#current;
    this.#current = null;
    if (current !== null && !current.stream.readableEnded) {
      const source = this.#sources.get(current.stream);
      if (source !== undefined) skip(source, current.stream);
    }
    for (;;) {
      if (this.#failure !== null) throw this.#failure;
      const part = this.#queue.shift();
      if (part !== undefined) {
        const problem = this.#guard?.part(part) ?? null;
        if (problem !== null) {
          this.#fail(problem);
          throw problem;
        }
        if (part.type === 'file') this.#current = part;
        return { done: false, value: part };
      }
      if (this.#ended) {
        const problem = this.#closed ? null : (this.#guard?.end() ?? null);
        this.#guard = null;
        if (problem !== null) {
          this.#failure = problem;
          throw problem;
        }
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #push(part: Part): void {
    this.#queue.push(part);
    this.#notify();
  }

  #fail(error: HttpError): void {
    if (this.#failure !== null || this.#closed) return;
    this.#failure = error;
    stopParse(this.#source, this.#parser);
    // Whoever reads a file stream learns it failed with the form (its pipe rejects with the 413 or 499).
    this.#current?.stream.destroy(error);
    for (const part of this.#queue) if (part.type === 'file') part.stream.destroy(error);
    this.#queue.length = 0;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

/** Drops the rest of a file nobody will read, so that the parse goes on to the next part. */
function skip(source: Readable, stream: Readable): void {
  source.unpipe();
  source.resume();
  stream.destroy();
}

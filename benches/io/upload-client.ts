/**
 * The upload case's client: one `multipart/form-data` request over node:http, a small text field and then
 * one file. The file's bytes are one prebuilt 64 KiB chunk written again and again as the socket drains,
 * so no request holds a copy of the file; Content-Length is known up front, as a browser sends a form.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type Agent, type ClientRequest, request } from 'node:http';
import { STREAM_CHUNK, streamChunk } from './servers/payloads.js';

export interface Form {
  /** The text field `name`'s value. */
  name: string;
  /** Bytes of the file field `file`. */
  size: number;
}

export interface Uploaded {
  status: number;
  /** From the first byte written to the last byte of the answer read. */
  ms: number;
  /** The answer's text. */
  body: string;
}

/** The form's bytes around the file: everything but the file itself. */
function framing(form: Form, boundary: string): { head: Buffer; tail: Buffer } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${form.name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  return { head, tail: Buffer.from(`\r\n--${boundary}--\r\n`) };
}

/** Writes the file in chunks, waiting for `drain` whenever the socket's buffer is full. */
async function writeFile(req: ClientRequest, size: number): Promise<void> {
  for (let sent = 0; sent < size; sent += STREAM_CHUNK) {
    const piece = Math.min(STREAM_CHUNK, size - sent);
    if (!req.write(piece === STREAM_CHUNK ? streamChunk : streamChunk.subarray(0, piece)))
      await once(req, 'drain');
  }
}

/** Uploads `form` to `url` and reads the whole answer. Rejects if the connection fails midway. */
export function upload(url: string, agent: Agent, form: Form): Promise<Uploaded> {
  // The file's chunk holds no `\r\n--`, not even across two chunks: no boundary can appear inside it.
  const boundary = `----ArborBench${randomBytes(12).toString('hex')}`;
  const { head, tail } = framing(form, boundary);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + form.size + tail.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.setTimeout(120_000, () => req.destroy(new Error(`${url}: no answer after 120 s`)));
    req.write(head);
    // A server that answers early (a 413) and closes makes a write fail: the request's 'error' rejects.
    writeFile(req, form.size).then(
      () => req.end(tail),
      () => {},
    );
  });
}

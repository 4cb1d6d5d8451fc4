/**
 * A node:http request (`IncomingMessage`, or node:http2's compatibility request) as the kernel sees it,
 * and the checks RFC 9112 asks for that node's parser leaves to the application. Shared by the request
 * listener and the upgrade listener.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { HeaderSource, IncomingInput, UpgradeChannel } from './dispatch.js';
import { HttpError } from './errors.js';
import { clientAborted, LimitedBody, readLimited, refuseDeclared, tooLarge } from './request-body.js';
import { repeatedFieldMessage, SINGLETON_FIELDS } from './singleton-fields.js';

/**
 * One request as the kernel sees it, and its header source: node's own headers object (lower-case names,
 * repeated headers already joined by node), read in place. Node builds that object from `rawHeaders` on
 * first access, so it is touched only when a header is asked for: the checks below read `rawHeaders`.
 */
export class NodeInput implements IncomingInput, HeaderSource {
  readonly method: string;
  readonly target: string;
  readonly ip: string;
  readonly hasBody: boolean;
  readonly upgrade: UpgradeChannel | undefined;
  /** Set when the body was refused part-way (413, a bad chunk): the connection closes after the answer. */
  bodyRefused = false;
  /** The body was asked for (whole or as a stream): node no longer drains it after the answer. */
  #bodyTaken = false;
  /** The answer was decided before the body was in (see {@link stopBody}). */
  #stopped = false;
  /** The body taken as a stream, failed by {@link stopBody}. */
  #streamed: LimitedBody | null = null;
  readonly #req: IncomingMessage;
  #all: Map<string, string> | undefined;

  /** The response being written, when there is one (an upgrade request has only its socket). */
  readonly #res: ServerResponse | undefined;

  constructor(req: IncomingMessage, hasBody: boolean, upgrade?: UpgradeChannel, res?: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.upgrade = upgrade;
    this.method = req.method ?? 'GET';
    this.target = req.url ?? '/';
    this.ip = req.socket.remoteAddress ?? '';
    this.hasBody = hasBody;
  }

  onAbort(listener: () => void): void {
    const res = this.#res;
    // A request node handed over with its socket (an upgrade, CONNECT) is answered in one write.
    if (res === undefined) return;
    res.once('close', () => {
      if (!res.writableFinished) listener();
    });
  }

  get headers(): HeaderSource {
    return this;
  }

  get(name: string): string | undefined {
    const headers = this.#req.headers;
    const value = headers[name];
    if (value === undefined && name === 'host') return headers[':authority'] as string | undefined;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  all(): Map<string, string> {
    if (this.#all === undefined) {
      this.#all = new Map();
      for (const name of Object.keys(this.#req.headers)) {
        // HTTP/2's pseudo-header fields (`:path`, `:authority`, …) are the request line, not headers.
        if (name.charCodeAt(0) === 0x3a) continue;
        const value = this.get(name);
        if (value !== undefined) this.#all.set(name, value);
      }
    }
    return this.#all;
  }

  /**
   * The body was asked for and has not all arrived. Once its answer is out nobody will read it (the
   * kernel lets it go), and node drains only a body nobody started reading: see {@link stopBody}.
   */
  get bodyUnfinished(): boolean {
    return this.#bodyTaken && !this.#req.complete;
  }

  /**
   * The answer is decided: a streamed read still under way fails as if the client had left (an upload
   * outlived by its answer deletes its files), and the rest of the body is drained and dropped, as node
   * drains a body nobody read. The connection is not cut: a socket destroyed with bytes unread is reset,
   * and a reset can lose the answer on its way to the client. Node's `requestTimeout` bounds a client
   * that never finishes its body.
   */
  stopBody(): void {
    this.#stopped = true;
    this.#streamed?.destroy(clientAborted());
    this.#req.resume();
  }

  openBody(limit: number): AsyncIterable<Uint8Array> {
    // Taken now, not when first read: an answer may go out before the reader starts.
    this.#bodyTaken = true;
    const req = this.#req;
    // Refused past a limit (its own, or a decoder's reading it): the connection closes after the answer.
    const body = new LimitedBody(limit, () => {
      if (!this.#stopped) this.bodyRefused = true;
    });
    this.#streamed = body;
    // Piped, so a failure of the body (a limit, the cut of stopBody) stops the pipe and leaves the
    // request alone: destroying it would reset the socket, and a reset can lose the answer.
    body.once('error', () => undefined);
    // Answered before the reader started (a middleware that did not wait for it): nothing to read.
    if (this.#stopped) {
      body.destroy(clientAborted());
      return body;
    }
    try {
      refuseDeclared(limit, req.headers['content-length']);
    } catch (error) {
      this.bodyRefused = true;
      body.destroy(error as Error);
      return body;
    }
    req.on('error', (error) => body.destroy(this.#bodyFailed(error) as Error));
    if (req.httpVersionMajor === 2) {
      // A reset stream ends the request as if its body were whole, and `complete` is true by then (see
      // streamReset): 'aborted' is emitted first, before node ends the request's readable side.
      req.once('aborted', () => body.destroy(clientAborted()));
    } else {
      // The client left: node may end a destroyed request quietly, short of its length.
      req.once('close', () => {
        if (!req.complete) body.destroy(clientAborted());
      });
    }
    req.pipe(body);
    return body;
  }

  readBody(limit: number): Promise<Uint8Array> {
    this.#bodyTaken = true;
    const req = this.#req;
    return req.httpVersionMajor === 2 ? this.#readHttp2(limit) : this.#readHttp1(limit);
  }

  /**
   * An HTTP/1 body, from node's 'data' and 'end' events: most bodies are one chunk, which an async
   * iterator over the request (a generator, end-of-stream listeners, a promise per chunk, the request
   * destroyed at the end) costs several times over. Past the limit the reading stops and the request is
   * paused, not destroyed: the 413 goes out and the connection closes after it (`bodyRefused`), unless the
   * answer came first and drains the rest (stopBody).
   */
  #readHttp1(limit: number): Promise<Uint8Array> {
    const req = this.#req;
    return new Promise((resolve, reject) => {
      try {
        refuseDeclared(limit, req.headers['content-length']);
        // Gone before the read began: no event will come.
        if (req.destroyed) throw new Error('Premature close');
      } catch (error) {
        reject(this.#bodyFailed(error));
        return;
      }
      let first: Buffer | null = null;
      let rest: Buffer[] | null = null;
      let total = 0;
      const onData = (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limit) return fail(tooLarge(limit));
        if (first === null) first = chunk;
        else if (rest === null) rest = [first, chunk];
        else rest.push(chunk);
      };
      const onEnd = () => {
        done();
        resolve(rest !== null ? Buffer.concat(rest, total) : (first ?? EMPTY));
      };
      // The client left mid-body: node destroys the request, with an error or quietly ('close' only).
      const onClose = () => fail(new Error('Premature close'));
      const fail = (error: unknown) => {
        done();
        req.pause();
        reject(this.#bodyFailed(error));
      };
      const done = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', fail);
        req.off('close', onClose);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', fail);
      req.on('close', onClose);
    });
  }

  /** An HTTP/2 body: through the request's async iterator, which hears a reset stream (see streamReset). */
  async #readHttp2(limit: number): Promise<Uint8Array> {
    const req = this.#req;
    let body: Uint8Array;
    try {
      body = await readLimited(req, limit, req.headers['content-length']);
    } catch (error) {
      throw this.#bodyFailed(error);
    }
    // A reset heard before the read is over fails it ("Premature close": see #bodyFailed) unless the
    // request's readable side had already ended; either way the body was cut.
    if (streamReset(req)) throw clientAborted();
    return body;
  }

  /** What a failed body read becomes: the client's leaving (499), or a refusal that closes the connection. */
  #bodyFailed(error: unknown): unknown {
    // The client went away mid-body: its fault, not the server's (no 500, no stack trace in the log).
    const code = (error as NodeJS.ErrnoException).code;
    if (
      !(error instanceof HttpError) &&
      (this.#req.destroyed || code === 'ECONNRESET' || streamReset(this.#req))
    )
      return clientAborted();
    // The rest of the body is not read: close the connection after answering instead of draining it
    // (unless the answer came first: then the rest is drained, see stopBody).
    if (!this.#stopped) this.bodyRefused = true;
    return error;
  }
}

/**
 * An HTTP/2 request whose stream closed before the server answered: the client reset it (RST_STREAM),
 * node:http2 reset it (an END_STREAM short of the declared Content-Length), or the session went away.
 * node:http2's compatibility request then ends its readable side as if the body were whole, and its
 * `complete` reads true once the stream is closed, however it closed: neither tells a cut body from a
 * whole one. `aborted` does: node sets it (and emits 'aborted') when the stream closes with the server's
 * side still open, before it ends the request. A `for await` over the request hears that event and fails
 * with "Premature close"; a pipe does not, and ends its destination. Read once a body read is over, and
 * only for HTTP/2: an HTTP/1 request pays one comparison.
 *
 * A body the client ended (END_STREAM) is whole, even when a reset follows: node's own client ends the
 * stream before resetting it (`stream.close(code)` sends an empty DATA frame with END_STREAM, then
 * RST_STREAM), and node:http2 hands the end to the reader before it reads the reset, even from one
 * socket read; from another process the reset comes a turn of the event loop to tens of milliseconds
 * later. No wait short of a round trip would tell that client from one that cancels after a whole
 * request, so none is made: such a request is answered, and its answer dropped.
 */
function streamReset(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 2 && (req as unknown as Http2ServerRequest).aborted;
}

const EMPTY = new Uint8Array(0);

/** One bit per singleton field (there are fewer than 31), to find a repeated one in one pass. */
const SINGLETON_BITS = new Map([...SINGLETON_FIELDS.keys()].map((name, index) => [name, 1 << index]));
/** 1 at each name length worth a lookup: a singleton field's, or Transfer-Encoding's. */
const LOOKED_UP = new Uint8Array(32);
for (const name of [...SINGLETON_FIELDS.keys(), 'transfer-encoding']) LOOKED_UP[name.length] = 1;

/** What one pass over the raw header names finds: a protocol error, or whether a body follows. */
export const NO_BODY = 0;
export const BODY = 1;

/**
 * What RFC 9112 rejects and node's parser lets through, checked where it is cheap (one pass over the raw
 * header names): an error to answer before any routing, else {@link BODY} or {@link NO_BODY}.
 * - a request line without `HTTP/1.x` (node takes `GET /` as HTTP/0.9; `HTTP/2.0` over HTTP/1): 400 / 505;
 * - no `Host` in an HTTP/1.1 request, or more than one (§3.2: MUST be 400);
 * - any other field of {@link SINGLETON_FIELDS} repeated: node would keep the first silently, a proxy in
 *   front may keep another, so the request is refused (400) on both servers;
 * - `Transfer-Encoding` in an HTTP/1.0 request (§6.1);
 * - a `Transfer-Encoding` other than `chunked` (`gzip, chunked`): §6.1, a coding the server does not
 *   understand, 501.
 * RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding (or a Content-Length of 0)
 * has no body; then the stream is never touched (node drains what was not read when the response ends).
 * Node's parser refuses a repeated Content-Length, and trims header values, so the raw value is the one.
 */
export function inspect(req: IncomingMessage): HttpError | typeof BODY | typeof NO_BODY {
  // node:http2's compatibility request has its stream; `GET / HTTP/2.0` sent to an HTTP/1 parser does not
  // (llhttp reads the version as 2.0): that is refused below with 505.
  if (req.httpVersionMajor === 2 && 'stream' in req)
    return inspectHttp2(req as unknown as Http2ServerRequest);
  if (req.httpVersionMajor !== 1) {
    return req.httpVersionMajor === 0
      ? new HttpError(400, 'Request line without an HTTP version')
      : new HttpError(505, `HTTP/${req.httpVersion} is not supported on this connection`);
  }
  const raw = req.rawHeaders;
  let hosts = 0;
  let length: string | undefined;
  let chunked = false;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const size = name.length;
    // Only names as long as a singleton field's, or Transfer-Encoding's, are lower-cased and looked up.
    if (size >= LOOKED_UP.length || LOOKED_UP[size] === 0) continue;
    const lower = name.toLowerCase();
    const bit = SINGLETON_BITS.get(lower);
    if (bit !== undefined) {
      if ((seen & bit) !== 0) return new HttpError(400, repeatedFieldMessage(lower));
      seen |= bit;
      if (lower === 'host') hosts++;
      else if (lower === 'content-length') length = raw[i + 1];
    } else if (lower === 'transfer-encoding') {
      chunked = true;
    }
  }
  if (hosts === 0 && req.httpVersionMinor === 1) return new HttpError(400, 'Missing Host header');
  if (chunked) {
    // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing.
    if (req.httpVersionMinor === 0) return new HttpError(400, 'Transfer-Encoding in an HTTP/1.0 request');
    // node joins repeated Transfer-Encoding lines: `gzip` then `chunked` is `gzip, chunked`.
    const coding = req.headers['transfer-encoding'] as string;
    if (coding.trim().toLowerCase() !== 'chunked')
      return new HttpError(501, `Transfer-Encoding ${JSON.stringify(coding)} is not implemented`);
    return BODY;
  }
  return length !== undefined && length !== '0' ? BODY : NO_BODY;
}

/**
 * An HTTP/2 request (node:http2's compatibility API): node has already refused what HTTP/2 forbids
 * (connection-specific fields, Transfer-Encoding, a missing `:method` or `:path`); the authority comes in
 * `:authority` (or `Host`), and a request has a body unless its HEADERS frame ended the stream.
 */
function inspectHttp2(req: Http2ServerRequest): HttpError | typeof BODY | typeof NO_BODY {
  if (req.headers[':authority'] === undefined && req.headers.host === undefined)
    return new HttpError(400, 'Missing :authority');
  return req.stream.endAfterHeaders ? NO_BODY : BODY;
}

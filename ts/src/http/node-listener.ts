/**
 * The node:http request listener: `IncomingMessage` → {@link IncomingInput} → kernel → `ServerResponse`.
 * Mount it in any node:http (or https, http2-compat) server: `createServer(app.listener)`.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { clientAborted, readLimited } from './body-stream.js';
import {
  type Dispatch,
  type HeaderSource,
  headerPairs,
  type IncomingInput,
  type TransportLogger as Logger,
  type OutgoingResponse,
} from './dispatch.js';
import { errorBody, HttpError } from './errors.js';

export type { Dispatch } from './dispatch.js';

/**
 * One request as the kernel sees it, and its header source: node's own headers object (lower-case names,
 * repeated headers already joined by node), read in place. Node builds that object from `rawHeaders` on
 * first access, so it is touched only when a header is asked for: the checks below read `rawHeaders`.
 */
class NodeInput implements IncomingInput, HeaderSource {
  readonly method: string;
  readonly target: string;
  readonly ip: string;
  readonly hasBody: boolean;
  /** Set when the body was refused part-way (413, a bad chunk): the connection closes after the answer. */
  bodyRefused = false;
  readonly #req: IncomingMessage;
  #all: Map<string, string> | undefined;

  constructor(req: IncomingMessage, hasBody: boolean) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.target = req.url ?? '/';
    this.ip = req.socket.remoteAddress ?? '';
    this.hasBody = hasBody;
  }

  get headers(): HeaderSource {
    return this;
  }

  get(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  all(): Map<string, string> {
    if (this.#all === undefined) {
      this.#all = new Map();
      for (const name of Object.keys(this.#req.headers)) {
        const value = this.get(name);
        if (value !== undefined) this.#all.set(name, value);
      }
    }
    return this.#all;
  }

  async readBody(limit: number): Promise<Uint8Array> {
    const req = this.#req;
    try {
      return await readLimited(req, limit, req.headers['content-length']);
    } catch (error) {
      // The client went away mid-body: its fault, not the server's (no 500, no stack trace in the log).
      const code = (error as NodeJS.ErrnoException).code;
      if (!(error instanceof HttpError) && (req.destroyed || code === 'ECONNRESET')) throw clientAborted();
      // The rest of the body is not read: close the connection after answering instead of draining it.
      this.bodyRefused = true;
      throw error;
    }
  }
}

/** What one pass over the raw header names finds: a protocol error, or whether a body follows. */
const NO_BODY = 0;
const BODY = 1;

/**
 * What RFC 9112 rejects and node's parser lets through, checked where it is cheap (one pass over the raw
 * header names): an error to answer before any routing, else {@link BODY} or {@link NO_BODY}.
 * - a request line without `HTTP/1.x` (node takes `GET /` as HTTP/0.9; `HTTP/2.0` over HTTP/1): 400 / 505;
 * - no `Host` in an HTTP/1.1 request, or more than one (§3.2: MUST be 400);
 * - `Transfer-Encoding` in an HTTP/1.0 request (§6.1);
 * - a `Transfer-Encoding` other than `chunked` (`gzip, chunked`): §6.1, a coding the server does not
 *   understand, 501.
 * RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding (or a Content-Length of 0)
 * has no body; then the stream is never touched (node drains what was not read when the response ends).
 * Node's parser refuses a repeated Content-Length, and trims header values, so the raw value is the one.
 */
function inspect(req: IncomingMessage): HttpError | typeof BODY | typeof NO_BODY {
  if (req.httpVersionMajor !== 1) {
    return req.httpVersionMajor === 0
      ? new HttpError(400, 'Request line without an HTTP version')
      : new HttpError(505, `HTTP/${req.httpVersion} is not supported on this connection`);
  }
  const raw = req.rawHeaders;
  let hosts = 0;
  let length: string | undefined;
  let chunked = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const size = name.length;
    if (size === 4) {
      if (name.toLowerCase() === 'host') hosts++;
    } else if (size === 14) {
      if (length === undefined && name.toLowerCase() === 'content-length') length = raw[i + 1];
    } else if (size === 17 && name.toLowerCase() === 'transfer-encoding') {
      chunked = true;
    }
  }
  if (hosts > 1) return new HttpError(400, 'More than one Host header');
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

/** A request refused before routing: its JSON error, and the connection closes after it. */
export function refuse(res: ServerResponse, error: HttpError): void {
  const body = JSON.stringify(errorBody(error.status, error.message));
  res.writeHead(error.status, [
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
    'Connection',
    'close',
  ]);
  res.end(body);
}

export function createNodeListener(dispatch: Dispatch, logger: Logger): RequestListener {
  return (req, res) => {
    const inspected = inspect(req);
    if (inspected instanceof HttpError) {
      refuse(res, inspected);
      return;
    }
    const input = new NodeInput(req, inspected === BODY);
    let outcome: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      outcome = dispatch(input);
    } catch (error) {
      fail(res, error, logger);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (response) => write(res, response, input.bodyRefused, logger),
        (error: unknown) => fail(res, error, logger),
      );
    } else {
      write(res, outcome, input.bodyRefused, logger);
    }
  };
}

function write(res: ServerResponse, response: OutgoingResponse, closeAfter: boolean, logger: Logger): void {
  // Nobody is left to read it (the client aborted, or a protocol error already closed the connection).
  if (res.destroyed || res.socket?.destroyed === true || res.writableEnded) return;
  try {
    // One writeHead with a flat [name, value, …] list: node then skips its per-header map
    // (setHeader), a measurable share of a small response. A repeated header repeats its name.
    const flat = headerPairs(response);
    if (closeAfter) flat.push('Connection', 'close');
    res.writeHead(response.getStatus(), flat);
    const body = response.getBody();
    res.end(body ?? undefined);
  } catch (error) {
    fail(res, error, logger);
  }
}

/** Last resort (the kernel never throws, so this means a bug): a bare 500, and never a crashed process. */
function fail(res: ServerResponse, error: unknown, logger: Logger): void {
  logger.error(
    `could not write the response: ${error instanceof Error ? error.message : String(error)}`,
    error,
  );
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const body = '{"error":"Internal Server Error","code":500}';
  res.writeHead(500, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The node:http request listener: `IncomingMessage` → {@link IncomingInput} → kernel → `ServerResponse`.
 * Mount it in any node:http (or https, http2-compat) server: `createServer(app.listener)`.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { clientAborted, readLimited } from './body-stream.js';
import type {
  Dispatch,
  HeaderSource,
  IncomingInput,
  TransportLogger as Logger,
  OutgoingResponse,
} from './dispatch.js';
import { errorBody, HttpError } from './errors.js';

function hasBody(req: IncomingMessage): boolean {
  const { 'content-length': length, 'transfer-encoding': encoding } = req.headers;
  return encoding !== undefined || (length !== undefined && length !== '0');
}

export type { Dispatch } from './dispatch.js';

/** Node's own headers object (lower-case names, repeated headers already joined by node) as the
 * kernel's header source: read in place; the map of all headers is built only when asked for. */
class NodeHeaders implements HeaderSource {
  readonly #raw: IncomingHttpHeaders;
  #all: Map<string, string> | undefined;

  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }

  get(name: string): string | undefined {
    const value = this.#raw[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  all(): Map<string, string> {
    if (this.#all === undefined) {
      this.#all = new Map();
      for (const name of Object.keys(this.#raw)) {
        const value = this.get(name);
        if (value !== undefined) this.#all.set(name, value);
      }
    }
    return this.#all;
  }
}

/**
 * What RFC 9112 rejects and node's parser lets through, checked where it is cheap (one pass over the raw
 * header names): `null` when the request is fine, else the error to answer before any routing.
 * - a request line without `HTTP/1.x` (node takes `GET /` as HTTP/0.9; `HTTP/2.0` over HTTP/1): 400 / 505;
 * - more than one `Host` (§3.2: MUST be 400);
 * - a `Transfer-Encoding` other than `chunked` (`gzip, chunked`): §6.1, a coding the server does not
 *   understand, 501.
 */
function protocolError(req: IncomingMessage): HttpError | null {
  if (req.httpVersionMajor !== 1) {
    return req.httpVersionMajor === 0
      ? new HttpError(400, 'Request line without an HTTP version')
      : new HttpError(505, `HTTP/${req.httpVersion} is not supported on this connection`);
  }
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return new HttpError(400, 'More than one Host header');
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked')
    return new HttpError(501, `Transfer-Encoding ${JSON.stringify(coding)} is not implemented`);
  return null;
}

export function createNodeListener(dispatch: Dispatch, logger: Logger): RequestListener {
  return (req, res) => {
    const refused = protocolError(req);
    if (refused !== null) {
      const body = JSON.stringify(errorBody(refused.status, refused.message));
      res.writeHead(refused.status, [
        'Content-Type',
        'application/json; charset=utf-8',
        'Content-Length',
        String(Buffer.byteLength(body)),
        'Connection',
        'close',
      ]);
      res.end(body);
      return;
    }
    let bodyRefused = false;
    const input: IncomingInput = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      headers: new NodeHeaders(req.headers),
      ip: req.socket.remoteAddress ?? '',
      // RFC 9112 §6.3: a request with neither Content-Length nor Transfer-Encoding has no body; then the
      // stream is never touched (node drains what was not read when the response ends).
      hasBody: hasBody(req),
      readBody: async (limit) => {
        try {
          return await readLimited(req, limit, req.headers['content-length']);
        } catch (error) {
          // The client went away mid-body: its fault, not the server's (no 500, no stack trace in the log).
          const code = (error as NodeJS.ErrnoException).code;
          if (!(error instanceof HttpError) && (req.destroyed || code === 'ECONNRESET'))
            throw clientAborted();
          // The rest of the body is not read: close the connection after answering instead of draining it.
          bodyRefused = true;
          throw error;
        }
      },
    };
    let outcome: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      outcome = dispatch(input);
    } catch (error) {
      fail(res, error, logger);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (response) => write(res, response, bodyRefused, logger),
        (error: unknown) => fail(res, error, logger),
      );
    } else {
      write(res, outcome, bodyRefused, logger);
    }
  };
}

function write(res: ServerResponse, response: OutgoingResponse, closeAfter: boolean, logger: Logger): void {
  // Nobody is left to read it (the client aborted, or a protocol error already closed the connection).
  if (res.destroyed || res.socket?.destroyed === true || res.writableEnded) return;
  try {
    // One writeHead with a flat [name, value, …] list: node then skips its per-header map
    // (setHeader), a measurable share of a small response. A repeated header repeats its name.
    const flat: string[] = [];
    for (const [name, value] of Object.entries(response.getHeaders())) {
      if (Array.isArray(value)) for (const item of value) flat.push(name, String(item));
      else flat.push(name, String(value));
    }
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

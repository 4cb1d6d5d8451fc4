/**
 * The node:http request listener: `IncomingMessage` → {@link IncomingInput} → kernel → `ServerResponse`.
 * Mount it in any node:http (or https, http2-compat) server: `createServer(app.listener)`.
 */
import type { RequestListener, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { pipeline } from 'node:stream';
import {
  type Answering,
  type Dispatch,
  headerPairs,
  type TransportLogger as Logger,
  type OutgoingResponse,
  settle,
} from './dispatch.js';
import { ARBOR_ERRORS, type ErrorShape, HttpError } from './errors.js';
import { BODY, inspect, NodeInput } from './node-input.js';
import { lingerAfterLast } from './node-socket.js';
import { crashAnswer, refusal } from './refusal.js';
import { StreamBody } from './response-stream.js';

export type { Dispatch } from './dispatch.js';

/**
 * How long a connection closed after a refusal reads and drops what its client still sends before it is
 * cut (see node-socket.ts's `closeLingering`), unless told: node:http's default keep-alive timeout, and
 * the server's own `keepAliveTimeout` when Arbor starts it.
 */
const DEFAULT_LINGER_MS = 5_000;

/**
 * A request refused before routing: its JSON error, and the connection closes after it (HTTP/1.x), what
 * the client still sends read and dropped for `lingerMs`.
 */
export function refuse(
  res: ServerResponse,
  error: HttpError,
  errors: ErrorShape = ARBOR_ERRORS,
  lingerMs = DEFAULT_LINGER_MS,
): void {
  send(res, refusal(error, errors), lingerMs, null);
}

/** Fields HTTP/2 forbids in a response (RFC 9113 §8.2.2): node:http2 throws on them. */
const CONNECTION_FIELDS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** `flat` without the connection-specific fields, for an HTTP/2 response. */
function http2Fields(flat: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    if (!CONNECTION_FIELDS.has(name.toLowerCase())) kept.push(name, flat[i + 1] as string);
  }
  return kept;
}

/**
 * A request listener for node:http, node:https and node:http2's compatibility API alike: the two request
 * types answer the same questions (method, url, headers, rawHeaders, socket; writeHead, end).
 */
export type NodeRequestListener = RequestListener &
  ((req: Http2ServerRequest, res: Http2ServerResponse) => void);

/**
 * @param lingerMs How long a connection closed after a refused body (a 413, a bad chunk) goes on reading
 * and dropping what the client still sends, so that a client that writes its whole body before reading
 * gets the answer rather than a reset; then it is cut. The server's keep-alive timeout, as a rule.
 */
export function createNodeListener(
  dispatch: Dispatch,
  logger: Logger,
  errors: ErrorShape = ARBOR_ERRORS,
  lingerMs = DEFAULT_LINGER_MS,
): NodeRequestListener {
  const answering: Answering<ServerResponse, NodeInput> = {
    write(res, input, response) {
      // A body still arriving after its answer is decided: its reader stops, the rest is drained.
      if (input.bodyUnfinished) input.stopBody();
      send(res, response, input.bodyRefused ? lingerMs : null, logger);
    },
    fail: (res) => fail(res, errors),
    loggerOf: () => logger,
  };
  const listener: RequestListener = (req, res) => {
    const inspected = inspect(req);
    if (inspected instanceof HttpError) {
      refuse(res, inspected, errors, lingerMs);
      return;
    }
    settle(dispatch, new NodeInput(req, inspected === BODY, undefined, res), res, answering);
  };
  return listener as NodeRequestListener;
}

/**
 * Writes `response` (node frames it). `closeLingering`, on HTTP/1.x: `Connection: close`, and the
 * connection reads and drops what the client still sends for that many milliseconds after the answer
 * before it is cut (`null`: the connection stays open). Throws, having let go of a streamed body, when
 * the answer cannot be written.
 */
function send(
  res: ServerResponse,
  response: OutgoingResponse,
  closeLingering: number | null,
  logger: Logger | null,
): void {
  const body = response.getBody();
  // Nobody is left to read it (the client aborted, or a protocol error already closed the connection).
  if (res.destroyed || res.socket?.destroyed === true || res.writableEnded) {
    if (body instanceof StreamBody) body.discard();
    return;
  }
  try {
    // One writeHead with a flat [name, value, …] list: node then skips its per-header map
    // (setHeader), a measurable share of a small response. A repeated header repeats its name.
    let flat = headerPairs(response);
    if (res.req.httpVersionMajor === 2) flat = http2Fields(flat);
    else if (closeLingering !== null) {
      flat.push('Connection', 'close');
      lingerAfterLast(res.req, closeLingering);
    }
    res.writeHead(response.getStatus(), flat);
    if (body instanceof StreamBody) stream(res, body, logger);
    else res.end(body ?? undefined);
  } catch (error) {
    if (body instanceof StreamBody) body.discard();
    throw error;
  }
}

/**
 * Pipes a streamed body into the response: node frames it (chunked unless a Content-Length was set) and
 * reads the source only as fast as the client takes it. The client leaving destroys the source; the
 * source failing destroys the response, so the client sees a truncated message, and is logged once.
 */
function stream(res: ServerResponse, body: StreamBody, logger: Logger | null): void {
  if (body.live) {
    writeLive(res, body, logger);
    return;
  }
  pipeline(body.readable, res, (error) => {
    if (error === undefined || error === null || clientLeft(error)) return;
    logger?.error(`a streamed response failed midway: ${error.message}`, error);
  });
}

/**
 * A live body (an event stream) written chunk by chunk instead of piped, with the same backpressure (the
 * source pauses when `res.write` says the client is behind, resumes on `drain`): a pipe's bookkeeping on
 * both sides is a large share of what a long-lived, mostly idle connection holds, and an SSE server holds
 * thousands of them. The client leaving destroys the source; the source failing cuts the response.
 */
function writeLive(res: ServerResponse, body: StreamBody, logger: Logger | null): void {
  const source = body.readable;
  // node holds the head until the first chunk: an event stream's client waits for it to open.
  res.flushHeaders();
  const resume = () => source.resume();
  source.on('data', (chunk: string | Uint8Array) => {
    if (res.destroyed || res.writableEnded) return;
    if (!res.write(chunk)) source.pause();
  });
  res.on('drain', resume);
  source.once('end', () => {
    if (!res.destroyed && !res.writableEnded) res.end();
  });
  source.once('error', (error: NodeJS.ErrnoException) => {
    if (!clientLeft(error)) logger?.error(`a streamed response failed midway: ${error.message}`, error);
    res.destroy();
  });
  res.once('close', () => {
    res.off('drain', resume);
    if (!source.destroyed) source.destroy();
  });
}

/** The error a stream's pipe reports when the client went away (nothing failed on this side). */
function clientLeft(error: NodeJS.ErrnoException): boolean {
  const code = error.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** The bare 500 after a failure (see dispatch.ts's settle): in place of an answer not begun, else the connection is cut. */
function fail(res: ServerResponse, errors: ErrorShape): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  send(res, crashAnswer(errors), null, null);
}

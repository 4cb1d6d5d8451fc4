/**
 * The node:http request listener: `IncomingMessage` → {@link IncomingInput} → kernel → `ServerResponse`.
 * Mount it in any node:http (or https, http2-compat) server: `createServer(app.listener)`.
 */
import type { RequestListener, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { pipeline } from 'node:stream';
import {
  type Dispatch,
  headerPairs,
  type TransportLogger as Logger,
  type OutgoingResponse,
} from './dispatch.js';
import { errorBody, HttpError } from './errors.js';
import { BODY, inspect, NodeInput } from './node-input.js';
import { StreamBody } from './stream-body.js';

export type { Dispatch } from './dispatch.js';

/** A request refused before routing: its JSON error, and the connection closes after it. */
export function refuse(res: ServerResponse, error: HttpError): void {
  const body = JSON.stringify(errorBody(error.status, error.message));
  const fields = [
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(body)),
  ];
  // HTTP/2 has no Connection field (a refused stream ends alone; the connection carries others).
  if (res.req.httpVersionMajor !== 2) fields.push('Connection', 'close');
  res.writeHead(error.status, fields);
  res.end(body);
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

export function createNodeListener(dispatch: Dispatch, logger: Logger): NodeRequestListener {
  const listener: RequestListener = (req, res) => {
    const inspected = inspect(req);
    if (inspected instanceof HttpError) {
      refuse(res, inspected);
      return;
    }
    const input = new NodeInput(req, inspected === BODY, undefined, res);
    let outcome: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      outcome = dispatch(input);
    } catch (error) {
      fail(res, error, logger);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (response) => write(res, response, input, logger),
        (error: unknown) => fail(res, error, logger),
      );
    } else {
      write(res, outcome, input, logger);
    }
  };
  return listener as NodeRequestListener;
}

function write(res: ServerResponse, response: OutgoingResponse, input: NodeInput, logger: Logger): void {
  const body = response.getBody();
  // A body still arriving after its answer is decided: its reader stops, the rest is drained.
  if (input.bodyUnfinished) input.stopBody();
  const closeAfter = input.bodyRefused;
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
    else if (closeAfter) flat.push('Connection', 'close');
    res.writeHead(response.getStatus(), flat);
    if (body instanceof StreamBody) stream(res, body, logger);
    else res.end(body ?? undefined);
  } catch (error) {
    if (body instanceof StreamBody) body.discard();
    fail(res, error, logger);
  }
}

/**
 * Pipes a streamed body into the response: node frames it (chunked unless a Content-Length was set) and
 * reads the source only as fast as the client takes it. The client leaving destroys the source; the
 * source failing destroys the response, so the client sees a truncated message, and is logged once.
 */
function stream(res: ServerResponse, body: StreamBody, logger: Logger): void {
  // node holds the head until the first chunk: an event stream's client waits for it to open.
  if (body.live) res.flushHeaders();
  pipeline(body.readable, res, (error) => {
    if (error === undefined || error === null || clientLeft(error)) return;
    logger.error(`a streamed response failed midway: ${error.message}`, error);
  });
}

/** The error a stream's pipe reports when the client went away (nothing failed on this side). */
function clientLeft(error: NodeJS.ErrnoException): boolean {
  const code = error.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE';
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

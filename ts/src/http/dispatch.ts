/**
 * What a transport needs from whatever serves the requests: the one interface between the transports
 * (the node:http listener, the fetch adapter) and the application. A transport turns its request into an
 * {@link IncomingInput}, calls a {@link Dispatch}, and writes back the {@link OutgoingResponse}. The
 * application wires its kernel in; the transports import nothing of it.
 */
import type { Duplex } from 'node:stream';
import { validateHeaderName, validateHeaderValue } from './header-checks.js';
import type { StreamBody } from './response-stream.js';

/**
 * Request headers as a transport provides them: one by lower-case name, or all at once. The node adapter
 * answers from node's own headers object rather than copying every header into a `Map` per request,
 * which most handlers never read.
 */
export interface HeaderSource {
  /** A header by lower-case name; repeated headers joined with `, ` (`set-cookie` aside, as node does). */
  get(name: string): string | undefined;
  /** Every header, lower-case names. */
  all(): Map<string, string>;
}

/** A {@link HeaderSource} over a map of lower-case names. */
export function headersFromMap(map: Map<string, string>): HeaderSource {
  return { get: (name) => map.get(name), all: () => map };
}

/** A request as a transport hands it over. */
export interface IncomingInput {
  method: string;
  /** The request target as sent: `/path?query` (or an absolute URL). */
  target: string;
  headers: HeaderSource;
  ip: string;
  /** False when the request certainly has no body (no Content-Length or Transfer-Encoding, or a
   * Content-Length of 0): the pipeline then stays synchronous up to the handler. */
  hasBody: boolean;
  /**
   * Reads the whole body, failing with a 413 `HttpError` past `limit` bytes. A transport that already holds
   * all of it (Arbor's server, for a body that came with its head) returns the bytes themselves: the kernel
   * then parses them and calls the handler in the same turn, with no promise between them.
   */
  readBody(limit: number): Uint8Array | Promise<Uint8Array>;
  /**
   * The body's chunks as they arrive, read only as fast as they are taken (an upload streamed to disk),
   * failing with a 413 `HttpError` past `limit` bytes. Read the body one way or the other, once.
   */
  openBody?(limit: number): AsyncIterable<Uint8Array>;
  /**
   * Present when the request asks to switch protocols (`Connection: upgrade` with an `Upgrade` field, e.g.
   * a WebSocket handshake) on a transport that can hand its connection over. Whoever serves the request
   * may take it (`upgrade.take()`); if nobody does, the transport writes the answer and then closes
   * the connection (the bytes after such a request are never read as HTTP: they may be the new protocol).
   */
  upgrade?: UpgradeChannel | undefined;
  /**
   * Calls `listener` once if the client goes away before its answer is written in full (a streamed answer
   * included). Transports that cannot tell leave it out.
   */
  onAbort?(listener: () => void): void;
  /** What a fetch-based runtime hands over besides the request (Workers' `env` and `waitUntil`). */
  platform?: Platform | undefined;
}

/** A fetch-based runtime's bindings and execution context, as `req.bindings` and `req.waitUntil` give them. */
export interface Platform {
  env?: unknown;
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** A connection that may leave HTTP for the protocol its request asked for. */
export interface UpgradeChannel {
  /** The `Upgrade` field as sent (e.g. `websocket`). */
  readonly protocol: string;
  /** Whether {@link take} was called. */
  readonly taken: boolean;
  /**
   * Hands the connection over: the transport stops reading, timing and writing it, and writes nothing for
   * this request (the taker answers, e.g. `101 Switching Protocols`). `head` is what the client sent after
   * the request head (the new protocol's first bytes). Throws when called twice.
   */
  take(): { socket: Duplex; head: Buffer };
}

/** The answer a transport writes back (the application's `Response` is one). */
export interface OutgoingResponse {
  /** The status code to write. */
  getStatus(): number;
  /** The headers to write, by name; a repeated header as an array. */
  getHeaders(): Record<string, string | readonly string[]>;
  /** The headers as a flat `[name, value, …]` list (a repeated header repeats its name), when the
   * response can give them so without building the record of {@link getHeaders}. */
  headerList?(): string[];
  /** A string or bytes, written whole; a {@link StreamBody}, written as it is produced; or none. */
  getBody(): string | Uint8Array | StreamBody | null;
}

/**
 * The response's header fields as a flat `[name, value, …]` list: its own {@link OutgoingResponse.headerList},
 * else built from `getHeaders()`, each name and value checked as node:http checks them (an answer that is
 * not the application's `Response` has not been through its checks, and a CR or LF would split the head).
 */
export function headerPairs(response: OutgoingResponse): string[] {
  const own = response.headerList?.();
  if (own !== undefined) return own;
  const flat: string[] = [];
  for (const [name, value] of Object.entries(response.getHeaders())) {
    validateHeaderName(name);
    for (const item of Array.isArray(value) ? value : [value]) {
      validateHeaderValue(name, item);
      flat.push(name, String(item));
    }
  }
  return flat;
}

/** Serves one request; never throws (a rejection or a throw is a bug, answered with a bare 500). */
export type Dispatch = (input: IncomingInput) => OutgoingResponse | Promise<OutgoingResponse>;

/** Where a transport reports what it could not write. */
export interface TransportLogger {
  error(message: string, error?: unknown): void;
}

/**
 * What happens once a request is dispatched: the one place that decides it for every transport (node:http's
 * listener, its detached CONNECT/upgrade requests, Arbor's own connection), as Fastify's `wrap-thenable`
 * does for its handlers. The answer may come now or later; either way the transport's `write` gets it. A
 * throw or a rejection — a bug, since the kernel never throws — and an answer `write` cannot write are
 * logged once, with the same words on every transport, and the transport's `fail` writes the bare 500.
 *
 * The transport's part is an object of functions made once per transport, and what they write to
 * (`target`: a node response, a socket, a connection) is passed along: a request allocates nothing here
 * unless its answer comes later.
 */
/** How a transport writes answers: what differs between transports, and only that. */
export interface Answering<Target, Input extends IncomingInput> {
  /**
   * Writes the application's answer to `input`; `later` when it came after `dispatch` returned (a
   * promise). May throw for an answer that cannot be written (checked before its first byte goes out).
   */
  write(target: Target, input: Input, response: OutgoingResponse, later: boolean): void;
  /**
   * Writes the bare 500 (refusal.ts's `crashAnswer`) as the connection's last, or cuts the connection if
   * an answer began.
   */
  fail(target: Target): void;
  /** Where a failure is logged. */
  loggerOf(target: Target): TransportLogger;
}

/** Dispatches `input` and hands the answer to `answering`; never throws. */
export function settle<Target, Input extends IncomingInput>(
  dispatch: Dispatch,
  input: Input,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  let outcome: OutgoingResponse | Promise<OutgoingResponse>;
  try {
    outcome = dispatch(input);
  } catch (error) {
    crashed(error, target, answering);
    return;
  }
  if (outcome instanceof Promise)
    outcome.then(
      (response) => deliver(response, true, input, target, answering),
      (error: unknown) => crashed(error, target, answering),
    );
  else deliver(outcome, false, input, target, answering);
}

function deliver<Target, Input extends IncomingInput>(
  response: OutgoingResponse,
  later: boolean,
  input: Input,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  try {
    answering.write(target, input, response, later);
  } catch (error) {
    crashed(error, target, answering);
  }
}

function crashed<Target, Input extends IncomingInput>(
  error: unknown,
  target: Target,
  answering: Answering<Target, Input>,
): void {
  answering
    .loggerOf(target)
    .error(`could not write the response: ${error instanceof Error ? error.message : String(error)}`, error);
  answering.fail(target);
}

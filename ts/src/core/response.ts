/**
 * The response a handler builds and returns. Mutable and chainable (`res.status(201).json(task)`), except
 * {@link Response.withHeader}, which returns a copy the way PSR-7's `withHeader` does, so middleware can
 * decorate a response without touching the handler's object.
 */

import { encodeUrl } from 'encodeurl';
import { type CookieOptions, type CookieSigner, setCookieLine } from '../helpers/cookies.js';
import type { ServerSentEvent } from '../helpers/sse.js';
import { pushedEvents, type SseProducer } from '../helpers/sse-push.js';
import { EventStream, type SseOptions } from '../helpers/sse-stream.js';
import { type SendFileOptions, sendFileInto } from '../helpers/static-files.js';
import { validateHeaderName, validateHeaderValue } from '../http/header-checks.js';
import { isStreamSource, StreamBody, type StreamSource } from '../http/response-stream.js';
import { HeaderError } from './errors.js';

export type { ServerSentEvent } from '../helpers/sse.js';
export type { SseOptions } from '../helpers/sse-stream.js';
export { StreamBody, type StreamSource } from '../http/response-stream.js';
/** What `res.header()` takes: a string, a number, or several values (a repeated header, `Set-Cookie`). */
export type HeaderValue = string | number | readonly string[];
/** A body held whole (a string, bytes), one produced over time ({@link StreamBody}), or none. */
export type ResponseBody = string | Uint8Array | StreamBody | null;

const JSON_TYPE = 'application/json; charset=utf-8';

/** What a response may ask of the request it answers (files answer its conditional and range fields). */
export interface RequestView {
  /** The request method, upper case. */
  getMethod(): string;
  /** The request header `name` (any case), or `undefined`. */
  header(name: string): string | undefined;
  /** The application's cookie signer, when it has secrets. */
  readonly cookieSigner?: CookieSigner | null;
}

interface HeaderEntry {
  /** The name as the handler spelled it (sent as is; HTTP/1.1 names are case-insensitive). */
  name: string;
  values: string[];
}

/**
 * @example
 * app.post('/tasks', (req, res) => res.status(201).header('Location', '/tasks/1').json({ id: 1 }));
 */
export class Response {
  #status = 200;
  #headers = new Map<string, HeaderEntry>();
  #body: ResponseBody = null;
  /** The request this answers, when the kernel made it (a response built by hand answers none). */
  readonly #request: RequestView | null;

  /** @param request The request it answers: the kernel passes it; a response built by hand has none. */
  constructor(request: RequestView | null = null) {
    this.#request = request;
  }

  /** @internal The request this answers, when known. */
  get request(): RequestView | null {
    return this.#request;
  }

  /** Sets the status code (an integer from 100 to 599). Chainable. */
  status(code: number): this {
    if (!Number.isInteger(code) || code < 100 || code > 599) {
      throw new RangeError(`invalid HTTP status ${String(code)}: expected an integer from 100 to 599`);
    }
    this.#status = code;
    return this;
  }

  /** The status code (200 unless set). */
  getStatus(): number {
    return this.#status;
  }

  /** Sets a header, replacing any previous value. Throws a {@link HeaderError} on an invalid name or value. */
  header(name: string, value: HeaderValue): this {
    const values = normaliseValues(name, value);
    this.#headers.set(name.toLowerCase(), { name, values });
    return this;
  }

  /**
   * @internal Sets a header the framework writes itself (`Content-Type` of `json()`, `Content-Length`):
   * `key` is the lower-case `name`, and both are known to be valid, so node's validators are skipped.
   */
  setKnownHeader(key: string, name: string, value: string): this {
    this.#headers.set(key, { name, values: [value] });
    return this;
  }

  /** @internal Removes a header by its lower-case `key` (the framework's own framing fields). */
  dropKnownHeader(key: string): this {
    this.#headers.delete(key);
    return this;
  }

  /** Adds a value to a header (several `Set-Cookie` lines, say). */
  appendHeader(name: string, value: HeaderValue): this {
    const values = normaliseValues(name, value);
    const entry = this.#headers.get(name.toLowerCase());
    if (entry === undefined) this.#headers.set(name.toLowerCase(), { name, values });
    else entry.values.push(...values);
    return this;
  }

  /**
   * Returns a copy carrying the header; this response is left unchanged.
   *
   * @example
   * app.middleware(async (req, next) => (await next.handle(req)).withHeader('X-Powered-By', 'Arbor'));
   */
  withHeader(name: string, value: HeaderValue): Response {
    return this.clone().header(name, value);
  }

  /** Removes the header `name` (any case), if set. */
  removeHeader(name: string): this {
    this.#headers.delete(name.toLowerCase());
    return this;
  }

  /** The header's values joined with `, `, or `undefined`. Case-insensitive. */
  getHeader(name: string): string | undefined {
    return this.#headers.get(name.toLowerCase())?.values.join(', ');
  }

  /** Whether the header `name` (any case) is set. */
  hasHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }

  /** Every header, keyed by the name as set; repeated headers as arrays. */
  getHeaders(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const { name, values } of this.#headers.values())
      out[name] = values.length === 1 ? (values[0] ?? '') : [...values];
    return out;
  }

  /**
   * @internal Every header as a flat `[name, value, …]` list, the form node's `writeHead` takes without
   * building a header map: a repeated header repeats its name. The names and values of {@link getHeaders},
   * in the order they were first set.
   */
  headerList(): string[] {
    const flat: string[] = [];
    for (const { name, values } of this.#headers.values()) {
      for (let i = 0; i < values.length; i++) flat.push(name, values[i] as string);
    }
    return flat;
  }

  /**
   * Sets a cookie: one `Set-Cookie` line, written with the `cookie` package. Defaults: `Path=/`,
   * `HttpOnly`, `SameSite=Lax`. `{ signed: true }` signs the value with the application's first secret
   * (read it back with `req.signedCookie(name)`). An invalid name, `SameSite=None` without `secure`, or a
   * signed cookie without secrets is a `TypeError` here.
   *
   * @example res.cookie('session', id, { signed: true, secure: true, maxAge: 3600 })
   */
  cookie(name: string, value: string, options: CookieOptions = {}): this {
    let sent = value;
    if (options.signed === true) {
      const signer = this.#request?.cookieSigner ?? null;
      if (signer === null)
        throw new TypeError(
          `res.cookie(${JSON.stringify(name)}, …, { signed: true }): the application has no cookie secrets (new Application({ cookies: { secrets: [...] } })), or this response was built by hand`,
        );
      sent = signer.sign(name, value);
    }
    return this.appendHeader('Set-Cookie', setCookieLine(name, sent, options));
  }

  /** Tells the client to delete a cookie: pass the `path` and `domain` it was set with (default `Path=/`). */
  clearCookie(
    name: string,
    options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite' | 'partitioned'> = {},
  ): this {
    return this.appendHeader(
      'Set-Cookie',
      setCookieLine(name, '', { ...options, expires: new Date(0), maxAge: 0 }),
    );
  }

  /** Sends `data` as JSON (`application/json; charset=utf-8`). `undefined` is sent as `null`. */
  json(data: unknown): this {
    this.#setBody(JSON.stringify(data) ?? 'null');
    return this.setKnownHeader('content-type', 'Content-Type', JSON_TYPE);
  }

  /**
   * Sends a body, or an empty one without an argument. Text defaults to `text/plain; charset=utf-8`, bytes
   * and streams to `application/octet-stream`, unless a `Content-Type` was set before.
   *
   * A stream (a Node `Readable`, a web `ReadableStream`, or an `AsyncIterable` of strings and bytes) is
   * sent as it is produced: chunked on HTTP/1.1, unless a `Content-Length` was set before, which is then
   * the promise of its length. The client going away destroys it; an error in the middle cuts the
   * response short (the client sees a truncated message, never a second answer).
   *
   * Anything else (an object, a number) is a `TypeError` here, at the call, rather than a malformed
   * response later.
   *
   * @example
   * app.get('/export.csv', (req, res) => res.header('Content-Type', 'text/csv').send(rowsAsCsv()));
   */
  send(body?: string | Uint8Array | StreamSource): this {
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      this.#setBody(body ?? null);
    } else if (isStreamSource(body)) {
      this.#setBody(new StreamBody(body));
    } else {
      throw new TypeError(unsendable(body));
    }
    if (body !== undefined && !this.hasHeader('Content-Type')) {
      this.header(
        'Content-Type',
        typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
      );
    }
    return this;
  }

  /**
   * Answers with Server-Sent Events (`{ data, event?, id?, retry? }`; `data` that is not a string is sent
   * as JSON), a comment line as heartbeat while the stream is quiet. The events come from either
   * - an `AsyncIterable`, read one event at a time as the client takes them, its `return()` called when
   *   the client leaves; or
   * - a function, called at once with a handle whose `send(event)` sends whenever the handler likes (see
   *   `SseStream`): the stream ends when the function returns or its promise settles.
   *
   * A reconnecting client's `req.header('last-event-id')` says where to resume.
   *
   * @example
   * app.get('/ticks', (req, res) => res.sse(ticks(req.header('last-event-id'))));
   * app.get('/chat', (_req, res) =>
   *   res.sse(async (events) => {
   *     room.add(events); // the room calls events.send({ data: message }) for each message
   *     await events.closed;
   *     room.delete(events);
   *   }),
   * );
   */
  sse(source: AsyncIterable<ServerSentEvent> | SseProducer, options?: SseOptions): this {
    const events =
      typeof source === 'function' ? pushedEvents(source, options) : new EventStream(source, options);
    this.#setBody(new StreamBody(events, { live: true }));
    this.setKnownHeader('content-type', 'Content-Type', 'text/event-stream; charset=utf-8');
    this.setKnownHeader('cache-control', 'Cache-Control', 'no-cache');
    // nginx buffers a proxied answer unless told not to; events must arrive as they are sent.
    return this.setKnownHeader('x-accel-buffering', 'X-Accel-Buffering', 'no');
  }

  /**
   * Answers with a file, streamed: its type from its name, `ETag`, `Last-Modified`, and the request's
   * conditional fields (304, 412) and `Range` (206, 416) answered. `path` is a file-system path, not
   * percent-encoded; with `root` it is taken from that directory and cannot leave it (`..` is a 403),
   * without it it must be absolute. No file there (or a dotfile, unless `dotfiles: 'allow'`) is a 404
   * `HttpError`. A `Content-Type` or `Cache-Control` set before is kept. See docs/framework/files.md.
   *
   * @example
   * app.get('/invoices/:id', (req, res) => res.sendFile(`${req.param('id')}.pdf`, { root: 'var/invoices' }));
   */
  sendFile(path: string, options?: SendFileOptions): Promise<this> {
    return sendFileInto(this, this.#request, path, options);
  }

  /** Sends an HTML string (`text/html; charset=utf-8`). */
  html(markup: string): this {
    this.#setBody(markup);
    return this.header('Content-Type', 'text/html; charset=utf-8');
  }

  /**
   * Answers with a redirect (302 unless told). The target is percent-encoded as Express does (`encodeurl`):
   * characters a header cannot carry (`é`, U+2028, spaces) are encoded, escapes already there are kept.
   *
   * @example res.redirect('/search?q=café') // Location: /search?q=caf%C3%A9
   */
  redirect(location: string, status = 302): this {
    return this.status(status).header('Location', encodeUrl(location));
  }

  /** The body as set: a string, bytes, a {@link StreamBody}, or `null` for none. */
  getBody(): ResponseBody {
    return this.#body;
  }

  /** @internal Used by the kernel: HEAD and 204/304 answers carry no body (a stream is released). */
  dropBody(): void {
    this.#setBody(null);
  }

  /** A stream replaced by another body is released: nothing else will ever read it. */
  #setBody(body: ResponseBody): void {
    const previous = this.#body;
    if (previous instanceof StreamBody && previous !== body) previous.discard();
    this.#body = body;
  }

  /** A copy with the same status, headers and body, for the same request; changing one leaves the other alone. */
  clone(): Response {
    const copy = new Response(this.#request);
    copy.#status = this.#status;
    copy.#body = this.#body;
    for (const [key, entry] of this.#headers)
      copy.#headers.set(key, { name: entry.name, values: [...entry.values] });
    return copy;
  }
}

function normaliseValues(name: string, value: HeaderValue): string[] {
  try {
    validateHeaderName(name);
  } catch {
    throw new HeaderError(name, 'the name is not an HTTP token');
  }
  const values = typeof value === 'object' ? [...value] : [String(value)];
  for (const v of values) {
    try {
      validateHeaderValue(name, v);
    } catch {
      throw new HeaderError(
        name,
        `the value ${JSON.stringify(v)} contains a character not allowed in a header (CR, LF, NUL, …)`,
      );
    }
  }
  return values;
}

/** What `res.send()` says about a body it cannot send, and what to call instead. */
function unsendable(body: unknown): string {
  const what =
    body === null ? 'null' : typeof body === 'object' ? (body.constructor?.name ?? 'an object') : typeof body;
  return `res.send() takes a string, bytes or a stream, not ${what}: use res.json(value) for data, or String(value) for text`;
}

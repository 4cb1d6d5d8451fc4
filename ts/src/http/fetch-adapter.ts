/**
 * The fetch adapter: a web-standard `Request` in, a web-standard `Response` out — for runtimes built on
 * fetch, and for tests that skip the network. The same kernel serves both adapters.
 */

import { type Dispatch, headersFromMap, type IncomingInput } from './dispatch.js';
import { HttpError } from './errors.js';
import { clientAborted, limitedChunks, readLimited } from './request-body.js';
import { StreamBody } from './response-stream.js';

/**
 * What a fetch-style host knows about a request besides the `Request` itself, passed to the application's
 * fetch handler (the fetch API carries no client address).
 *
 * @example
 * Deno.serve((request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }));
 */
export interface FetchInfo {
  /**
   * The client address, for throttling and logs (the fetch API does not carry one). Without it `req.ip`
   * is `''`, and the `throttle` middleware's default key refuses to count (every client would share one
   * budget): pass it, or give `throttle` a `key`.
   */
  remoteAddress?: string | undefined;
  /** The runtime's bindings, as `req.bindings` (Workers' `env`). */
  env?: unknown;
  /** Keeps work alive after the answer, as `req.waitUntil` (Workers' `ctx.waitUntil`). */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * The execution context Cloudflare Workers pass as a fetch handler's third argument (the part Arbor uses).
 */
export interface ExecutionContext {
  /** Keeps the Worker running until `promise` settles, after the answer is sent. */
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The {@link FetchInfo} of a call: `app.fetch(request, info)`, or a Worker's `fetch(request, env, ctx)`
 * (`export default { fetch: app.fetch }`), whose `env` becomes `req.bindings`, whose `ctx.waitUntil`
 * becomes `req.waitUntil`, and whose client address is `CF-Connecting-IP`: Cloudflare's edge sets that
 * field on every request it hands a Worker, replacing any a client sent.
 */
export function fetchInfo(
  request: globalThis.Request,
  second: FetchInfo | object | undefined,
  ctx: ExecutionContext | undefined,
): FetchInfo {
  if (ctx === undefined || typeof ctx.waitUntil !== 'function') return (second ?? {}) as FetchInfo;
  return {
    env: second,
    waitUntil: (promise) => ctx.waitUntil(promise),
    remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined,
  };
}

export async function handleFetch(
  dispatch: Dispatch,
  request: globalThis.Request,
  info: FetchInfo = {},
): Promise<globalThis.Response> {
  const url = request.url;
  // Keep the target as serialised (no decoding): everything after the authority.
  const origin = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  const target = (origin === null ? url : url.slice(origin[0].length)) || '/';
  const headers = new Map<string, string>();
  request.headers.forEach((value, name) => {
    headers.set(name, value);
  });
  // A web Request carries its authority in its URL, not in a Host field (fetch forbids setting one): the
  // request as a server would have received it has one (same-origin checks, absolute URLs read it).
  const authority = origin?.[1];
  if (authority !== undefined && authority !== '' && !headers.has('host'))
    headers.set('host', authority.replace(/^[^@]*@/, ''));
  const incoming = request.body === null ? null : new CuttableBody(request.body);
  const input: IncomingInput = {
    method: request.method,
    target,
    headers: headersFromMap(headers),
    ip: info.remoteAddress ?? '',
    hasBody: incoming !== null,
    readBody: (limit) => readBody(request, incoming, limit),
    openBody: (limit) => openBody(request, incoming, limit),
    onAbort: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
    platform: info.env === undefined && info.waitUntil === undefined ? undefined : info,
  };
  const response = await dispatch(input);
  // Whoever still reads the body (an upload outlived by its answer) learns the rest will not come.
  incoming?.cut();
  const out = new Headers();
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, value as string);
  }
  const body = response.getBody();
  const status = response.getStatus();
  // `Response` refuses informational statuses; they have no meaning for a fetch caller anyway.
  const init: BodyInit | null = body instanceof StreamBody ? webStream(body) : (body as BodyInit | null);
  return new globalThis.Response(init, {
    status: status < 200 ? 500 : status,
    headers: out,
  });
}

async function* openBody(
  request: globalThis.Request,
  body: CuttableBody | null,
  limit: number,
): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  try {
    yield* limitedChunks(body.chunks(), limit, request.headers.get('content-length') ?? undefined);
  } catch (error) {
    if (!(error instanceof HttpError) && request.signal.aborted) throw clientAborted();
    throw error;
  }
}

async function readBody(
  request: globalThis.Request,
  body: CuttableBody | null,
  limit: number,
): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  try {
    return await readLimited(body.chunks(), limit, request.headers.get('content-length') ?? undefined);
  } catch (error) {
    if (!(error instanceof HttpError) && request.signal.aborted) throw clientAborted();
    throw error;
  }
}

/**
 * A request's body stream, read through a reader the adapter holds, so that it can be cancelled once the
 * answer is out even while a read is pending (a locked stream cannot be cancelled from outside). A read
 * cut so fails (499) rather than ending: a body cut short must never look complete.
 */
class CuttableBody {
  readonly #stream: ReadableStream<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #cut = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#stream = stream;
  }

  async *chunks(): AsyncGenerator<Uint8Array> {
    if (this.#cut) {
      this.#stream.cancel().catch(() => undefined);
      throw clientAborted();
    }
    const reader = this.#stream.getReader();
    this.#reader = reader;
    let done = false;
    try {
      for (;;) {
        const step = await reader.read();
        if (this.#cut) throw clientAborted();
        if (step.done) {
          done = true;
          return;
        }
        yield step.value;
      }
    } finally {
      // Left early (a limit, the reader stopped): the rest is not wanted.
      if (!done) reader.cancel().catch(() => undefined);
      this.#reader = null;
    }
  }

  cut(): void {
    this.#cut = true;
    const reader = this.#reader;
    // Read to its end, or never opened: nothing to cut (a body nobody asked for is the caller's).
    if (reader !== null) reader.cancel().catch(() => undefined);
  }
}

/**
 * A streamed body as a web `ReadableStream` of bytes: one chunk read per pull (backpressure), strings
 * encoded as UTF-8, and the source destroyed when the caller cancels (a server's client went away).
 */
function webStream(body: StreamBody): ReadableStream<Uint8Array> {
  const chunks = body.readable[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const step = await chunks.next();
        if (step.done === true) controller.close();
        else {
          const chunk = step.value as string | Uint8Array;
          controller.enqueue(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        }
      },
      cancel() {
        body.discard();
      },
    },
    { highWaterMark: 0 },
  );
}

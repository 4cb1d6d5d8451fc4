/**
 * The fetch adapter: a web-standard `Request` in, a web-standard `Response` out — for runtimes built on
 * fetch, and for tests that skip the network. The same kernel serves both adapters.
 */
import { clientAborted, limitedChunks, readLimited } from './body-stream.js';
import { type Dispatch, headersFromMap, type IncomingInput } from './dispatch.js';
import { HttpError } from './errors.js';
import { StreamBody } from './stream-body.js';

export interface FetchInfo {
  /**
   * The client address, for throttling and logs (the fetch API does not carry one). Without it `req.ip`
   * is `''`, and the `throttle` middleware's default key refuses to count (every client would share one
   * budget): pass it, or give `throttle` a `key`.
   */
  remoteAddress?: string;
}

export async function handleFetch(
  dispatch: Dispatch,
  request: globalThis.Request,
  info: FetchInfo = {},
): Promise<globalThis.Response> {
  const url = request.url;
  // Keep the target as serialised (no decoding): everything after the authority.
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  const headers = new Map<string, string>();
  request.headers.forEach((value, name) => {
    headers.set(name, value);
  });
  const input: IncomingInput = {
    method: request.method,
    target,
    headers: headersFromMap(headers),
    ip: info.remoteAddress ?? '',
    hasBody: request.body !== null,
    readBody: (limit) => readBody(request, limit),
    openBody: (limit) => openBody(request, limit),
    onAbort: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
  };
  const response = await dispatch(input);
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

async function* openBody(request: globalThis.Request, limit: number): AsyncGenerator<Uint8Array> {
  if (request.body === null) return;
  try {
    yield* limitedChunks(request.body, limit, request.headers.get('content-length') ?? undefined);
  } catch (error) {
    if (!(error instanceof HttpError) && request.signal.aborted) throw clientAborted();
    throw error;
  }
}

async function readBody(request: globalThis.Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  try {
    // A web ReadableStream is async-iterable in Node; leaving the loop early cancels it.
    return await readLimited(request.body, limit, request.headers.get('content-length') ?? undefined);
  } catch (error) {
    if (!(error instanceof HttpError) && request.signal.aborted) throw clientAborted();
    throw error;
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

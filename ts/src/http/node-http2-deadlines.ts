/**
 * `headersTimeout` and `requestTimeout` for HTTP/2 streams. node:http2 enforces neither: its only timer
 * on a session is an idle one, which traffic either way resets, so a client that sends a body byte every
 * few seconds holds a stream (and its handler) open for ever. (Its HTTP/1.1 fallback is node:http's own
 * connection handling and enforces both itself: see node-http2-server.ts.)
 *
 * As node:http does for its connections, one periodic check ({@link checkingInterval}) walks what is open:
 *
 * - A request whose client has not ended its side of the stream `requestTimeout` after the stream opened
 *   (counted from the head's arrival, where node:http counts from its first byte: the head's own time is
 *   the other limit's). node:http answers 408 when the response has not begun and closes the connection
 *   otherwise. On HTTP/2 the stream is what closes, not the session, which carries other requests: a 408
 *   is sent on it, then RST_STREAM with NO_ERROR ("stop sending; keep the answer", RFC 9113 §8.1); a
 *   stream whose response has begun is reset with CANCEL (the client sees the response cut short, as
 *   node:http's closed connection shows it). Either way the request's body read fails, as if the client
 *   had left: the handler never sees a body cut short as whole.
 * - A head still arriving `headersTimeout` after it began: HTTP/2 sends a head as one block of frames
 *   with nothing in between, so while one trickles in the whole session is stalled. node never hands a
 *   partial head to JavaScript, but nghttp2 notes the id of each stream whose head has begun
 *   (`session.state.lastProcStreamID`): an id beyond the last stream JavaScript was given is a head in
 *   progress. The session is closed (GOAWAY with NO_ERROR naming the last stream it took, so the client
 *   knows the pending one was never processed and may retry it, as a 408 tells an HTTP/1.1 client, then
 *   the connection is cut). A head node refused (too large, malformed) also stays "in progress" until the
 *   client starts another stream; node:http closes the connection after such a head too.
 *
 * A request is noticed up to one period late, a head up to two (the first check to see it starts its
 * clock); the period is a quarter of `headersTimeout`.
 */
import type { ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, Http2Session, ServerHttp2Stream } from 'node:http2';
import { checkingInterval } from './checking-interval.js';
import { ARBOR_ERRORS, type ErrorShape, HttpError } from './errors.js';
import { refuse } from './node-listener.js';

// HTTP/2's error codes (RFC 9113 §7), written out: importing node:http2 for its `constants` would load it
// in every application, and only those that serve HTTP/2 load it (node-http2-server.ts).
const NO_ERROR = 0x0;
const CANCEL = 0x8;

/** A session's heads: the last stream JavaScript was given, and a head seen in progress, since when. */
interface HeadWatch {
  given: number;
  pending: number;
  since: number;
}

/** An HTTP/2 request whose stream is open, and when its stream opened. */
interface RequestWatch {
  req: Http2ServerRequest;
  res: Http2ServerResponse;
  since: number;
}

/**
 * The two timeouts of one node:http2 server: it reports each session and each HTTP/2 request, and starts
 * and stops the check with its listening.
 *
 * @example
 * const deadlines = new Http2Deadlines({ headersTimeout: 60_000, requestTimeout: 300_000 });
 * server.on('session', (session) => deadlines.session(session));
 * server.on('listening', () => deadlines.start());
 */
export class Http2Deadlines {
  readonly #headersTimeout: number;
  readonly #requestTimeout: number;
  readonly #errors: ErrorShape;
  readonly #sessions = new Map<Http2Session, HeadWatch>();
  /** In the order the streams opened, which is the order their deadlines fall due (one timeout for all). */
  readonly #requests = new Map<ServerHttp2Stream, RequestWatch>();
  #timer: NodeJS.Timeout | null = null;

  constructor(limits: { headersTimeout: number; requestTimeout: number; errors?: ErrorShape | undefined }) {
    this.#headersTimeout = limits.headersTimeout;
    this.#requestTimeout = limits.requestTimeout;
    this.#errors = limits.errors ?? ARBOR_ERRORS;
  }

  /** Watches a new session's heads until it closes. */
  session(session: Http2Session): void {
    const watch: HeadWatch = { given: 0, pending: 0, since: 0 };
    this.#sessions.set(session, watch);
    session.on('stream', (stream: ServerHttp2Stream) => {
      if ((stream.id ?? 0) > watch.given) watch.given = stream.id ?? 0;
    });
    session.once('close', () => this.#sessions.delete(session));
  }

  /** Watches an HTTP/2 request until its stream closes. */
  request(req: Http2ServerRequest, res: Http2ServerResponse): void {
    const stream = req.stream;
    this.#requests.set(stream, { req, res, since: performance.now() });
    stream.once('close', () => this.#requests.delete(stream));
  }

  /** Starts the periodic check (the server is listening); it never keeps the process alive. */
  start(): void {
    this.#timer ??= setInterval(() => this.#check(), checkingInterval(this.#headersTimeout)).unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #check(): void {
    const now = performance.now();
    for (const [session, watch] of this.#sessions) {
      const begun = session.state.lastProcStreamID ?? 0;
      if (begun <= watch.given) watch.pending = 0;
      else if (watch.pending !== begun) {
        watch.pending = begun;
        watch.since = now;
      } else if (now - watch.since >= this.#headersTimeout) {
        session.goaway(NO_ERROR, watch.given);
        session.destroy();
      }
    }
    for (const [stream, watch] of this.#requests) {
      if (now - watch.since < this.#requestTimeout) break; // the later ones opened later
      this.#requests.delete(stream);
      // A request whose client has ended its side arrived whole: its answer may take as long as it takes.
      if (!stream.destroyed && stream.state.remoteClose !== 1) expire(stream, watch, this.#errors);
    }
  }
}

/** Ends a request that did not arrive in time (see the module's comment for why each step). */
function expire(stream: ServerHttp2Stream, { req, res }: RequestWatch, errors: ErrorShape): void {
  // Only the compatibility request is destroyed, not the stream: the read fails, the stream can answer.
  req.destroy();
  if (!res.headersSent) {
    try {
      refuse(res as unknown as ServerResponse, new HttpError(408), errors);
      // With NO_ERROR node sends the reset once the answer has been handed over, not before.
      stream.close(NO_ERROR);
      return;
    } catch {
      // The answer could not be written (the stream is going away as this runs): a reset is all there is.
    }
  }
  stream.close(res.writableEnded ? NO_ERROR : CANCEL);
}

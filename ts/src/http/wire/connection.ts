/**
 * One HTTP/1.1 connection: bytes in, requests parsed, dispatched one at a time, responses out in order.
 *
 * Pipelined requests are served one after the other: the next head is parsed only once the answer to the
 * one before is written, which keeps responses in request order without a queue, and bounds what a client
 * can make the server hold (the socket pauses when unread bytes pile up). A body is read only when the
 * handler asks (SPEC §5: after the middleware); a body still arriving when the answer is written is not
 * waited for: the connection closes after that answer instead.
 */
import type { Socket } from 'node:net';
import type { Dispatch, OutgoingResponse, TransportLogger } from '../dispatch.js';
import { errorBody, HttpError } from '../errors.js';
import { ChunkedBody, type IncomingBody, LengthBody } from './body.js';
import { bareLineBreak, Framing, parseHead, type RequestHead } from './head.js';
import { type BodyRequester, WireInput } from './input.js';
import { errorAnswer, type HttpDate, writeResponse } from './writer.js';

/** What every connection of one server shares. */
export interface WireSettings {
  dispatch: Dispatch;
  logger: TransportLogger;
  maxHeaderSize: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  date: HttpDate;
  /** The server is closing: each connection closes once it owes no answer. */
  closing: boolean;
}

const END_OF_HEAD = Buffer.from('\r\n\r\n');
/** Unread bytes a connection holds before it pauses the socket: pipelined requests, or a body nobody reads yet. */
const HIGH_WATER = 64 * 1024;

export class WireConnection implements BodyRequester {
  readonly socket: Socket;
  readonly #settings: WireSettings;
  readonly #ip: string;
  /** Bytes received and not yet parsed: the start of the next request(s). */
  #pending: Buffer | null = null;
  /** The request being served: dispatched, not yet answered. */
  #input: WireInput | null = null;
  /** The socket is ended or gone: nothing more is read or written. */
  #closed = false;
  #closedAt = 0;
  #paused = false;
  #waitingDrain = false;
  /** When the head now arriving began to (0: none is). */
  #headSince = 0;
  /** When the request being served began, if it has a body: the body's deadline counts from here. */
  #requestSince = 0;
  /** When the connection last owed nothing, and whether it has answered a request yet. */
  #idleSince: number;
  #answered = false;
  /** The peer has sent its last byte (half-close): what it sent is answered, then the connection closes. */
  #peerDone = false;

  constructor(socket: Socket, settings: WireSettings) {
    this.socket = socket;
    this.#settings = settings;
    this.#ip = socket.remoteAddress ?? '';
    this.#idleSince = Date.now();
    socket.on('data', (chunk: Buffer) => this.#received(chunk));
    // A reset or a write after the peer left: nothing to answer, and 'close' follows.
    socket.on('error', () => this.#gone());
    socket.on('close', () => this.#gone());
    socket.on('end', () => this.#peerEnded());
  }

  /** The server is closing: end the connection now if it owes nothing, else after its last answer. */
  closeWhenIdle(): void {
    if (this.#input === null && !this.#hasCompleteHead()) this.#end();
  }

  /**
   * The sweep (a few times a second): a head or a body that took too long gets a 408; an idle keep-alive
   * connection is closed; an ended one whose peer never closed its side is cut.
   */
  check(now: number): void {
    const settings = this.#settings;
    // An answer still flowing out to a slow reader is activity: neither idle nor abandoned.
    if (this.socket.writableLength > 0) {
      this.#idleSince = now;
      this.#closedAt = now;
      return;
    }
    if (this.#closed) {
      if (now - this.#closedAt > settings.keepAliveTimeout) this.socket.destroy();
      return;
    }
    const input = this.#input;
    if (input === null) {
      if (this.#headSince !== 0) {
        if (now - this.#headSince > settings.headersTimeout) this.#refuse(new HttpError(408));
      } else {
        const allowed = this.#answered ? settings.keepAliveTimeout : settings.headersTimeout;
        if (now - this.#idleSince > allowed) this.#end();
      }
    } else if (input.body?.complete === false && now - this.#requestSince > settings.requestTimeout) {
      // The handler reading the body answers it (a 408 through the kernel); the connection closes after.
      input.body.abort(new HttpError(408));
    }
  }

  /** The handler asked for the body: let it flow, and tell a client that waits for it (100-continue). */
  bodyWanted(input: WireInput): void {
    if (input !== this.#input || this.#closed) return;
    if (input.head.expectContinue && input.body?.complete === false && input.body.buffered === 0)
      this.socket.write('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
    this.#resume();
  }

  #received(chunk: Buffer): void {
    if (this.#closed) return;
    const body = this.#input?.body;
    if (body != null && !body.complete) {
      const used = body.feed(chunk, 0);
      if (used < chunk.byteLength) this.#append(chunk.subarray(used));
      this.#throttle();
      return;
    }
    this.#append(chunk);
    if (this.#input === null) this.#drive();
    else this.#throttle();
  }

  /** Serves every complete request received, in order, as long as each is answered at once. */
  #drive(): void {
    while (this.#input === null && !this.#closed && !this.#waitingDrain && this.#pending !== null) {
      const pending = this.#pending;
      // Empty lines before a request line are skipped (RFC 9112 §2.2).
      let start = 0;
      while (pending[start] === 0x0d && pending[start + 1] === 0x0a) start += 2;
      const end = pending.indexOf(END_OF_HEAD, start);
      const max = this.#settings.maxHeaderSize;
      if (end === -1 ? pending.byteLength - start > max : end - start > max) {
        this.#refuse(new HttpError(431));
        return;
      }
      if (end === -1) {
        // Lines ended by a bare LF or a bare CR (RFC 9112 §2.2 lets a server refuse them; node:http does):
        // refused now rather than waited for, since a blank CRLF line would never come.
        if (bareLineBreak(pending, start)) {
          this.#refuse(new HttpError(400, 'Line ended by a bare CR or LF'));
          return;
        }
        // A head the peer will never finish (it has half-closed): nothing to answer.
        if (this.#peerDone) {
          this.#end();
          return;
        }
        this.#pending = start < pending.byteLength ? pending.subarray(start) : null;
        if (this.#pending !== null && this.#headSince === 0) this.#headSince = Date.now();
        return;
      }
      const head = parseHead(pending.toString('latin1', start, end));
      this.#pending = end + 4 < pending.byteLength ? pending.subarray(end + 4) : null;
      this.#headSince = 0;
      if (head instanceof HttpError) {
        this.#refuse(head);
        return;
      }
      this.#serve(head);
    }
    this.#resume();
  }

  #serve(head: RequestHead): void {
    const body: IncomingBody | null =
      head.framing === Framing.None
        ? null
        : head.framing === Framing.Length
          ? new LengthBody(head.length)
          : new ChunkedBody();
    // Only a body has a deadline once the head is in (requestTimeout): no clock read for the others.
    if (body !== null) this.#requestSince = Date.now();
    const input = new WireInput(head, body, this.#ip, this);
    this.#input = input;
    const pending = this.#pending;
    if (body !== null && pending !== null) {
      const used = body.feed(pending, 0);
      this.#pending = used < pending.byteLength ? pending.subarray(used) : null;
    }
    let outcome: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      outcome = this.#settings.dispatch(input);
    } catch (error) {
      this.#crashed(error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (response) => {
          this.#answer(input, response);
          this.#drive();
        },
        (error: unknown) => this.#crashed(error),
      );
    } else {
      this.#answer(input, outcome);
    }
  }

  #answer(input: WireInput, response: OutgoingResponse): void {
    if (this.#closed || input !== this.#input) return;
    const body = input.body;
    const now = Date.now();
    const keepAlive =
      input.head.keepAlive &&
      // The rest of an unread body would have to be read to find the next request: close instead.
      (body === null || (body.complete && !body.failed)) &&
      // CONNECT asks for a tunnel; the answer is a refusal, and the connection is not reused for more.
      input.method !== 'CONNECT' &&
      // Closing (the server, or the peer's side): answer what was received, then close.
      !((this.#settings.closing || this.#peerDone) && !this.#hasCompleteHead());
    let close: boolean;
    try {
      close = writeResponse(this.socket, response, {
        keepAlive,
        head: input.method === 'HEAD',
        idleSeconds: Math.floor(this.#settings.keepAliveTimeout / 1000),
        date: this.#settings.date.at(now),
      });
    } catch (error) {
      this.#crashed(error);
      return;
    }
    this.#input = null;
    this.#answered = true;
    this.#idleSince = now;
    if (close) {
      this.#end();
      return;
    }
    if (this.socket.writableNeedDrain) {
      this.#waitingDrain = true;
      this.socket.once('drain', () => {
        this.#waitingDrain = false;
        this.#drive();
      });
    }
  }

  /** A protocol error: its JSON answer, then the connection closes (what follows cannot be trusted). */
  #refuse(error: HttpError): void {
    this.#writeLast(error.status, JSON.stringify(errorBody(error.status, error.message)));
  }

  /** The kernel threw or wrote something unwritable: a bug, answered with a bare 500, never a crash. */
  #crashed(error: unknown): void {
    this.#settings.logger.error(
      `could not write the response: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
    this.#writeLast(500, '{"error":"Internal Server Error","code":500}');
  }

  #writeLast(status: number, json: string): void {
    if (this.#closed) return;
    if (!this.socket.writable) {
      this.socket.destroy();
      return;
    }
    writeResponse(this.socket, errorAnswer(status, json), {
      keepAlive: false,
      head: false,
      idleSeconds: 0,
      date: this.#settings.date.at(Date.now()),
    });
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closedAt = Date.now();
    this.#pending = null;
    this.#input?.body?.abort();
    this.socket.end();
    // An ended socket is read to its end (and what arrives dropped), so the peer's FIN is seen and the
    // connection closes; a paused one would wait for the sweep.
    this.socket.resume();
  }

  #peerEnded(): void {
    this.#peerDone = true;
    const input = this.#input;
    if (input !== null) {
      // The client can still read the answer (it closed only its side): a body cut short is its error.
      if (input.body?.complete === false) input.body.abort(new HttpError(400, 'Request body ended early'));
    } else if (this.#hasCompleteHead()) this.#drive();
    else this.#end();
  }

  #gone(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.#closedAt = Date.now();
      this.#pending = null;
    }
    // A handler still waiting for the body learns the client left (499, not a server error).
    this.#input?.body?.abort();
  }

  #append(chunk: Buffer): void {
    const pending = this.#pending;
    this.#pending = pending === null ? chunk : Buffer.concat([pending, chunk]);
  }

  #hasCompleteHead(): boolean {
    return this.#pending !== null && this.#pending.indexOf(END_OF_HEAD) !== -1;
  }

  /** Pauses the socket while unread bytes pile up: pipelined requests, or a body no handler asked for. */
  #throttle(): void {
    if (this.#paused) return;
    const input = this.#input;
    const unread = input !== null && !input.reading ? (input.body?.buffered ?? 0) : 0;
    if ((this.#pending?.byteLength ?? 0) + unread > HIGH_WATER) {
      this.#paused = true;
      this.socket.pause();
    }
  }

  #resume(): void {
    if (this.#paused) {
      this.#paused = false;
      this.socket.resume();
    }
  }
}

/**
 * One HTTP/1.1 connection: bytes in, requests parsed, dispatched one at a time, responses out in order.
 *
 * Pipelined requests are served one after the other: the next head is parsed only once the answer to the
 * one before is written, which keeps responses in request order without a queue. What a client can make
 * the server hold is bounded both ways: unread bytes past {@link HIGH_WATER} pause the socket while a
 * request is served, and answers the client does not read past {@link OWED_LIMIT} stop the parsing (and
 * the reading) until they drain. A body is read only when the handler asks (after the
 * middleware); a body still arriving when the answer is written is not waited for: the connection closes
 * after that answer instead.
 *
 * Where the connection is lives in one field, {@link Phase}, changed only by `#enter`.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type Answering, type OutgoingResponse, settle, type TransportLogger } from '../dispatch.js';
import { HttpError } from '../errors.js';
import { crashAnswer, refusal } from '../refusal.js';
import { StreamBody } from '../response-stream.js';
import { parseHead, type RequestHead } from './head.js';
import { HeadScanner } from './head-scan.js';
import { type BodyRequester, requestFor, type WireInput } from './input.js';
import { OutputWatch } from './output-watch.js';
import { Phase } from './phase.js';
import { HIGH_WATER, OWED_LIMIT, type WireSettings } from './settings.js';
import { PumpEnd, pumpStream } from './stream-pump.js';
import { Overdue, overdue } from './sweep.js';
import { handOver } from './upgrade.js';
import { type WrittenHead, writeLast, writeResponse } from './writer.js';

export class WireConnection implements BodyRequester {
  readonly socket: Socket;
  readonly #settings: WireSettings;
  readonly #ip: string;
  readonly #peerPort: number | undefined;
  /** Called once the server no longer holds this connection: its socket closed, or it was handed over. */
  readonly #release: (connection: WireConnection) => void;
  #phase: Phase = Phase.Fresh;
  /** When the phase began (0 when its clock is not read: a request without a body). */
  #since: number;
  /** Bytes received and not yet taken: the head being read, and whatever follows it. */
  readonly #scanner = new HeadScanner();
  /** The request being served (phase Serving): dispatched, not yet answered. */
  #input: WireInput | null = null;
  /** The peer has sent its last byte (half-close): what it sent is answered, then the connection closes. */
  #peerEnded = false;
  /** The socket is paused by this connection. */
  #paused = false;
  /** Whether the answers owed are moving. */
  readonly #output: OutputWatch;
  /** The request whose streamed answer is being written (phase Streaming): told if the client leaves. */
  #streaming: WireInput | null = null;

  readonly #onData = (chunk: Buffer) => this.#received(chunk);
  readonly #onEnd = () => this.#peerEnd();
  // A reset or a write after the peer left: nothing to answer, and 'close' follows.
  readonly #onGone = () => this.#gone();
  readonly #onDrain = () => {
    if (this.#phase !== Phase.Blocked) return;
    this.#enter(Phase.Idle, Date.now());
    this.#drive();
  };

  constructor(socket: Socket, settings: WireSettings, release: (connection: WireConnection) => void) {
    this.socket = socket;
    this.#settings = settings;
    this.#release = release;
    this.#ip = socket.remoteAddress ?? '';
    this.#peerPort = socket.remotePort;
    this.#since = Date.now();
    this.#output = new OutputWatch(this.#since);
    socket.on('data', this.#onData);
    socket.on('error', this.#onGone);
    socket.on('close', this.#onGone);
    socket.on('end', this.#onEnd);
  }

  /** The server is closing: end the connection now if it owes nothing, else after its last answer. */
  closeWhenIdle(): void {
    const phase = this.#phase;
    if (phase === Phase.Serving || phase === Phase.Streaming || phase >= Phase.Closing) return;
    if (!this.#scanner.hasHead(this.#settings.maxHeaderSize)) this.#end();
  }

  /**
   * The sweep (a few times a second): a head or a body that took too long gets a 408; an idle keep-alive
   * connection is closed; an ended one whose peer never closed its side is cut; so is one whose answers
   * have not moved for `requestTimeout` (a client that stopped reading).
   */
  check(now: number): void {
    const settings = this.#settings;
    const phase = this.#phase;
    if (phase >= Phase.Closed) return;
    // A client has as long to take an answer as to send a request.
    if (this.#output.stalled(this.socket, now, settings.requestTimeout)) {
      this.socket.destroy();
      return;
    }
    // An answer still flowing out is activity: the idle clocks start once it is out.
    if (this.socket.writableLength > 0 && (phase === Phase.Idle || phase === Phase.Closing))
      this.#since = now;
    const body = this.#input?.body;
    switch (overdue(phase, now - this.#since, settings, body?.complete === false)) {
      case Overdue.End:
        this.#end();
        break;
      case Overdue.Refuse:
        this.#refuse(new HttpError(408));
        break;
      case Overdue.AbortBody:
        // The handler reading the body answers it (a 408 through the kernel); the connection closes after.
        body?.abort(new HttpError(408));
        break;
      case Overdue.Destroy:
        this.socket.destroy();
        break;
    }
  }

  /** The handler asked for the body: let it flow, and tell a client that waits for it (100-continue). */
  bodyWanted(input: WireInput): void {
    if (input !== this.#input || this.#phase !== Phase.Serving) return;
    if (input.head.expectContinue && !input.continued && input.body?.complete === false) {
      input.continued = true;
      if (input.body.buffered === 0) this.socket.write('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
    }
    this.#flow();
  }

  /** The one place the phase changes. */
  #enter(phase: Phase, now: number): void {
    this.#phase = phase;
    this.#since = now;
  }

  #received(chunk: Buffer): void {
    switch (this.#phase) {
      case Phase.Serving: {
        const body = this.#input?.body;
        if (body != null && !body.complete) {
          const used = body.feed(chunk, 0);
          if (used < chunk.byteLength) this.#scanner.push(chunk.subarray(used));
        } else this.#scanner.push(chunk);
        this.#flow();
        return;
      }
      case Phase.Blocked:
        // A packet read before the pause took hold: kept for when the answers drain.
        this.#scanner.push(chunk);
        return;
      case Phase.Streaming:
        // The next request, pipelined: read once the stream is out.
        this.#scanner.push(chunk);
        this.#flow();
        return;
      case Phase.Fresh:
      case Phase.Idle:
      case Phase.Head:
        this.#scanner.push(chunk);
        this.#drive();
        return;
      // Closing: read only to see the peer's FIN; what it sends is dropped.
    }
  }

  /** Serves every complete request received, in order, as long as each is answered at once. */
  #drive(): void {
    const scanner = this.#scanner;
    while (this.#phase <= Phase.Head) {
      if (this.socket.writableLength > OWED_LIMIT) {
        this.#enter(Phase.Blocked, Date.now());
        this.socket.once('drain', this.#onDrain);
        break;
      }
      const found = scanner.next(this.#settings.maxHeaderSize);
      if (found === null) {
        // A head the peer will never finish (it has half-closed), or nothing more to answer.
        if (this.#peerEnded) this.#end();
        else if (scanner.size > 0 && this.#phase !== Phase.Head) this.#enter(Phase.Head, Date.now());
        break;
      }
      if (found instanceof HttpError) {
        this.#refuse(found);
        return;
      }
      const head = parseHead(found.head.toString('latin1'));
      if (head instanceof HttpError) {
        this.#refuse(head);
        return;
      }
      this.#serve(head);
    }
    this.#flow();
  }

  #serve(head: RequestHead): void {
    const input = requestFor(head, this.#ip, this.#peerPort, this, () => this.#detach(input));
    const body = input.body;
    this.#input = input;
    // Only a body has a deadline once the head is in (requestTimeout): no clock read for the others.
    this.#enter(Phase.Serving, body === null ? 0 : Date.now());
    const scanner = this.#scanner;
    if (body !== null && scanner.size > 0) {
      const held = scanner.take();
      const used = body.feed(held, 0);
      if (used < held.byteLength) scanner.push(held.subarray(used));
    }
    settle(this.#settings.dispatch, input, this, ANSWERING);
  }

  /** The application's answer to `input` (dispatch.ts's settle hands it over); `later`: then go on with the next. */
  answer(input: WireInput, response: OutgoingResponse, later: boolean): void {
    this.#answer(input, response);
    if (later) this.#drive();
  }

  get logger(): TransportLogger {
    return this.#settings.logger;
  }

  /** The bare 500 after a failure, in the application's error shape. */
  crashAnswer(): OutgoingResponse {
    return crashAnswer(this.#settings.errors);
  }

  #answer(input: WireInput, response: OutgoingResponse): void {
    if (this.#phase !== Phase.Serving || input !== this.#input) return;
    const now = Date.now();
    const keepAlive =
      input.reusable &&
      // Closing (the server, or the peer's side): answer what was received, then close.
      !((this.#settings.closing || this.#peerEnded) && !this.#scanner.hasHead(this.#settings.maxHeaderSize));
    let written: WrittenHead;
    try {
      written = writeResponse(this.socket, response, {
        keepAlive,
        head: input.method === 'HEAD',
        idleSeconds: Math.floor(this.#settings.keepAliveTimeout / 1000),
        date: this.#settings.date.at(now),
        http11: input.head.minor === 1,
      });
    } catch (error) {
      const body = response.getBody();
      if (body instanceof StreamBody) body.discard();
      throw error;
    }
    this.#input = null;
    // A body still arriving is not waited for (the connection closes after this answer): whoever still
    // reads it, an upload outlived by its answer, learns now that the rest will not come.
    input.body?.abort();
    const body = response.getBody();
    if (written.framing !== null && body instanceof StreamBody) {
      this.#stream(input, body, written);
      return;
    }
    if (written.close) this.#end();
    else this.#enter(Phase.Idle, now);
  }

  /** Writes a streamed body, then goes on with the connection (or ends it) as its head said. */
  #stream(input: WireInput, body: StreamBody, written: WrittenHead): void {
    this.#enter(Phase.Streaming, 0);
    this.#streaming = input;
    const logger = this.#settings.logger;
    pumpStream(this.socket, body, written, (error) =>
      logger.error(`a streamed response failed midway: ${error.message}`, error),
    ).then((end) => {
      this.#streaming = null;
      if (this.#phase !== Phase.Streaming) return;
      if (end !== PumpEnd.Complete || written.close || this.#settings.closing) this.#end();
      else {
        this.#enter(Phase.Idle, Date.now());
        this.#drive();
      }
    });
  }

  /** A protocol error: its JSON answer, then the connection closes (what follows cannot be trusted). */
  #refuse(error: HttpError): void {
    this.writeLast(refusal(error, this.#settings.errors));
  }

  /** Writes `answer` (a refusal, or the bare 500 after a failure) as the connection's last. */
  writeLast(answer: OutgoingResponse): void {
    if (this.#phase >= Phase.Closing) return;
    if (!this.socket.writable) {
      this.socket.destroy();
      return;
    }
    writeLast(this.socket, answer, this.#settings.date.at(Date.now()));
    this.#end();
  }

  /** Ends our side: nothing more is parsed or written; the peer's FIN is awaited (or the sweep cuts it). */
  #end(): void {
    if (this.#phase >= Phase.Closing) return;
    this.#enter(Phase.Closing, Date.now());
    this.#scanner.take();
    this.#input?.body?.abort();
    this.#input = null;
    this.socket.end();
    this.#flow();
  }

  #peerEnd(): void {
    this.#peerEnded = true;
    switch (this.#phase) {
      case Phase.Serving: {
        // The client can still read the answer (it closed only its side): a body cut short is its error.
        const body = this.#input?.body;
        if (body?.complete === false) body.abort(new HttpError(400, 'Request body ended early'));
        // A client that half-closes is, as node:http sees it too, one that left: the handler is told
        // (`req.signal`), and the answer is still written should it come.
        this.#input?.clientLeft();
        break;
      }
      case Phase.Streaming:
        // As node:http does: a client that ends its side during a streamed answer has left. A quiet
        // source (an event stream between events) would otherwise hold the connection for ever.
        this.socket.destroy();
        break;
      case Phase.Fresh:
      case Phase.Idle:
      case Phase.Head:
        this.#drive();
        break;
    }
  }

  #gone(): void {
    if (this.#phase === Phase.Detached) return;
    // A handler still waiting for the body learns the client left (499, not a server error).
    this.#input?.body?.abort();
    // So does one still producing an answer (its `req.signal`).
    this.#input?.clientLeft();
    this.#streaming?.clientLeft();
    if (this.#phase !== Phase.Closed) {
      this.#enter(Phase.Closed, Date.now());
      this.#scanner.take();
      this.#release(this);
    }
  }

  /**
   * Hands the socket over (an upgrade), in the state node:http's `'upgrade'` event hands it: our
   * listeners gone, neither paused nor flowing (the taker's `'data'` listener starts it), and the bytes
   * received after the head given as `head`.
   */
  #detach(input: WireInput): { socket: Duplex; head: Buffer } {
    if (this.#phase !== Phase.Serving || input !== this.#input)
      throw new Error('The connection is no longer open for this request');
    this.#enter(Phase.Detached, 0);
    this.#input = null;
    const head = this.#scanner.size > 0 ? this.#scanner.take() : Buffer.alloc(0);
    this.#release(this);
    handOver(this.socket, { data: this.#onData, end: this.#onEnd, error: this.#onGone, close: this.#onGone });
    return { socket: this.socket, head };
  }

  /**
   * Pauses the socket while the connection must not read: answers owed past the limit, or unread bytes
   * piling up while a request is served (pipelined requests, or a body no handler asked for yet).
   */
  #flow(): void {
    let pause = false;
    if (this.#phase === Phase.Blocked) pause = true;
    else if (this.#phase === Phase.Serving || this.#phase === Phase.Streaming) {
      const input = this.#input;
      const unread = input !== null && !input.reading ? (input.body?.buffered ?? 0) : 0;
      pause = this.#scanner.size + unread > HIGH_WATER;
    }
    if (pause === this.#paused) return;
    this.#paused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }
}

/** How dispatch.ts's settle hands a connection its answers (one object for every connection). */
const ANSWERING: Answering<WireConnection, WireInput> = {
  write: (connection, input, response, later) => connection.answer(input, response, later),
  fail: (connection) => connection.writeLast(connection.crashAnswer()),
  loggerOf: (connection) => connection.logger,
};

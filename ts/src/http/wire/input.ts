/** A request read off the wire, as the kernel sees it: its head, its headers, and its body on demand. */
import type { Duplex } from 'node:stream';
import type { HeaderSource, IncomingInput, UpgradeChannel } from '../dispatch.js';
import { HandOverChannel } from '../upgrade-channel.js';
import { ChunkedBody, type IncomingBody, LengthBody } from './body.js';
import { Framing, type RequestHead } from './head.js';

const NO_BODY = new Uint8Array(0);
const EMPTY_STREAM: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };

/** What the input asks of its connection when the body is first wanted. */
export interface BodyRequester {
  bodyWanted(input: WireInput): void;
}

/**
 * The request `head` announces: its body framed as the head says, and its connection offered to whoever
 * serves it when it asks to upgrade (`hand` detaches it). The connection is offered only for a request
 * without a body (a WebSocket handshake is a GET): what follows the head is then the new protocol's.
 */
export function requestFor(
  head: RequestHead,
  ip: string,
  peerPort: number | undefined,
  connection: BodyRequester,
  hand: () => { socket: Duplex; head: Buffer },
): WireInput {
  const body: IncomingBody | null =
    head.framing === Framing.None
      ? null
      : head.framing === Framing.Length
        ? new LengthBody(head.length)
        : new ChunkedBody();
  const upgrade =
    head.upgrade !== undefined && head.minor === 1 && body === null
      ? new HandOverChannel(head.upgrade, hand)
      : undefined;
  return new WireInput(head, body, ip, connection, upgrade, peerPort);
}

export class WireInput implements IncomingInput, HeaderSource {
  readonly method: string;
  readonly target: string;
  readonly ip: string;
  /** The client's port, as the socket saw it (telemetry's `network.peer.port`). */
  readonly peerPort: number | undefined;
  readonly hasBody: boolean;
  readonly head: RequestHead;
  readonly body: IncomingBody | null;
  /** Present when the request asks to switch protocols and the connection can be handed over. */
  readonly upgrade: UpgradeChannel | undefined;
  /** A handler asked for the whole body: its bytes flow in, however many, up to the limit it gave. */
  reading = false;
  /** `100 Continue` was written for this request. */
  continued = false;
  readonly #connection: BodyRequester;
  #all: Map<string, string> | undefined;
  /** Who wants to know if the client leaves before the answer is out (`req.signal`). */
  #abortListeners: (() => void)[] | null = null;

  constructor(
    head: RequestHead,
    body: IncomingBody | null,
    ip: string,
    connection: BodyRequester,
    upgrade?: UpgradeChannel,
    peerPort?: number,
  ) {
    this.head = head;
    this.peerPort = peerPort;
    this.body = body;
    this.upgrade = upgrade;
    this.method = head.method;
    this.target = head.target;
    this.ip = ip;
    this.hasBody = body !== null;
    this.#connection = connection;
  }

  onAbort(listener: () => void): void {
    this.#abortListeners ??= [];
    this.#abortListeners.push(listener);
  }

  /** The connection closed before this request's answer was out in full. */
  clientLeft(): void {
    const listeners = this.#abortListeners;
    this.#abortListeners = null;
    if (listeners !== null) for (const listener of listeners) listener();
  }

  /** As far as this request goes, the connection may serve another after it. */
  get reusable(): boolean {
    const body = this.body;
    return (
      this.head.keepAlive &&
      // The rest of an unread body would have to be read to find the next request: close instead.
      (body === null || (body.complete && !body.failed)) &&
      // CONNECT asks for a tunnel; the answer is a refusal, and the connection is not reused for more.
      this.method !== 'CONNECT' &&
      // An upgrade nobody performed: what follows may be the other protocol, never read as HTTP.
      this.head.upgrade === undefined
    );
  }

  get headers(): HeaderSource {
    return this;
  }

  /** Repeated fields joined as node:http joins them: `; ` for `cookie`, `, ` otherwise. */
  get(name: string): string | undefined {
    const { names, values } = this.head;
    let found: string | undefined;
    for (let i = 0; i < names.length; i++) {
      if (names[i] !== name) continue;
      const value = values[i] as string;
      if (found === undefined) found = value;
      else found += (name === 'cookie' ? '; ' : ', ') + value;
    }
    return found;
  }

  all(): Map<string, string> {
    if (this.#all === undefined) {
      this.#all = new Map();
      for (const name of this.head.names) {
        if (!this.#all.has(name)) this.#all.set(name, this.get(name) as string);
      }
    }
    return this.#all;
  }

  openBody(limit: number): AsyncIterable<Uint8Array> {
    const body = this.body;
    if (body === null) return EMPTY_STREAM;
    // `reading` stays false: chunks not yet taken count as unread, so the socket pauses while the reader
    // is behind, and each chunk taken lets the connection read on.
    const declared = this.head.framing === Framing.Length ? this.head.length : undefined;
    const chunks = body.stream(limit, declared, () => this.#connection.bodyWanted(this));
    if (declared === undefined || declared <= limit) this.#connection.bodyWanted(this);
    return chunks;
  }

  readBody(limit: number): Uint8Array | Promise<Uint8Array> {
    const body = this.body;
    if (body === null) return NO_BODY;
    this.reading = true;
    const declared = this.head.framing === Framing.Length ? this.head.length : undefined;
    const reading = body.read(limit, declared);
    // A body refused by its declared length is not invited (no 100 Continue for a 413).
    if (declared === undefined || declared <= limit) this.#connection.bodyWanted(this);
    return reading;
  }
}

/**
 * Finds where a request head ends in the bytes a connection receives, however they are cut into packets.
 * Each byte is examined once: a packet is searched for the blank line (and for bare line breaks) when it
 * arrives, its boundary with the packet before by a small automaton, and the head's packets are joined
 * once, when the head is whole. A head trickled one byte per packet therefore costs linear time: no
 * re-joining and rescanning from its start on every packet.
 *
 * The scanner holds every byte received and not yet taken: the head being read, then whatever followed
 * it (a body, the next pipelined request, an upgraded protocol's first bytes).
 */
import { HttpError } from '../errors.js';

const CR = 0x0d;
const LF = 0x0a;
const END_OF_HEAD = Buffer.from('\r\n\r\n');

/** What {@link HeadScanner.next} found. */
export type Scan =
  /** The head, from the request line to its last field line (the blank line not included). */
  | { head: Buffer }
  /** Not whole yet: wait for more bytes. */
  | null
  /** Never a head: too long, or lines ended by a bare CR or LF. */
  | HttpError;

export class HeadScanner {
  /** Bytes held, in order: the head's first, then whatever has not been scanned yet. */
  #parts: Buffer[] = [];
  #bytes = 0;
  /** How many of {@link #parts} were searched (none held the end of the head). */
  #scannedParts = 0;
  /** Bytes of the head in the searched parts (empty lines before the request line left out). */
  #headBytes = 0;
  /** How much of `\r\n\r\n` the searched bytes end with (0–3). */
  #run = 0;
  /** The last byte searched (-1 at the start of a head): a CR waiting for its LF, an LF's CR. */
  #last = -1;
  /** The head has not started: empty lines (CRLF) before the request line are dropped. */
  #leading = true;
  /** Where the head ends, once found: the part and the offset of its blank line in it (maybe negative). */
  #end: { index: number; offset: number } | null = null;

  /** Bytes held: the head so far and whatever came after it. */
  get size(): number {
    return this.#bytes;
  }

  push(chunk: Buffer): void {
    if (chunk.byteLength === 0) return;
    this.#parts.push(chunk);
    this.#bytes += chunk.byteLength;
  }

  /** All the bytes held, taken out (for a body, or for whoever takes over the connection). */
  take(): Buffer {
    const all = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
    this.#reset([]);
    return all;
  }

  /**
   * The next head, if the bytes held complete one: the bytes after it stay held, unscanned. A head over
   * `max` bytes (request line to last field line) is refused, whole or not.
   */
  next(max: number): Scan {
    const found = this.#scan(max);
    if (found !== true) return found;
    return { head: this.#cut() };
  }

  /** Whether the bytes held complete a head (scanning what was not scanned yet, once). */
  hasHead(max: number): boolean {
    return this.#scan(max) === true;
  }

  /** Searches the parts not searched yet: true once the end of the head is found (in {@link #end}). */
  #scan(max: number): true | null | HttpError {
    const parts = this.#parts;
    while (this.#end === null && this.#scannedParts < parts.length) {
      const index = this.#scannedParts;
      let part = parts[index] as Buffer;
      if (this.#leading) {
        part = this.#skipEmptyLines(part);
        if (part.byteLength === 0) {
          parts.splice(index, 1);
          continue;
        }
        parts[index] = part;
      }
      const end = this.#findEnd(part);
      if (end !== null) {
        this.#end = { index, offset: end };
        break;
      }
      this.#headBytes += part.byteLength;
      if (this.#headBytes > max) return new HttpError(431);
      // A line ended by a bare LF or CR (RFC 9112 §2.2 lets a server refuse it; node:http does) is
      // refused now rather than waited for, since a blank CRLF line would never come.
      if (bareLineBreak(part, this.#last)) return new HttpError(400, 'Line ended by a bare CR or LF');
      this.#last = part[part.byteLength - 1] as number;
      this.#scannedParts++;
    }
    if (this.#end === null) return null;
    if (this.#headBytes + this.#end.offset > max) return new HttpError(431);
    return true;
  }

  /** Drops CRLF pairs before the request line (RFC 9112 §2.2), even when a pair spans two packets. */
  #skipEmptyLines(part: Buffer): Buffer {
    let at = 0;
    if (this.#last === CR) {
      this.#last = -1;
      if (part[0] !== LF) {
        // A CR without its LF: kept, so the bare-line-break check refuses it.
        this.#leading = false;
        this.#bytes += 1;
        return Buffer.concat([Buffer.of(CR), part]);
      }
      at = 1;
    }
    while (at + 1 < part.byteLength && part[at] === CR && part[at + 1] === LF) at += 2;
    if (at + 1 === part.byteLength && part[at] === CR) {
      // The CR of a pair whose LF is in the next packet: dropped now, its LF then.
      this.#last = CR;
      this.#bytes -= part.byteLength;
      return part.subarray(part.byteLength);
    }
    this.#bytes -= at;
    if (at < part.byteLength) this.#leading = false;
    return part.subarray(at);
  }

  /**
   * Where in `part` the head ends (its blank line starts: negative when it started in the parts before),
   * continuing a run from the part before; null when it does not end in it.
   */
  #findEnd(part: Buffer): number | null {
    // The blank line may begin in the part before: it then ends within this part's first three bytes.
    let run = this.#run;
    const edge = Math.min(3, part.byteLength);
    if (run > 0) {
      for (let i = 0; i < edge; i++) {
        run = step(run, part[i] as number);
        if (run === 4) return i - 3;
      }
    }
    const end = part.indexOf(END_OF_HEAD);
    if (end !== -1) return end;
    // How much of the blank line this part ends with: only its last three bytes matter.
    run = part.byteLength >= 3 ? 0 : this.#run;
    for (let i = part.byteLength - edge; i < part.byteLength; i++) run = step(run, part[i] as number);
    this.#run = run;
    return null;
  }

  /** Cuts the head found by {@link #scan} out (joined once), and keeps what follows it, unscanned. */
  #cut(): Buffer {
    const { index, offset } = this.#end as { index: number; offset: number };
    const parts = this.#parts;
    const part = parts[index] as Buffer;
    let head: Buffer;
    if (index === 0) head = part.subarray(0, offset);
    else if (offset >= 0) head = Buffer.concat([...parts.slice(0, index), part.subarray(0, offset)]);
    else {
      // The blank line started in the parts before: the head ends `-offset` bytes before this part.
      const joined = Buffer.concat(parts.slice(0, index));
      head = joined.subarray(0, joined.byteLength + offset);
    }
    const rest = parts.slice(index + 1);
    const after = part.subarray(offset + 4);
    if (after.byteLength > 0) rest.unshift(after);
    this.#reset(rest);
    return head;
  }

  #reset(parts: Buffer[]): void {
    this.#parts = parts;
    this.#bytes = 0;
    for (const part of parts) this.#bytes += part.byteLength;
    this.#scannedParts = 0;
    this.#headBytes = 0;
    this.#run = 0;
    this.#last = -1;
    this.#leading = true;
    this.#end = null;
  }
}

/** The automaton that matches `\r\n\r\n`: state = how much of it the bytes so far end with. */
function step(state: number, byte: number): number {
  if (byte === CR) return state === 2 ? 3 : 1;
  if (byte === LF) return state === 1 ? 2 : state === 3 ? 4 : 0;
  return 0;
}

/**
 * Whether `part` holds an LF without a CR before it, or a CR followed by anything but LF. `last` is the
 * byte before `part` (-1: none, the head starts here); a CR at the very end may yet get its LF.
 */
export function bareLineBreak(part: Buffer, last: number): boolean {
  if (last === CR && part[0] !== LF) return true;
  for (let at = part.indexOf(LF); at !== -1; at = part.indexOf(LF, at + 1)) {
    const before = at === 0 ? last : (part[at - 1] as number);
    if (before !== CR) return true;
  }
  for (let at = part.indexOf(CR); at !== -1 && at + 1 < part.byteLength; at = part.indexOf(CR, at + 1)) {
    if (part[at + 1] !== LF) return true;
  }
  return false;
}

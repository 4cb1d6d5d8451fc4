/**
 * A client that uploads the way browsers and curl do, in its own process (started with `--import tsx`,
 * so that a pause of the test process, where the server lives, never stalls its writing or its clocks):
 * it sends a request head and a body with its `Content-Length` (or chunked), and writes the body as fast
 * as the socket takes it, without reading anything until it has written the whole body.
 *
 * Arguments: `port path bytes [chunked]`; `bytes` may be `endless`: then the body announced is 1 TiB and
 * the client never stops writing, reading the answer as it comes, until the server cuts the connection.
 * `chunked`: no `Content-Length`, the body sent in chunks of 64 KiB, so that the server can refuse it only
 * once it has read past its limit.
 *
 * Prints one JSON line ({@link UploadOutcome}) and exits.
 */
import { connect } from 'node:net';

/** What the client saw. */
export interface UploadOutcome {
  /** The status of the answer, if a whole status line came (`null`: none came). */
  status: number | null;
  /** Body bytes written before the client stopped writing (all of them, or up to the cut). */
  written: number;
  /** The connection was reset (ECONNRESET, EPIPE) rather than closed. */
  reset: boolean;
  /** Milliseconds from the first byte of the answer to the end of the connection (`null`: no answer). */
  cutAfterMs: number | null;
}

const [port, path, bytes, framing] = process.argv.slice(2) as [string, string, string, string?];
const chunked = framing === 'chunked';
const endless = bytes === 'endless';
const total = endless ? 2 ** 40 : Number(bytes);
const CHUNK = Buffer.alloc(64 * 1024, 0x78);
/** One chunk of the chunked body: its size line, its data and its CRLF. */
const FRAMED = Buffer.concat([
  Buffer.from(`${CHUNK.byteLength.toString(16)}\r\n`),
  CHUNK,
  Buffer.from('\r\n'),
]);

// Half-open allowed: the server's end of its side (after its answer) does not stop the client writing.
const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
const received: Buffer[] = [];
let written = 0;
let reset = false;
let answeredAt: number | null = null;
let finished = false;
let giveUp: NodeJS.Timeout | undefined;

const receive = () =>
  socket.on('data', (chunk: Buffer) => {
    answeredAt ??= Date.now();
    received.push(chunk);
    // The uploader is done once its answer is whole; the endless one goes on until it is cut.
    if (!endless && answerIsWhole(Buffer.concat(received))) finish();
  });

/** A whole answer: its head, and as many body bytes as its Content-Length says. */
function answerIsWhole(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(bytes.subarray(0, headEnd).toString('latin1'))?.[1];
  return bytes.byteLength - (headEnd + 4) >= Number(length ?? 0);
}

const finish = () => {
  if (finished) return;
  finished = true;
  clearTimeout(giveUp);
  // What had come in while the client was not reading yet (if the server went away meanwhile).
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null)
    received.push(chunk);
  const text = Buffer.concat(received).toString('latin1');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text)?.[1];
  const outcome: UploadOutcome = {
    status: status === undefined ? null : Number(status),
    written,
    reset,
    cutAfterMs: answeredAt === null ? null : Date.now() - answeredAt,
  };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  socket.destroy();
};

/** Writes body chunks while the socket takes them; calls `done` once the whole body is written. */
const write = (done: () => void) => {
  while (written < total) {
    const size = Math.min(CHUNK.byteLength, total - written);
    written += size;
    const bytes = size < CHUNK.byteLength ? CHUNK.subarray(0, size) : chunked ? FRAMED : CHUNK;
    // A chunked body's last chunk is whole (the sizes used are multiples of 64 KiB): then its end.
    if (chunked && written === total) socket.write(bytes);
    if (!socket.write(chunked && written === total ? '0\r\n\r\n' : bytes)) {
      socket.once('drain', () => write(done));
      return;
    }
  }
  done();
};

socket.on('connect', () => {
  const framingField = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
  socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${framingField}\r\n\r\n`);
  // The endless client reads as it writes (it has to, to see its answer); the other reads only after.
  if (endless) receive();
  write(() => {
    receive();
    // An answer that never comes whole.
    giveUp = setTimeout(finish, 5000);
  });
});
socket.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
  else process.stderr.write(`${error.message}\n`);
});
socket.on('close', finish);
// The server ending its side is not the endless client's cue to stop sending; the other reads it only
// once it has written everything, and then the exchange is over.
socket.on('end', () => {
  if (!endless) finish();
});

/**
 * Raw HTTP over `node:net`, for inputs fetch refuses to send (malformed request lines, unknown methods,
 * bare CR/LF, absolute-form targets).
 */
import { connect } from 'node:net';

export interface RawReply {
  status: number;
  head: string;
  body: string;
  raw: string;
}

/**
 * Sends `payload` as is and reads until the server closes the connection (a reset after some bytes counts
 * as a close). Rejects when it has not closed within `timeoutMs`, with what had come so far in the message:
 * a server that should have closed and did not is a failure, not a partial answer.
 */
export function rawRequest(port: number, payload: string | Buffer, timeoutMs = 2000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const received = () => Buffer.concat(chunks).toString('latin1');
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      const got = received();
      reject(
        new Error(
          `rawRequest: the server did not close within ${timeoutMs} ms; received ${got.length} bytes: ${JSON.stringify(got.slice(0, 600))}`,
        ),
      );
    }, timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      if (chunks.length > 0) finish();
      else if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.on('close', finish);
    function finish() {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const raw = received();
      const split = raw.indexOf('\r\n\r\n');
      const head = split === -1 ? raw : raw.slice(0, split);
      const body = split === -1 ? '' : raw.slice(split + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
      resolve({ status, head, body, raw });
    }
  });
}

/** A `Connection: close` request line with headers, ready to send. */
export function rawGet(target: string, method = 'GET', extra = ''): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;
}

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

/** Sends `payload` as is and reads until the server closes (or `timeoutMs`, then ends the socket). */
export function rawRequest(port: number, payload: string | Buffer, timeoutMs = 2000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.end(), timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (chunks.length > 0) finish();
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      finish();
    });
    function finish() {
      const raw = Buffer.concat(chunks).toString('latin1');
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

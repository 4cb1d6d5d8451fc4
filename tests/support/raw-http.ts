/**
 * HTTP/1.1 over a bare socket, for what fetch and node:http hide: the exact bytes of a response (is
 * there a body after a HEAD or a 204?), targets fetch will not send (`OPTIONS *`), and a request whose
 * announced body is never sent (is an oversize body refused without being read?).
 *
 * Unlike tests/app/support/raw.ts it waits for the server to close the connection for up to 30 s
 * (a loaded machine can take seconds to answer), and rejects past that instead of returning a
 * half-read answer.
 *
 * @example
 * const reply = await exchange(port, 'HEAD /doc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
 * expect(reply.body.length).toBe(0);
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** The status line and headers, without the blank line. */
  head: string;
  /** Header values by lower-case name (the last one wins). */
  headers: Map<string, string>;
  /** Every byte after the blank line, until the server closed the connection. */
  body: Buffer;
}

/** Sends `payload`, keeps the sending side open, and reads until the server closes the connection. */
export function exchange(port: number, payload: string | Buffer, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`no complete answer within ${timeoutMs} ms; got ${Buffer.concat(chunks).length} bytes`),
      );
    }, timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk) => chunks.push(chunk));
    // A reset after the answer (the server closes while our unsent body is pending) still ends the read.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(
          new Error(`connection closed without a complete head: ${JSON.stringify(raw.toString('latin1'))}`),
        );
        return;
      }
      const head = raw.subarray(0, split).toString('latin1');
      const headers = new Map<string, string>();
      for (const line of head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, headers, body: raw.subarray(split + 4) });
    });
  });
}

/** A request with `Connection: close` (so the server ends the exchange), headers as given. */
export function request(
  method: string,
  target: string,
  headers: Record<string, string | number> = {},
): string {
  const lines = Object.entries({ Host: '127.0.0.1', Connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

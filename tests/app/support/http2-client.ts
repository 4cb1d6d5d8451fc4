/**
 * What the HTTP/2 suites share on the client side: a stream's whole answer through node:http2, a frame
 * written by hand (for what node's client cannot send: a reset without END_STREAM, a head trickled a few
 * bytes at a time), and a TLS socket that speaks HTTP/1.1 to an HTTP/2 server's fallback.
 */
import type { ClientHttp2Stream } from 'node:http2';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { testCertificate } from '../../support/tls-cert.js';

/** A stream's answer: its status and body, once it has ended. */
export function answerOf(stream: ClientHttp2Stream): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.on('data', (chunk: string) => {
      body += chunk;
    });
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', reject);
  });
}

/** An HTTP/2 frame: 9-byte header (length, type, flags, stream id), then the payload. */
export function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** A TLS connection to `port` that offers only HTTP/1.1 (ALPN), trusting the test certificate, once secure. */
export async function http11OverTls(port: number): Promise<TLSSocket> {
  const socket = tlsConnect({
    port,
    host: '127.0.0.1',
    ca: testCertificate().cert,
    servername: 'localhost',
    ALPNProtocols: ['http/1.1'],
  });
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  return socket;
}

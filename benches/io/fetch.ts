/** One whole answer over plain node:http, for the checks that run before anything is timed. */
import { createHash } from 'node:crypto';
import { get, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it arrived (still encoded when the server compressed it). */
  body: Buffer;
}

export function fetchAnswer(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.once('error', reject);
    });
    request.once('error', reject);
    request.setTimeout(60_000, () => request.destroy(new Error(`${url}: no answer after 60 s`)));
  });
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** `abcdef…` → its first 12 hex digits, enough to tell two hashes apart in a report. */
export const shortHash = (hash: string): string => hash.slice(0, 12);

/**
 * Conditional GET for handlers' answers (the `etag` setting): a weak ETag from the body's bytes, and a
 * 304 without the body when the client's `If-None-Match` (or `If-Modified-Since`, against a
 * `Last-Modified` the handler set) says it already holds this representation. Files get the same from
 * `res.sendFile()` and `serveStatic()`, which tag them from their stat instead of their bytes.
 */
import type * as Etag from 'etag';
import type fresh from 'fresh';
import { lazyPackage } from '../builtins.js';
import type { HeaderSource } from '../http/dispatch.js';
import type { Response } from './response.js';

const loadEtag = lazyPackage<typeof Etag>('etag');
const loadFresh = lazyPackage<typeof fresh>('fresh');

/**
 * Tags `res` and answers 304 when the request's validators match. Only a 200 to GET or HEAD with a body
 * held whole is tagged (a stream's bytes are not known in advance); an ETag the handler set is kept.
 */
export function conditionalGet(res: Response, method: string, headers: HeaderSource): Response {
  if (res.getStatus() !== 200 || (method !== 'GET' && method !== 'HEAD')) return res;
  const body = res.getBody();
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return res;
  let tag = res.getHeader('ETag');
  if (tag === undefined) {
    tag = loadEtag().etag(body, { weak: true });
    res.setKnownHeader('etag', 'ETag', tag);
  }
  const noneMatch = headers.get('if-none-match');
  const modifiedSince = headers.get('if-modified-since');
  if (noneMatch === undefined && modifiedSince === undefined) return res;
  const request: Record<string, string> = {};
  if (noneMatch !== undefined) request['if-none-match'] = noneMatch;
  if (modifiedSince !== undefined) request['if-modified-since'] = modifiedSince;
  const cacheControl = headers.get('cache-control');
  if (cacheControl !== undefined) request['cache-control'] = cacheControl;
  const lastModified = res.getHeader('Last-Modified');
  const response: Record<string, string> = { etag: tag };
  if (lastModified !== undefined) response['last-modified'] = lastModified;
  if (!loadFresh()(request, response)) return res;
  // RFC 9110 §15.4.5: a 304 carries the validators and caching fields, not the representation's own.
  res.status(304).dropBody();
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Length');
  return res;
}

/**
 * Precompressed files: `app.js.br`, `app.js.zst` and `app.js.gz` built beside `app.js` (by a bundler, at
 * the best compression level) and served in its place to a client that accepts that coding, instead of
 * compressing the file on every request.
 *
 * This module chooses the codings to try for a request's `Accept-Encoding` (the client's q-values first,
 * then br, zstd, gzip), and keeps the entity tags of the variants apart: send gives each file a weak
 * `ETag` from its size and modification time, and a variant's tag gets its coding appended
 * (`W/"1f-18c2…-br"`), so that a cache never takes one coding's bytes for another's. The conditional
 * fields a client sends back (`If-None-Match`, `If-Match`, `If-Range`) are translated for send, which
 * compares them with the variant file's own tag: a tag of this coding loses its suffix, any other tag is
 * made one that matches nothing.
 */
import { lazyPackage } from '../builtins.js';
import type { FileRequest } from './static-files.js';

/** A coding a precompressed file may be stored in, with the extension it is stored under. */
export type PrecompressedCoding = 'br' | 'zstd' | 'gzip';

/** The file extension of each coding. */
export const CODING_EXTENSIONS: Readonly<Record<PrecompressedCoding, string>> = {
  br: '.br',
  zstd: '.zst',
  gzip: '.gz',
};

/** The server's order of preference among codings the client ranks equally. */
export const PRECOMPRESSED_CODINGS: readonly PrecompressedCoding[] = ['br', 'zstd', 'gzip'];

interface NegotiatorInstance {
  encodings(available: string[], options: { preferred: string[] }): string[];
}
type NegotiatorClass = new (request: { headers: Record<string, string> }) => NegotiatorInstance;
const loadNegotiator = lazyPackage<NegotiatorClass>('negotiator');

const CACHE_LIMIT = 256;

/**
 * A function from `Accept-Encoding` to the codings to try, best first: those the client accepts (q > 0),
 * by its q-values, ties broken by `offered`'s order. No field: none (as compress() does).
 */
export function codingsNegotiator(
  offered: readonly PrecompressedCoding[],
): (accept: string | undefined) => readonly PrecompressedCoding[] {
  const Negotiator = loadNegotiator();
  const available = [...offered];
  const options = { preferred: available };
  const headers: Record<string, string> = { 'accept-encoding': '' };
  const negotiator = new Negotiator({ headers });
  const cache = new Map<string, readonly PrecompressedCoding[]>();
  return (accept) => {
    if (accept === undefined || accept === '') return [];
    const known = cache.get(accept);
    if (known !== undefined) return known;
    headers['accept-encoding'] = accept;
    const chosen = negotiator.encodings(available, options) as PrecompressedCoding[];
    if (accept.length <= 256) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(accept, chosen);
    }
    return chosen;
  };
}

/** The entity tag of `coding`'s variant: send's tag of the variant file with `-coding` appended inside the quotes. */
export function variantTag(tag: string, coding: PrecompressedCoding): string {
  return tag.endsWith('"') ? `${tag.slice(0, -1)}-${coding}"` : tag;
}

/** A tag no file's tag equals (send's are hex digits and a dash). */
const NO_MATCH = '"arbor-other-coding"';

/** A list of entity tags (`If-None-Match`, `If-Match`) or one (`If-Range`) as send must see it for `coding`'s file. */
function translated(field: string, coding: PrecompressedCoding): string {
  const suffix = `-${coding}"`;
  return field
    .split(',')
    .map((part) => {
      const tag = part.trim();
      if (tag === '*' || !tag.endsWith('"')) return tag;
      return tag.endsWith(suffix) ? `${tag.slice(0, -suffix.length)}"` : NO_MATCH;
    })
    .join(', ');
}

const TAG_FIELDS = new Set(['if-none-match', 'if-match', 'if-range']);

/** The request as send must read it to answer `coding`'s file: its entity tags translated (see the module comment). */
export function variantRequest(request: FileRequest, coding: PrecompressedCoding): FileRequest {
  return {
    getMethod: () => request.getMethod(),
    header(name) {
      const value = request.header(name);
      if (value === undefined || !TAG_FIELDS.has(name)) return value;
      // If-Range may hold a date instead of a tag: only a quoted tag is translated.
      return translated(value, coding);
    },
  };
}

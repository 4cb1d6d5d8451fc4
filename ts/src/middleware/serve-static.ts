/**
 * `serveStatic(root, options)`: the files of a directory, as application middleware. Routes win (as in
 * Fastify): a request that matched a route, that is not a GET or HEAD, or whose path is outside `prefix`
 * goes straight on, without touching the file system. A path with no file behind it goes on too (to the
 * routes' 404 or the fallback), unless `fallthrough: false`. The HTTP of files is static-files.ts's.
 */
import type { Stats } from 'node:fs';
import { resolve } from 'node:path';
import { fs } from '../builtins.js';
import { HttpError } from '../core/errors.js';
import type { Middleware, NextHandler } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import {
  CODING_EXTENSIONS,
  codingsNegotiator,
  PRECOMPRESSED_CODINGS,
  type PrecompressedCoding,
  variantRequest,
  variantTag,
} from '../helpers/precompressed.js';
import {
  answerWithFile,
  contentTypeOf,
  type FileOptions,
  requestPathToFile,
  sendOptions,
} from '../helpers/static-files.js';
import { addVary } from './vary.js';

export interface ServeStaticOptions extends FileOptions {
  /** The URL path the files are under, as it appears in the URL (`'/assets'`). Default `'/'`. */
  prefix?: string;
  /** The file a directory's URL (`/docs/`) answers with; a list is tried in order; `false`: none. Default `'index.html'`. */
  index?: string | readonly string[] | false;
  /** Extensions tried, in order, for a name without one that has no file (`['html']`: `/about` → `about.html`). */
  extensions?: readonly string[];
  /** `false`: a missing file is a 404 here instead of going on to the routes' 404 or the fallback. Default `true`. */
  fallthrough?: boolean;
  /** A directory's URL without its slash (`/docs`) is redirected (301) to `/docs/`. Default `true`. */
  redirect?: boolean;
  /** Called before a file's body with its answer, its absolute path and its stats: set headers here. */
  setHeaders?: (res: Response, path: string, stat: Stats) => void;
  /**
   * Serve `file.br`, `file.zst` or `file.gz` in place of `file` when it exists and the client accepts
   * its coding (its q-values first, then br, zstd, gzip), with `Content-Encoding`, the uncompressed file's
   * `Content-Type` and an `ETag` of its own; `Vary: Accept-Encoding` on every file answer. `true`: the
   * three codings; a list: those, in that order of preference. Default `false`.
   */
  preCompressed?: boolean | readonly PrecompressedCoding[];
}

/**
 * @example
 * app.middleware(serveStatic('public', { prefix: '/assets', maxAge: '7d' }));
 * // GET /assets/app.js → public/app.js; GET /assets/ → public/index.html
 */
export function serveStatic(root: string, options: ServeStaticOptions = {}): Middleware {
  const directory = checkedRoot(root);
  const prefix = checkedPrefix(options.prefix ?? '/');
  const index = options.index === undefined ? ['index.html'] : indexList(options.index);
  const extensions = options.extensions === undefined ? [] : [...options.extensions];
  const send = sendOptions(options, { root: directory, index, extensions });
  const fallthrough = options.fallthrough ?? true;
  const redirect = (options.redirect ?? true) && index.length > 0;
  const setHeaders = options.setHeaders;
  const codings = precompressedCodings(options.preCompressed);
  const negotiate = codings.length === 0 ? null : codingsNegotiator(codings);
  const variantSend = { ...send, index: [], extensions: [] };
  const fileHeaders =
    negotiate === null
      ? setHeaders
      : (res: Response, path: string, stat: Stats) => {
          addVary(res, 'Accept-Encoding');
          setHeaders?.(res, path, stat);
        };

  /** The answer with a precompressed variant of `target`, or `null` when the client accepts none that exists. */
  const variant = async (req: Request, target: string, offered: readonly PrecompressedCoding[]) => {
    // A directory's URL names its index file: the variants are the index file's.
    const names = target.endsWith('/') ? index.map((name) => target + encodeURIComponent(name)) : [target];
    for (const name of names) {
      const type = await contentTypeOf(name);
      for (const coding of offered) {
        const res = new Response(req);
        const answer = await answerWithFile(
          res,
          variantRequest(req, coding),
          name + CODING_EXTENSIONS[coding],
          variantSend,
          (out, path, stat) => {
            if (type === undefined) out.removeHeader('content-type');
            else out.header('Content-Type', type);
            out.header('Content-Encoding', coding);
            const etag = out.getHeader('etag');
            if (etag !== undefined) out.header('ETag', variantTag(etag, coding));
            addVary(out, 'Accept-Encoding');
            setHeaders?.(out, path, stat);
          },
        );
        if (answer === 'file') return res;
      }
    }
    return null;
  };

  const missing = (req: Request, next: NextHandler): Promise<Response> => {
    if (fallthrough) return next.handle(req);
    throw new HttpError(404);
  };

  const serve = async (req: Request, next: NextHandler): Promise<Response> => {
    const rest = req.path.slice(prefix.length);
    // Without an index a directory's URL names nothing: send would call it a 403.
    if (index.length === 0 && rest.endsWith('/')) return missing(req, next);
    const target = requestPathToFile(rest);
    const offered = negotiate?.(req.header('accept-encoding')) ?? [];
    if (offered.length > 0) {
      const precompressed = await variant(req, target, offered);
      if (precompressed !== null) return precompressed;
    }
    const res = new Response(req);
    const answer = await answerWithFile(res, req, target, send, fileHeaders);
    if (answer === 'file') return res;
    if (answer === 'directory' && redirect) return res.redirect(directoryUrl(req), 301);
    return missing(req, next);
  };

  return function serveStatic(req, next) {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return next.handle(req);
    const path = req.path;
    if (prefix !== '' && path !== prefix && !path.startsWith(`${prefix}/`)) return next.handle(req);
    if (req.route !== null) return next.handle(req);
    return serve(req, next);
  };
}

/**
 * Where a directory's URL without its slash redirects: the same path with one, query kept. Leading slashes
 * are collapsed, or `//evil.example` (a directory named so) would send the client to another host.
 */
function directoryUrl(req: Request): string {
  const path = `${req.path.replace(/^\/+/, '/')}/`;
  const query = req.getUri().getQuery();
  return query === '' ? path : `${path}?${query}`;
}

function checkedRoot(root: string): string {
  if (typeof root !== 'string' || root === '') {
    throw new TypeError(`serveStatic(root) takes a directory, got ${JSON.stringify(root)}`);
  }
  const directory = resolve(root);
  const stat = fs.statSync(directory, { throwIfNoEntry: false });
  if (stat?.isDirectory() !== true) {
    throw new TypeError(
      `serveStatic(${JSON.stringify(root)}): ${directory} ${stat === undefined ? 'does not exist' : 'is not a directory'}`,
    );
  }
  return directory;
}

/** `'/assets/'` → `'/assets'`; `'/'` → `''` (everything). Compared with the raw path, so written encoded. */
function checkedPrefix(prefix: string): string {
  if (!/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(prefix)) {
    throw new TypeError(
      `serveStatic: prefix ${JSON.stringify(prefix)} must be a URL path starting with '/', as the URL spells it (percent-encoded)`,
    );
  }
  return prefix.replace(/\/+$/, '');
}

function precompressedCodings(option: ServeStaticOptions['preCompressed']): PrecompressedCoding[] {
  if (option === undefined || option === false) return [];
  if (option === true) return [...PRECOMPRESSED_CODINGS];
  for (const coding of option)
    if (!PRECOMPRESSED_CODINGS.includes(coding))
      throw new TypeError(
        `serveStatic: preCompressed codings are 'br', 'zstd' and 'gzip', not ${JSON.stringify(coding)}`,
      );
  return [...option];
}

function indexList(index: string | readonly string[] | false): string[] {
  if (index === false) return [];
  const list = typeof index === 'string' ? [index] : [...index];
  for (const name of list) {
    if (typeof name !== 'string' || name === '' || /[\\/\0]/.test(name) || name === '..') {
      throw new TypeError(`serveStatic: index ${JSON.stringify(name)} must be a file name`);
    }
  }
  return list;
}

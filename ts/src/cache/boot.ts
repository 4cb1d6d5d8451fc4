/**
 * The start-up side of the route cache: what `Application` calls when it builds its router.
 *
 * When a cache file is configured or present, the application records registrations instead of compiling
 * them, and on first use (first request, `routeTable()`, `run()`) calls {@link RouteCacheBoot.load} with
 * the routes in order. A cache whose fingerprint matches gives a router rebuilt from the snapshot (no
 * pattern parsed or compiled) and the annotations read at `route:cache` time. Anything else — stale,
 * corrupt, another format or Arbor version — warns once and returns `null`: the application compiles the
 * routes it was given. Stale routes are never served.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AnnotationSet } from '../openapi/types.js';
import { Router } from '../router.js';
import { fingerprint, type RouteKey, type TableOptions } from './fingerprint.js';
import { CacheFormatError, type DecodedCache, decodeCache, parseSection } from './format.js';
import { resolveCachePath } from './location.js';
import { arborVersion } from './version.js';

/** `process.emitWarning` codes, for `process.on('warning')` listeners and `--no-warnings=CODE`. */
export type RouteCacheWarningCode =
  | 'ARBOR_ROUTE_CACHE_STALE'
  | 'ARBOR_ROUTE_CACHE_CORRUPT'
  | 'ARBOR_ROUTE_CACHE_VERSION';

export interface CacheHit<T> {
  /** A router rebuilt from the snapshot: attach values with `router.attach(id, value)`. */
  router: Router<T>;
  /** The annotations read when the cache was written (`null` if none were stored). Decoded on first call. */
  annotations(): AnnotationSet | null;
  file: string;
}

const warned = new Set<string>();

function warnOnce(code: RouteCacheWarningCode, file: string, why: string): void {
  const key = `${code} ${file}`;
  if (warned.has(key)) return;
  warned.add(key);
  process.emitWarning(
    `route cache ${file} ${why}; compiling the registered routes instead (run \`arbor route:cache\` to refresh it)`,
    { type: 'ArborRouteCacheWarning', code },
  );
}

export class RouteCacheBoot {
  readonly file: string;

  private constructor(file: string) {
    this.file = file;
  }

  /**
   * The cache to try at start-up, or `null` when none is configured or the file does not exist (then
   * registration compiles eagerly, as without a cache). `configured` is the application's `routeCache`.
   */
  static open(configured: string | false | undefined): RouteCacheBoot | null {
    const file = resolveCachePath(configured);
    return file !== null && existsSync(file) ? new RouteCacheBoot(file) : null;
  }

  /** The cached router when the cache was written for exactly these routes and options, else `null`. */
  load<T>(routes: readonly RouteKey[], options: TableOptions): CacheHit<T> | null {
    let cache: DecodedCache;
    try {
      cache = decodeCache(readFileSync(this.file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // removed since open(): no cache
      if (error instanceof CacheFormatError && error.reason === 'version') {
        warnOnce('ARBOR_ROUTE_CACHE_VERSION', this.file, `was written in another format (${error.message})`);
      } else {
        warnOnce('ARBOR_ROUTE_CACHE_CORRUPT', this.file, `cannot be read (${(error as Error).message})`);
      }
      return null;
    }
    const { header } = cache;
    if (header.arborVersion !== arborVersion()) {
      warnOnce(
        'ARBOR_ROUTE_CACHE_VERSION',
        this.file,
        `was written by Arbor ${header.arborVersion}, this is ${arborVersion()}`,
      );
      return null;
    }
    if (header.routeCount !== routes.length || header.fingerprint !== fingerprint(routes, options)) {
      warnOnce(
        'ARBOR_ROUTE_CACHE_STALE',
        this.file,
        `is stale (it holds ${header.routeCount} routes cached at ${header.createdAt}; ${routes.length} are registered now, and they differ)`,
      );
      return null;
    }
    let router: Router<T>;
    try {
      // The options are the ones the snapshot was taken with (they are part of the fingerprint); the
      // router needs them for what it builds in front of the engine.
      router = new Router<T>({ ...options, snapshot: cache.snapshot });
    } catch (error) {
      const code =
        (error as { code?: string }).code === 'SNAPSHOT_VERSION'
          ? 'ARBOR_ROUTE_CACHE_VERSION'
          : 'ARBOR_ROUTE_CACHE_CORRUPT';
      warnOnce(code, this.file, `holds an unusable snapshot (${(error as Error).message})`);
      return null;
    }
    if (router.routes().length !== routes.length) {
      warnOnce('ARBOR_ROUTE_CACHE_CORRUPT', this.file, 'holds a snapshot that does not match its own header');
      return null;
    }
    // The annotations are read again from the file when first asked for (the docs routes, rarely and once),
    // so the file's bytes are not kept alive: the snapshot now lives in the engine.
    const expected = header.fingerprint;
    let annotations: { value: AnnotationSet | null } | undefined;
    return {
      router,
      annotations: () => {
        annotations ??= { value: this.#annotations(expected) };
        return annotations.value;
      },
      file: this.file,
    };
  }

  /** The annotations section, if the file still holds the cache this router came from; else `null` (the
   * exporter then reads the sources). */
  #annotations(fingerprint: string): AnnotationSet | null {
    try {
      const cache = decodeCache(readFileSync(this.file));
      return cache.header.fingerprint === fingerprint
        ? parseSection<AnnotationSet | null>(cache.annotations)
        : null;
    } catch {
      return null;
    }
  }
}

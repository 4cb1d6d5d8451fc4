/**
 * The start-up side of the route cache: what `Application` calls when it builds its router.
 *
 * The cache is switched on explicitly — the application's `routeCache` key, or `ARBOR_ROUTE_CACHE` naming a
 * file (what a deployment sets after `arbor route:cache`) — and deciding that touches no file: creating an
 * application never probes the disk. When it is on, the application records registrations instead of
 * compiling them, and on first use (first request, `routeTable()`, `run()`) calls {@link RouteCacheBoot.load} with
 * the routes in order. A cache whose fingerprint matches gives a router rebuilt from the snapshot (no
 * pattern parsed or compiled) and the annotations read at `route:cache` time. Anything else — stale,
 * corrupt, another format or Arbor version — warns once and returns `null`: the application compiles the
 * routes it was given. Stale routes are never served.
 */
import { fs } from '../builtins.js';
import type { RouteShape } from '../engine/engine.js';
import type { AnnotationSet } from '../openapi/types.js';
import { Router } from '../router/index.js';
import { ExpectedRoutes } from './expected.js';
import { fingerprint, type RouteKey, type TableOptions } from './fingerprint.js';
import {
  CacheFormatError,
  type DecodedCacheStart,
  decodeCache,
  decodeCacheStart,
  parseSection,
  type RegistrationIndex,
} from './format.js';
import { CACHE_ENV, OFF, resolveCachePath } from './location.js';
import { arborVersion } from './version.js';

/** `process.emitWarning` codes, for `process.on('warning')` listeners and `--no-warnings=CODE`. */
export type RouteCacheWarningCode =
  | 'ARBOR_ROUTE_CACHE_STALE'
  | 'ARBOR_ROUTE_CACHE_CORRUPT'
  | 'ARBOR_ROUTE_CACHE_VERSION';

export interface CacheHit<T> {
  /** A router rebuilt from the snapshot, with the values {@link RouteCacheBoot.load} was given attached
   * (without values: attach them with `router.attach(values)`). */
  router: Router<T>;
  /** What serving each route needs (methods, parameter names), by id, as attaching the values returned it
   * (empty without values). */
  shapes: RouteShape[];
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
  readonly #configured: string | true;
  readonly #env: NodeJS.ProcessEnv;
  #file: string | null = null;
  /** The file as read for {@link expected}, kept until {@link load} (so a start reads it once). */
  #read: { cache: DecodedCacheStart } | { error: unknown } | null = null;
  #expected: ExpectedRoutes | null | undefined;

  private constructor(configured: string | true, env: NodeJS.ProcessEnv) {
    this.#configured = configured;
    this.#env = env;
  }

  /**
   * The cache to try at start-up, or `null` when it is off (then registration compiles eagerly). On with
   * `configured` `true` (`ARBOR_ROUTE_CACHE`, else the default location) or a path, or with
   * `ARBOR_ROUTE_CACHE` naming a file; off with `false`, `ARBOR_ROUTE_CACHE=off`, or neither. Reads no file.
   */
  static configure(
    configured: string | boolean | undefined,
    env: NodeJS.ProcessEnv = process.env,
  ): RouteCacheBoot | null {
    if (configured === false) return null;
    if (typeof configured === 'string' && configured !== '') return new RouteCacheBoot(configured, env);
    const fromEnv = env[CACHE_ENV];
    const envOn = fromEnv !== undefined && fromEnv !== '' && !OFF.has(fromEnv.toLowerCase());
    if (configured === true)
      return fromEnv !== undefined && fromEnv !== '' && !envOn ? null : new RouteCacheBoot(true, env);
    return envOn ? new RouteCacheBoot(true, env) : null;
  }

  /** The cache file (resolved on first use: the default location looks for the project's `package.json`). */
  get file(): string {
    this.#file ??=
      resolveCachePath(this.#configured === true ? undefined : this.#configured, undefined, this.#env) ?? '';
    return this.#file;
  }

  /**
   * The routes the cache holds, with their call sites, for the registrations still to come (the
   * application asks at its first registration); `null` when there is no usable cache. Reads the file once
   * for the whole start, and warns about nothing: {@link load} reports what is wrong with the file.
   */
  expected(): ExpectedRoutes | null {
    if (this.#expected !== undefined) return this.#expected;
    this.#expected = null;
    const read = this.#readFile();
    if (!('cache' in read)) return null;
    const { header } = read.cache;
    if (header.arborVersion === arborVersion() && isIndex(header.registrations))
      this.#expected = new ExpectedRoutes(header.registrations);
    return this.#expected;
  }

  /**
   * The cached router when the cache was written for exactly these routes and options, else `null`. With
   * `values` (one per route, by id) they are attached, which also proves the snapshot holds exactly these
   * routes without reading its whole route list.
   */
  load<T>(routes: readonly RouteKey[], options: TableOptions, values?: readonly T[]): CacheHit<T> | null {
    const read = this.#readFile();
    const expected = this.#expected;
    // The file's bytes are not kept past this start (the snapshot is copied into the engine); another
    // load reads the file again.
    this.#read = null;
    this.#expected = undefined;
    if (!('cache' in read)) {
      const error = read.error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // no cache file: compile
      if (error instanceof CacheFormatError && error.reason === 'version') {
        warnOnce('ARBOR_ROUTE_CACHE_VERSION', this.file, `was written in another format (${error.message})`);
      } else {
        warnOnce('ARBOR_ROUTE_CACHE_CORRUPT', this.file, `cannot be read (${(error as Error).message})`);
      }
      return null;
    }
    const { cache } = read;
    const { header } = cache;
    if (header.arborVersion !== arborVersion()) {
      warnOnce(
        'ARBOR_ROUTE_CACHE_VERSION',
        this.file,
        `was written by Arbor ${header.arborVersion}, this is ${arborVersion()}`,
      );
      return null;
    }
    const same =
      header.routeCount === routes.length &&
      (expected !== null && expected !== undefined && expected.length === header.routeCount
        ? expected.matches(routes) && JSON.stringify(header.options) === JSON.stringify(options)
        : header.fingerprint === fingerprint(routes, options));
    if (!same) {
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
    const shapes = values === undefined ? sameCount(router, routes.length) : attachAll(router, values);
    if (shapes === null) {
      warnOnce('ARBOR_ROUTE_CACHE_CORRUPT', this.file, 'holds a snapshot that does not match its own header');
      return null;
    }
    // The annotations are read again from the file when first asked for (the docs routes, rarely and once),
    // so the file's bytes are not kept alive: the snapshot now lives in the engine.
    const print = header.fingerprint;
    let annotations: { value: AnnotationSet | null } | undefined;
    return {
      router,
      shapes,
      annotations: () => {
        annotations ??= { value: this.#annotations(print) };
        return annotations.value;
      },
      file: this.file,
    };
  }

  /** The file, read and checked once (by {@link expected} or {@link load}, whichever comes first). */
  #readFile(): { cache: DecodedCacheStart } | { error: unknown } {
    if (this.#read === null) {
      try {
        this.#read = { cache: readStart(this.file) };
      } catch (error) {
        this.#read = { error };
      }
    }
    return this.#read;
  }

  /** The annotations section, if the file still holds the cache this router came from; else `null` (the
   * exporter then reads the sources). A start checked only the header and the snapshot, so this is where a
   * corrupt annotations section is found: warned about like any corrupt cache. */
  #annotations(fingerprint: string): AnnotationSet | null {
    try {
      const cache = decodeCache(fs.readFileSync(this.file));
      return cache.header.fingerprint === fingerprint
        ? parseSection<AnnotationSet | null>(cache.annotations)
        : null;
    } catch (error) {
      if (error instanceof CacheFormatError && error.reason === 'corrupt')
        warnOnce('ARBOR_ROUTE_CACHE_CORRUPT', this.file, `cannot be read (${error.message})`);
      return null;
    }
  }
}

/** The header and the snapshot of the cache file, the rest of it left unread (see `decodeCacheStart`). */
function readStart(file: string): DecodedCacheStart {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const read = (position: number, length: number): Buffer => {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - position)));
      let done = 0;
      while (done < buffer.length) {
        const n = fs.readSync(fd, buffer, done, buffer.length - done, position + done);
        if (n === 0) break; // the file shrank while being read: the checks see a short section
        done += n;
      }
      return buffer.subarray(0, done);
    };
    return decodeCacheStart(read, size);
  } finally {
    fs.closeSync(fd);
  }
}

/** Attaches `values[id]` to each route; `null` when the snapshot holds another number of routes. */
function attachAll<T>(router: Router<T>, values: readonly T[]): RouteShape[] | null {
  try {
    return router.attach(values);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** Without values to attach: the snapshot holds exactly `count` routes (reads its route list). */
function sameCount<T>(router: Router<T>, count: number): RouteShape[] | null {
  return router.routes().length === count ? [] : null;
}

/** A registration index as `route:cache` writes it (the header is JSON from a file: check its shape). */
function isIndex(index: unknown): index is RegistrationIndex {
  const i = index as RegistrationIndex | undefined;
  return (
    i !== undefined &&
    i !== null &&
    Array.isArray(i.methods) &&
    Array.isArray(i.patterns) &&
    Array.isArray(i.names) &&
    Array.isArray(i.files) &&
    Array.isArray(i.sites) &&
    i.methods.length === i.patterns.length &&
    i.names.length === i.patterns.length &&
    i.sites.length === 2 * i.patterns.length
  );
}

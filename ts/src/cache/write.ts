/**
 * The writing side of the route cache (`arbor route:cache`): takes a freshly compiled application and
 * stores its snapshot, route list and annotations, with the fingerprint start-up compares against.
 */
import { dirname } from 'node:path';
import { fs } from '../builtins.js';
import type { Order } from '../engine/engine.js';
import { readAnnotations } from '../openapi/annotations/annotations.js';
import type { AnnotationSet, RegisteredRoute } from '../openapi/types.js';
import { registrationIndex } from './expected.js';
import { fingerprint, tableOptions } from './fingerprint.js';
import { type CachedRoute, encodeCache } from './format.js';
import { arborVersion } from './version.js';

/** What the writer needs from an application (the real `Application` has it). */
export interface CacheSource {
  config: { order?: Order | undefined; trailingSlash?: boolean | 'redirect' | undefined };
  router: { snapshot(): Uint8Array };
  routeTable(): RegisteredRoute[];
}

export interface BuildOptions {
  /** Extra files or directories scanned for `@api` and `@schema` blocks (as the exporter's `sources`). */
  sources?: string[];
  /** Store these annotations instead of reading the sources. */
  annotations?: AnnotationSet;
}

export interface BuiltCache {
  bytes: Buffer;
  fingerprint: string;
  routeCount: number;
}

export function buildRouteCache(app: CacheSource, options: BuildOptions = {}): BuiltCache {
  const table = app.routeTable();
  const routes: CachedRoute[] = table.map((r) => ({
    id: r.id,
    methods: r.methods,
    pattern: r.pattern,
    name: r.name,
    middleware: r.middleware ?? [],
    handlerLocation: r.handlerLocation ?? null,
  }));
  const options_ = tableOptions(app.config);
  const print = fingerprint(routes, options_);
  const annotations = options.annotations ?? readAnnotations(table, { sources: options.sources ?? [] });
  const bytes = encodeCache(
    {
      arborVersion: arborVersion(),
      fingerprint: print,
      options: options_,
      createdAt: new Date().toISOString(),
      registrations: registrationIndex(table),
    },
    { snapshot: app.router.snapshot(), routes, annotations },
  );
  return { bytes, fingerprint: print, routeCount: routes.length };
}

/** Writes atomically (temporary file + rename), so a starting process never reads half a cache. */
export function writeCacheFile(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, bytes);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** Removes the cache file; `false` when there was none. */
export function removeCacheFile(file: string): boolean {
  try {
    fs.rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

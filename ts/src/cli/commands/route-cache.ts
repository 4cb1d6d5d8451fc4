/**
 * `arbor route:cache` and `arbor route:clear`.
 *
 * The cache file is `--cache <file>`, else `ARBOR_ROUTE_CACHE`, else `<project>/.arbor/routes.cache` for the
 * entry module (the same rule the application follows at start-up, see ts/src/cache/location.ts).
 */
import { relative } from 'node:path';
import { CACHE_ENV, defaultCachePath, resolveCachePath } from '../../cache/location.js';
import { buildRouteCache, removeCacheFile, writeCacheFile } from '../../cache/write.js';
import { CliError, usageError } from '../errors.js';
import { loadApplication, resolveEntry } from '../load-app.js';
import { paint, write } from '../output.js';

export interface CacheOptions {
  app?: string;
  cache?: string;
}

/** The cache file a command acts on. Resolving it never needs the application itself. */
export function cacheFileFor(options: CacheOptions): string {
  if (options.cache !== undefined) return resolveCachePath(options.cache) ?? options.cache;
  const fromEnv = process.env[CACHE_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const file = resolveCachePath(undefined, undefined);
    if (file === null)
      throw usageError(`${CACHE_ENV}=${fromEnv} switches the route cache off; pass --cache <file>`);
    return file;
  }
  return defaultCachePath(resolveEntry(options.app));
}

const shown = (file: string) => {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || rel === '' ? file : rel;
};

export async function routeCache(options: CacheOptions & { sources?: string[] }): Promise<void> {
  const file = cacheFileFor(options); // before loading: loading switches the cache off in this process
  const { app, openapiOptions } = await loadApplication(resolveEntry(options.app));
  const sources = options.sources ?? openapiOptions.sources ?? [];
  let built: ReturnType<typeof buildRouteCache>;
  try {
    built = buildRouteCache(app, { sources });
  } catch (error) {
    throw new CliError(`cannot compile the routes: ${(error as Error).message}`, undefined, { cause: error });
  }
  try {
    writeCacheFile(file, built.bytes);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const size = `${(built.bytes.length / 1024).toFixed(1)} KiB`;
  await write(
    `${paint('green', 'Routes cached:')} ${built.routeCount} routes → ${shown(file)} (${size}, fingerprint ${built.fingerprint.slice(0, 12)})\n`,
  );
}

export async function routeClear(options: CacheOptions): Promise<void> {
  const file = cacheFileFor(options);
  const removed = removeCacheFile(file);
  await write(
    removed
      ? `${paint('green', 'Route cache cleared:')} ${shown(file)}\n`
      : `No route cache at ${shown(file)}\n`,
  );
}

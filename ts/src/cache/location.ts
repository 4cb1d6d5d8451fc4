/**
 * Where the route cache lives. In order:
 * 1. the application's `routeCache` config key (a path; `false` for no cache; `true` for what follows);
 * 2. the `ARBOR_ROUTE_CACHE` environment variable (a path, or `off` for no cache);
 * 3. `<project>/.arbor/routes.cache`, where `<project>` is the nearest directory at or above the entry
 *    module that holds a `package.json` (else the entry module's own directory).
 *
 * The project directory rather than the entry's own directory, because a project often has several
 * entries (`src/server.ts` in development, `dist/server.js` in production) that must share one cache.
 */
import { dirname, join, resolve } from 'node:path';
import { fs } from '../builtins.js';

export const CACHE_ENV = 'ARBOR_ROUTE_CACHE';
export const DEFAULT_CACHE_DIR = '.arbor';
export const DEFAULT_CACHE_FILE = 'routes.cache';

/** `ARBOR_ROUTE_CACHE` values that switch the cache off. */
export const OFF: ReadonlySet<string> = new Set(['off', 'false', '0', 'none']);

/** The nearest directory at or above `start` that holds a `package.json`, else `start`. */
export function projectRoot(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (fs.existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(start);
  }
}

/** The default cache file for an entry module (a file path). */
export function defaultCachePath(entry: string): string {
  return join(projectRoot(dirname(resolve(entry))), DEFAULT_CACHE_DIR, DEFAULT_CACHE_FILE);
}

/**
 * The cache file to use, or `null` when caching is switched off. `entry` defaults to the main module
 * (`process.argv[1]`); without one (a REPL) the default location is under the working directory.
 */
export function resolveCachePath(
  configured: string | false | undefined,
  entry: string | undefined = process.argv[1],
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (configured === false) return null;
  if (typeof configured === 'string' && configured !== '') return resolve(configured);
  const fromEnv = env[CACHE_ENV];
  if (fromEnv !== undefined && fromEnv !== '')
    return OFF.has(fromEnv.toLowerCase()) ? null : resolve(fromEnv);
  return entry === undefined || entry === ''
    ? join(process.cwd(), DEFAULT_CACHE_DIR, DEFAULT_CACHE_FILE)
    : defaultCachePath(entry);
}

// The route cache: file format, fingerprint, location, the start-up hook and the writer. See docs/CLI.md.

// The application registry lives in app/registry.ts; re-exported for tools that import the cache module.
export {
  clearRegisteredApplications,
  registerApplication,
  registeredApplication,
} from '../registry/applications.js';
export { type CacheHit, RouteCacheBoot, type RouteCacheWarningCode } from './boot.js';
export {
  fingerprint,
  normaliseMethods,
  type RouteKey,
  type TableOptions,
  tableOptions,
} from './fingerprint.js';
export {
  type CachedRoute,
  CacheFormatError,
  type CacheHeader,
  type DecodedCache,
  decodeCache,
  encodeCache,
  FORMAT_VERSION,
  parseSection,
} from './format.js';
export {
  CACHE_ENV,
  DEFAULT_CACHE_DIR,
  DEFAULT_CACHE_FILE,
  defaultCachePath,
  projectRoot,
  resolveCachePath,
} from './location.js';
export { arborVersion } from './version.js';
export {
  type BuildOptions,
  type BuiltCache,
  buildRouteCache,
  type CacheSource,
  removeCacheFile,
  writeCacheFile,
} from './write.js';

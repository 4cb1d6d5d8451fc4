/**
 * Node's built-in modules that are costly to import as ECMAScript modules, taken without it.
 *
 * `import { STATUS_CODES } from 'node:http'` makes Node build the module's ESM namespace out of every
 * export, and reading `node:http`'s lazy exports (`WebSocket`, `CloseEvent`, `MessageEvent`) loads
 * undici and TLS at every start of every process that imports Arbor (`node:util`'s namespace is costly
 * too; docs/PERFORMANCE.md), though nothing in Arbor uses them. The same holds, on a smaller scale, for
 * the others here:
 * `node:fs`'s namespace reads `fs.promises` (which loads readline and the REPL's history), `node:crypto`'s
 * reads `webcrypto`, and so on. `process.getBuiltinModule` returns the same exports object as `require`
 * does, without a namespace. Type-only imports (`import type … from 'node:http'`) are erased and cost
 * nothing; `node:path` and `node:url`, loaded by Node itself at start, are imported as usual.
 */
export const http = process.getBuiltinModule('node:http');
export const util = process.getBuiltinModule('node:util');
export const fs = process.getBuiltinModule('node:fs');
export const net = process.getBuiltinModule('node:net');
export const nodeModule = process.getBuiltinModule('node:module');
export const v8 = process.getBuiltinModule('node:v8');

// Loaded on first use: what needs them (hashing a cache's sources, compressing a docs asset, writing a
// route cache) is off the path of most starts, which would otherwise each pay for loading them.
let cryptoModule: typeof import('node:crypto') | undefined;
let zlibModule: typeof import('node:zlib') | undefined;
/** `node:crypto`, loaded on the first call. */
export const crypto = (): typeof import('node:crypto') =>
  (cryptoModule ??= process.getBuiltinModule('node:crypto'));
/** `node:zlib`, loaded on the first call. */
export const zlib = (): typeof import('node:zlib') => (zlibModule ??= process.getBuiltinModule('node:zlib'));

/**
 * A package loaded on the first call rather than when Arbor is imported: what only one feature needs (the
 * multipart parser, content negotiation, ETags) would otherwise add its load time to every start.
 * `require` loads CommonJS and ECMAScript packages alike (Node 22.12 and later).
 */
export function lazyPackage<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= nodeModule.createRequire(import.meta.url)(specifier) as T;
    return loaded;
  };
}

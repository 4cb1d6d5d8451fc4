/**
 * Node's built-in modules, each loaded on its first use, never when Arbor is imported.
 *
 * Two reasons. On Node, `import { STATUS_CODES } from 'node:http'` makes Node build the module's ESM
 * namespace out of every export, and reading `node:http`'s lazy exports (`WebSocket`, `CloseEvent`,
 * `MessageEvent`) loads undici and TLS at every start of every process that imports Arbor (`node:util`'s
 * namespace is costly too; docs/PERFORMANCE.md), though nothing in Arbor uses them; the same holds, on a
 * smaller scale, for the others here. `process.getBuiltinModule` returns the same exports object as
 * `require` does, without a namespace, and only when a feature first reaches for it: importing the package
 * and serving through `app.fetch` loads none of these. On other runtimes (Cloudflare Workers, Deno, Bun:
 * docs/RUNTIMES.md), a module the runtime does not have is an error at the first use of the feature that
 * needs it ({@link NodeBuiltinMissingError}), never a crash at import.
 *
 * Type-only imports (`import type … from 'node:http'`) are erased and cost nothing; `node:path`,
 * `node:url` and `node:stream`, which Node loads itself at start and which Workers' `nodejs_compat`
 * provides, are imported as usual.
 */

/** A feature reached for a Node built-in module that this runtime does not provide. */
export class NodeBuiltinMissingError extends Error {
  /** Stable code for programs: `NODE_BUILTIN_MISSING`. */
  readonly code = 'NODE_BUILTIN_MISSING';
  /** The module asked for, `node:fs` say. */
  readonly specifier: string;

  constructor(specifier: string, cause?: unknown) {
    super(
      `${specifier} is not available on this runtime (${runtimeName()}): the feature that uses it needs ` +
        'Node.js, Bun or Deno (see docs/RUNTIMES.md for what each runtime supports and the alternatives)',
      cause === undefined ? undefined : { cause },
    );
    this.name = 'NodeBuiltinMissingError';
    this.specifier = specifier;
  }
}

/** What the runtime calls itself, for error messages. */
function runtimeName(): string {
  const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  return typeof agent === 'string' && agent !== '' ? agent : 'unknown runtime';
}

type Process = { getBuiltinModule?: (specifier: string) => unknown };

/**
 * Loads `specifier` through `process.getBuiltinModule` (Node 22.3 and later, Bun, Deno, Workers with
 * `nodejs_compat`); throws {@link NodeBuiltinMissingError} where the runtime has no such module.
 */
export function nodeBuiltin<T>(specifier: string): T {
  const getBuiltinModule = (globalThis as { process?: Process }).process?.getBuiltinModule;
  let loaded: unknown;
  try {
    loaded = getBuiltinModule?.(specifier);
  } catch (error) {
    throw new NodeBuiltinMissingError(specifier, error);
  }
  if (loaded === undefined || loaded === null) throw new NodeBuiltinMissingError(specifier);
  return loaded as T;
}

/**
 * The module `specifier` as an object that loads it on the first property read: the modules below keep
 * their usual spelling (`fs.statSync(…)`) while importing this file loads nothing.
 */
function onFirstUse<T extends object>(specifier: string): T {
  let loaded: T | undefined;
  const load = (): T => (loaded ??= nodeBuiltin<T>(specifier));
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(load(), key),
    has: (_, key) => Reflect.has(load(), key),
  });
}

/** `node:http`, loaded on first use. */
export const http = onFirstUse<typeof import('node:http')>('node:http');
/** `node:util`, loaded on first use. */
export const util = onFirstUse<typeof import('node:util')>('node:util');
/** `node:fs`, loaded on first use. */
export const fs = onFirstUse<typeof import('node:fs')>('node:fs');
/** `node:net`, loaded on first use. */
export const net = onFirstUse<typeof import('node:net')>('node:net');
/** `node:module`, loaded on first use. */
export const nodeModule = onFirstUse<typeof import('node:module')>('node:module');
/** `node:v8`, loaded on first use. */
export const v8 = onFirstUse<typeof import('node:v8')>('node:v8');

// Accessors rather than objects: what needs them (hashing a cache's sources, compressing a docs asset,
// decompressing a request body) calls them where it runs.
let cryptoModule: typeof import('node:crypto') | undefined;
let zlibModule: typeof import('node:zlib') | undefined;
/** `node:crypto`, loaded on the first call. */
export const crypto = (): typeof import('node:crypto') =>
  (cryptoModule ??= nodeBuiltin<typeof import('node:crypto')>('node:crypto'));
/** `node:zlib`, loaded on the first call. */
export const zlib = (): typeof import('node:zlib') =>
  (zlibModule ??= nodeBuiltin<typeof import('node:zlib')>('node:zlib'));

/** Packages handed over by an entry point that cannot `require` (the Workers entry bundles them). */
const providedPackages = new Map<string, unknown>();

/**
 * Makes `lazyPackage(name)` answer with these modules instead of requiring them: on a runtime without
 * `require` (Workers), an entry point imports the packages statically (so that the bundler includes them)
 * and hands them over here. Each value is what `require(name)` would return.
 */
export function providePackages(packages: Record<string, unknown>): void {
  for (const [name, module] of Object.entries(packages)) providedPackages.set(name, module);
}

/**
 * A package loaded on the first call rather than when Arbor is imported: what only one feature needs (the
 * multipart parser, content negotiation, ETags) would otherwise add its load time to every start.
 * `require` loads CommonJS and ECMAScript packages alike (Node 22.12 and later, Bun, Deno); a runtime
 * without it gets the package from {@link providePackages}.
 */
export function lazyPackage<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= (providedPackages.get(specifier) ?? nodeModule.createRequire(import.meta.url)(specifier)) as T;
    return loaded;
  };
}

// The package's runtime as users load it: seven bundles in dist/ts/src/bundle/ (the index, its Workers entry,
// the Redis stores, OpenTelemetry, metrics, the typed client and the CLI), the code they share in chunks beside them, built by esbuild from tsc's output. Loading the
// framework as its compiled modules, one file each, makes every start resolve, read and compile each of
// them; one bundle does that once (the figures: docs/PERFORMANCE.md, "Start-up from the route cache").
//
// The bundles sit one directory below dist/ts/src, at the depth of every compiled module, so the paths the
// code builds from its own URL (`../engine/wasm-pkg/`, `../openapi/swagger-ui-dist/`, the root of Arbor's
// own stack frames) are the same in the sources, the compiled modules and the bundles. npm packages stay
// imports (`packages: 'external'`): the bundles hold Arbor's code only.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

/** Bundles dist/ts/src (tsc's output) into dist/ts/src/bundle/; returns the milliseconds it took. */
export function bundle(root) {
  const started = Date.now();
  const src = join(root, 'dist', 'ts', 'src');
  const out = join(src, 'bundle');
  rmSync(out, { recursive: true, force: true });
  buildSync({
    entryPoints: {
      index: join(src, 'index.js'),
      // The `workerd` export condition: the index, with the WebAssembly module and the lazily required
      // packages imported (ts/src/runtimes/workerd.ts).
      workerd: join(src, 'runtimes', 'workerd.js'),
      'redis-store': join(src, 'stores', 'redis-store.js'),
      otel: join(src, 'ops', 'otel.js'),
      metrics: join(src, 'ops', 'metrics.js'),
      // The typed client: browser-safe, it imports nothing the other entries do (its one shared chunk is
      // esbuild's own few-line helper).
      client: join(src, 'client', 'index.js'),
      cli: join(src, 'cli', 'main.js'),
    },
    outdir: out,
    bundle: true,
    // One copy of every module across the three entries: the CLI and the app it loads share one registry.
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    // The Workers entry's `.wasm` import stays an import, for the Worker's bundler to compile; its path
    // holds from the bundle directory as from runtimes/.
    external: ['*.wasm'],
    // Maps through tsc's maps to ts/src, for `--enable-source-maps` (prepack drops the link from the
    // package, which ships no sources).
    sourcemap: true,
    logLevel: 'warning',
  });
  return Date.now() - started;
}

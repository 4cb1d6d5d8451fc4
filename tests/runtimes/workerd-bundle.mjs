// Bundles worker.mjs for workerd as wrangler does with `nodejs_compat`: the `workerd` export condition
// (the package resolves to dist/ts/src/bundle/workerd.js), Node's built-ins left to the runtime as
// `node:` imports (CommonJS `require`s of them too), the `.wasm` import left as a module of the Worker.
// Returns the modules to list in the workerd config.
import { mkdirSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);

/**
 * Bundles `entry` (a file of tests/runtimes) into `outDir`: `worker.js` and the WebAssembly module beside
 * it; `aliases` name the files the test wrote that the entry imports (`arbor-test-contracts`, …).
 */
export async function bundleWorker(outDir, entry, aliases) {
  // The package found by its name, as a Worker's project finds it in node_modules: its `exports` and
  // their `workerd` condition decide which file is bundled.
  const modules = join(outDir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  symlinkSync(root, join(modules, 'arbor-router'), 'dir');
  const result = await build({
    entryPoints: { worker: join(root, 'tests', 'runtimes', entry) },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    nodePaths: [modules],
    alias: aliases,
    logLevel: 'error',
    metafile: true,
    plugins: [
      {
        name: 'workerd-modules',
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, (args) => ({
            path: `./${args.path.split('/').pop()}`,
            external: true,
          }));
          // An ECMAScript import of a built-in stays an import; a CommonJS `require` of one becomes an
          // import wrapped as `module.exports` (wrangler does the same).
          b.onResolve({ filter: BUILTIN }, (args) => {
            const path = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
            return args.kind === 'require-call'
              ? { path, namespace: 'node-require' }
              : { path, external: true };
          });
          b.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({
            contents: `import builtin from '${args.path}'; module.exports = builtin;`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  return { bytes: Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0) };
}

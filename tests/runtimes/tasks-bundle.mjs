// The tasks reference application (ts/examples/tasks) as the Bun, Deno and workerd servers load it: one
// ECMAScript module bundled by esbuild from its TypeScript, with its imports of Arbor's sources
// (`../../src/app/index.js`, `../src/openapi/index.js`) turned into an import of the built package, as an
// application written against `arbor-router` has it. Node's built-ins stay imports.
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
/** An import of Arbor's own sources from the examples. */
const ARBOR_SOURCES = /^(\.\.\/)+src\/(app|openapi)\/index\.js$/;

/**
 * Bundles the tasks application into `outFile`, exporting `createTasksApp`; `arbor` is what its imports of
 * Arbor become (the package's name, or the path of its built bundle).
 */
export async function bundleTasksApp(outFile, arbor) {
  await build({
    stdin: {
      contents: "export { createTasksApp } from './ts/examples/tasks/app.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'error',
    plugins: [
      {
        name: 'arbor-package',
        setup(b) {
          b.onResolve({ filter: ARBOR_SOURCES }, () => ({ path: arbor, external: true }));
          b.onResolve({ filter: BUILTIN }, (args) => ({
            path: args.path.startsWith('node:') ? args.path : `node:${args.path}`,
            external: true,
          }));
        },
      },
    ],
  });
  return outFile;
}

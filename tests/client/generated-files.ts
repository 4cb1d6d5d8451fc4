/**
 * The generated files this repository checks in, and how each is made: the reference applications' route
 * contracts (`types:export`, beside each application, and the tasks one again for the type tests) and the clients of the tasks and echo applications (`client:export`), with
 * imports pointing into this tree instead of at the package. `ARBOR_UPDATE_GENERATED=1 vitest run
 * tests/client/generated.test.ts` writes them again.
 */
import { join, resolve } from 'node:path';
import { createArticlesApp } from '../../ts/examples/articles/app.js';
import { securitySchemes } from '../../ts/examples/docs.js';
import { createProductsApp } from '../../ts/examples/products/app.js';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { exportClient, exportRouteTypes } from '../../ts/src/index.js';
import { createEchoApp } from './echo-app.js';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface GeneratedFile {
  /** Relative to the repository root. */
  file: string;
  /** The `arbor` command line that writes it, from the root. */
  command: string[];
  make(): string;
}

/** A reference application's declarations, beside it: its controllers read `req.valid()` typed by them. */
function referenceRoutes(name: string, make: () => Parameters<typeof exportRouteTypes>[0]): GeneratedFile {
  return {
    file: `ts/examples/${name}/routes.d.ts`,
    // Compared in process only: the CLI's --check is proven on the tasks files below.
    command: [],
    make: () =>
      exportRouteTypes(make(), {
        module: '../../src/index.js',
        exportOptions: { security: securitySchemes },
      }),
  };
}

export const GENERATED: GeneratedFile[] = [
  referenceRoutes('tasks', createTasksApp),
  referenceRoutes('products', createProductsApp),
  referenceRoutes('articles', createArticlesApp),
  {
    file: 'tests/types/augmented/tasks-routes.d.ts',
    command: ['types:export', '--app', 'tests/client/tasks-entry.ts', '--module', '../../../ts/src/index.js'],
    make: () => exportRouteTypes(createTasksApp(), { module: '../../../ts/src/index.js' }),
  },
  {
    file: 'tests/client/generated/tasks-client.ts',
    command: [
      'client:export',
      '--app',
      'tests/client/tasks-entry.ts',
      '--client-module',
      '../../../ts/src/client/index.js',
    ],
    make: () => exportClient(createTasksApp(), { clientModule: '../../../ts/src/client/index.js' }),
  },
  {
    file: 'tests/client/generated/echo-client.ts',
    command: [],
    make: () => exportClient(createEchoApp(), { clientModule: '../../../ts/src/client/index.js' }),
  },
];

export const absolute = (file: string): string => join(ROOT, file);

/**
 * The generated files this repository checks in, and how each is made: the tasks application's route
 * contracts (`types:export`) and the clients of the tasks and echo applications (`client:export`), with
 * imports pointing into this tree instead of at the package. `ARBOR_UPDATE_GENERATED=1 vitest run
 * tests/client/generated.test.ts` writes them again.
 */
import { join, resolve } from 'node:path';
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

export const GENERATED: GeneratedFile[] = [
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

import type * as Arbor from '../../ts/src/index.js';

/** The test application, on the package as the runtime imported it (with compiled contracts, when given). */
export function createRuntimeApp(
  arbor: typeof Arbor,
  contracts?: Arbor.ApplicationConfig['contracts'],
): Arbor.Application;

import type * as Arbor from '../../ts/src/index.js';

/** The test application, on the package as the runtime imported it. */
export function createRuntimeApp(arbor: typeof Arbor): Arbor.Application;

/**
 * The engine and the server the framework suites run on: the default (WebAssembly) engine, or the
 * TypeScript reference engine with `ARBOR_TEST_ENGINE=reference` (to tell a framework bug from an engine
 * bug); Arbor's own HTTP/1.1 server, or node:http's with `ARBOR_TEST_SERVER=node` (the `node-server`
 * project of vitest.config.ts runs the framework suites so).
 */
import type { ApplicationConfig } from '../../../ts/src/app/index.js';
import { createReferenceEngine } from '../../support/reference-engine/index.js';

export const testEngine = process.env.ARBOR_TEST_ENGINE === 'reference' ? createReferenceEngine : undefined;

/** The server the suites run on. */
export const testServer: 'arbor' | 'node' = process.env.ARBOR_TEST_SERVER === 'node' ? 'node' : 'arbor';

/** `config` with the test engine and server added. */
export function withEngine(config: ApplicationConfig = {}): ApplicationConfig {
  return {
    ...(testEngine === undefined ? {} : { engine: testEngine }),
    ...(testServer === 'node' ? { server: 'node' as const } : {}),
    ...config,
  };
}

/**
 * The engine and the server the framework suites run on: the default (WebAssembly) engine, or the
 * TypeScript reference engine with `ARBOR_TEST_ENGINE=reference` (to tell a framework bug from an engine
 * bug); node:http's server (the default), or Arbor's own HTTP/1.1 server with `ARBOR_TEST_SERVER=arbor`
 * (the `arbor-server` project of vitest.config.ts runs the framework suites so).
 */
import type { ApplicationConfig } from '../../../ts/src/app/index.js';
import { createReferenceEngine } from '../../support/reference-engine/index.js';

export const testEngine = process.env.ARBOR_TEST_ENGINE === 'reference' ? createReferenceEngine : undefined;

/** The server the suites run on: node:http (the default), or Arbor's own with `ARBOR_TEST_SERVER=arbor`. */
export const testServer: 'arbor' | 'node' = process.env.ARBOR_TEST_SERVER === 'arbor' ? 'arbor' : 'node';

/** `config` with the test engine and server added. */
export function withEngine(config: ApplicationConfig = {}): ApplicationConfig {
  return {
    ...(testEngine === undefined ? {} : { engine: testEngine }),
    ...(testServer === 'arbor' ? { server: 'arbor' as const } : {}),
    ...config,
  };
}

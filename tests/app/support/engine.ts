/**
 * The engine the framework suites run on: the default (WebAssembly) engine, or the TypeScript reference
 * engine with `ARBOR_TEST_ENGINE=reference` (to tell a framework bug from an engine bug).
 */
import type { ApplicationConfig } from '../../../ts/src/app/index.js';
import { createReferenceEngine } from '../../support/reference-engine/index.js';

export const testEngine = process.env.ARBOR_TEST_ENGINE === 'reference' ? createReferenceEngine : undefined;

/** `config` with the test engine added. */
export function withEngine(config: ApplicationConfig = {}): ApplicationConfig {
  return testEngine === undefined ? config : { engine: testEngine, ...config };
}

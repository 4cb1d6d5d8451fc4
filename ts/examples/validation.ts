/**
 * How the reference applications validate: requests always (their annotations are the contract), and
 * responses against their documented schemas — a mismatch throws under test (`NODE_ENV=test`), so their
 * suites prove the documents, and is logged with the route otherwise.
 */
import type { ValidateOptions } from '../src/app/index.js';

export const REFERENCE_VALIDATION: ValidateOptions = { responses: true };

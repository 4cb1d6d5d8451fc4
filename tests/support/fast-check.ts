/**
 * fast-check settings shared by the property tests: a failure names its seed and counterexample path
 * and the command that replays it. Import it for its effect, first, in every file that calls
 * `fc.assert`:
 *
 * @example
 * import './fast-check.js';
 *
 * Replay: `ARBOR_FC_SEED=<seed> ARBOR_FC_PATH=<path> node_modules/.bin/vitest run <file> -t <test>` runs
 * that property from that seed, straight to the shrunk counterexample (docs/TESTING.md).
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

const seed = process.env.ARBOR_FC_SEED;
const path = process.env.ARBOR_FC_PATH;

function report(details: fc.RunDetails<unknown>): void {
  if (!details.failed) return;
  // The path belongs to this property: `-t` keeps the file's other properties out of the replay.
  const { testPath, currentTestName } = expect.getState();
  const file = testPath === undefined ? '<file>' : relative(process.cwd(), testPath);
  const name = currentTestName?.split(' > ').at(-1);
  const replay =
    `replay: ARBOR_FC_SEED=${details.seed}` +
    (details.counterexamplePath === null ? '' : ` ARBOR_FC_PATH=${details.counterexamplePath}`) +
    ` node_modules/.bin/vitest run ${file}` +
    (name === undefined ? '' : ` -t ${JSON.stringify(name)}`);
  // Printed as well as thrown: an assertion library may shorten the thrown message.
  console.error(`[fast-check] seed ${details.seed}; ${replay}`);
  throw new Error(`${fc.defaultReportMessage(details)}\n${replay}`);
}

fc.configureGlobal({
  ...(seed === undefined ? {} : { seed: Number(seed) }),
  ...(path === undefined ? {} : { path }),
  // Used for asynchronous properties too (fast-check refuses `asyncReporter` beside it).
  reporter: report,
});

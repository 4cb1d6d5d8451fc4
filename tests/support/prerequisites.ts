/**
 * What a test needs that the checkout may lack (the wasm build, dist/, a reference app), and what a
 * missing one means.
 *
 * By hand (`vitest run` on a fresh checkout) a missing prerequisite skips the tests that need it, with
 * the reason in the title. Under `npm test` and CI, `ARBOR_REQUIRE_WASM=1` is set (scripts/tasks.mjs and
 * the Node-version runs): then nothing is skipped, and the tests run and fail with the reason, so a
 * missing build can never pass as green.
 *
 * @example
 * const missing = engineBuilt ? null : 'the wasm build (npm run build)';
 * describe.skipIf(skipWhenMissing(missing))(titled('demo server', missing), () => {
 *   beforeAll(() => assertPresent(missing));
 * });
 */

/** True under `npm test` and CI: a missing prerequisite is a failure, never a skip. */
export const prerequisitesRequired = process.env.ARBOR_REQUIRE_WASM === '1';

/** Whether to skip: only when something is missing and this run does not require it. */
export const skipWhenMissing = (missing: string | null): boolean =>
  missing !== null && !prerequisitesRequired;

/** The title, with the reason when the tests are skipped for it. */
export const titled = (title: string, missing: string | null): string =>
  missing === null ? title : `${title} — ${prerequisitesRequired ? 'MISSING' : 'SKIPPED'}: ${missing}`;

/** Throws the reason when the prerequisite is missing (the first line of a test that needs it). */
export function assertPresent(missing: string | null): void {
  if (missing !== null)
    throw new Error(`missing prerequisite (ARBOR_REQUIRE_WASM=1 makes it a failure): ${missing}`);
}

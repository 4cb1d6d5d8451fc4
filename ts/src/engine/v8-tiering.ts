/**
 * V8 flags that make the WebAssembly lookup reach optimised code sooner, set only when the application
 * asks for them with `ARBOR_V8_TIERING=on`.
 *
 * V8 runs a WebAssembly function on its baseline compiler (Liftoff) until the function has used up a
 * tiering budget, then re-compiles it with the optimising compiler (TurboFan), which runs the lookup about
 * twice as fast. A smaller budget than V8's makes the lookup tier up sooner; a much smaller one would also
 * tier up the cold registration code and slow start-up.
 *
 * The flags are process-wide: they apply to every WebAssembly module of the process, and on V8 13 one of
 * them changes how V8 tiers up JavaScript too. Process-wide switches are the application's to set, so a
 * plain import sets none; what they buy a server is small (docs/PERFORMANCE.md, "Start-up from the route cache").
 * The switch is an environment variable because the module loads, and the flags must be set, before any
 * application option is read. `v8.setFlagsFromString` prints an error on stderr for a flag the running V8
 * does not know, so each flag is listed with the V8 versions that know it.
 *
 * @example
 * ```sh
 * ARBOR_V8_TIERING=on node server.js
 * ```
 */
import { v8 } from '../builtins.js';

interface TieringFlag {
  flag: string;
  /** First and last V8 major version that know the flag and need it set. */
  fromV8: number;
  toV8: number;
}

const FLAGS: readonly TieringFlag[] = [
  // The budget is counted in (roughly) bytes executed; V8's default is 13,000,000.
  { flag: '--wasm-tiering-budget=20000', fromV8: 12, toV8: Number.POSITIVE_INFINITY },
  // V8 13 (Node 24) turns the "efficiency mode" tiering heuristics on by default, which delays tier-up
  // (of JavaScript as well as WebAssembly); V8 12 (Node 22) has them off, and V8 14 (Node 26) no longer
  // has the flag.
  { flag: '--no-efficiency-mode-for-tiering-heuristics', fromV8: 13, toV8: 13 },
];

/** The switch's name: `on` sets the flags, `off` or unset leaves V8's defaults. */
export const TIERING_ENV = 'ARBOR_V8_TIERING';

/** The flags `ARBOR_V8_TIERING=on` sets on a V8 of this version (`process.versions.v8`, e.g. `13.6.233.17-node.53`). */
export function tieringFlags(v8Version: string): string[] {
  const major = Number.parseInt(v8Version, 10);
  return FLAGS.filter((f) => major >= f.fromV8 && major <= f.toV8).map((f) => f.flag);
}

/** An `ARBOR_V8_TIERING` value other than `on`, `off` or empty: a misspelt switch must not pass for `off`. */
class TieringSwitchError extends Error {
  readonly code = 'INVALID_V8_TIERING';
}

/**
 * Sets {@link tieringFlags} for the running V8 when `ARBOR_V8_TIERING=on`; unset, empty or `off` sets
 * nothing. Throws a {@link TieringSwitchError} for any other value.
 */
export function applyTieringFlags(
  setting = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    TIERING_ENV
  ],
): void {
  if (setting === undefined || setting === '' || setting === 'off') return;
  if (setting !== 'on') {
    throw new TieringSwitchError(
      `${TIERING_ENV}='${setting}': the value must be 'on' (set Arbor's V8 tiering flags) or 'off' (V8's defaults)`,
    );
  }
  for (const flag of tieringFlags(process.versions.v8)) v8.setFlagsFromString(flag);
}

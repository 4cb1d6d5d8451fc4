/**
 * The V8 flags Arbor sets so that the WebAssembly lookup reaches optimised code quickly.
 *
 * V8 runs a WebAssembly function on its baseline compiler (Liftoff) until the function has used up a
 * tiering budget, then re-compiles it with the optimising compiler (TurboFan), which runs the lookup about
 * twice as fast. A smaller budget than V8's makes the lookup tier up sooner, so the first lookups of a
 * process are faster; a much smaller one would also tier up the cold registration code and slow start-up
 * (figures: docs/PERFORMANCE.md, "Start-up from the route cache").
 *
 * The flags are process-wide: they apply to every WebAssembly module of the process, not just Arbor's.
 * `ARBOR_V8_TIERING=off` leaves V8's defaults alone. `v8.setFlagsFromString` prints an error on stderr
 * for a flag the running V8 does not know, so each flag is listed with the V8 versions that know it.
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
  // further; V8 12 (Node 22) has them off, and V8 14 (Node 26) no longer has the flag.
  { flag: '--no-efficiency-mode-for-tiering-heuristics', fromV8: 13, toV8: 13 },
];

/** The flags Arbor sets on a V8 of this version (`process.versions.v8`, e.g. `13.6.233.17-node.53`). */
export function tieringFlags(v8Version: string): string[] {
  const major = Number.parseInt(v8Version, 10);
  return FLAGS.filter((f) => major >= f.fromV8 && major <= f.toV8).map((f) => f.flag);
}

/** Sets {@link tieringFlags} for the running V8, unless `ARBOR_V8_TIERING=off`. */
export function applyTieringFlags(): void {
  if (process.env.ARBOR_V8_TIERING === 'off') return;
  for (const flag of tieringFlags(process.versions.v8)) v8.setFlagsFromString(flag);
}

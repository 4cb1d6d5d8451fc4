/**
 * The V8 flags the engine sets when the application asks (`ARBOR_V8_TIERING=on`; unset, it sets none:
 * `v8-tiering.test.ts`) must be ones the running V8 knows: `v8.setFlagsFromString` prints an error on
 * stderr for an unknown flag (Node 26 dropped one that Node 24 needs). CI runs this suite on Node 22, 24
 * and 26, so each line checks its own V8 here.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { tieringFlags } from '../../ts/src/engine/v8-tiering.js';

describe('V8 tiering flags', () => {
  test.each([
    ['12.4.254.21-node.57', ['--wasm-tiering-budget=20000']],
    ['13.6.233.17-node.53', ['--wasm-tiering-budget=20000', '--no-efficiency-mode-for-tiering-heuristics']],
    ['14.6.202.34-node.34', ['--wasm-tiering-budget=20000']],
  ])('V8 %s gets %j', (version, flags) => {
    expect(tieringFlags(version)).toEqual(flags);
  });

  test(`every flag is known to this Node's V8 (${process.version}, V8 ${process.versions.v8})`, () => {
    const known = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    for (const flag of tieringFlags(process.versions.v8)) {
      const name = flag.replace(/^--(no-)?/, '').replace(/=.*$/, '');
      expect(known, flag).toMatch(new RegExp(`^\\s+--${name}\\b`, 'm'));
    }
  });
});

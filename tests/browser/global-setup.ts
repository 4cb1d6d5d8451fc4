/**
 * vitest globalSetup for the browser tests: makes sure Debian's Chromium is at /usr/bin/chromium
 * (installing it with apt-get when missing). Register it in vitest.config.ts (`test.globalSetup`); the
 * browser test file also calls the same check itself, so the suite works before that.
 */
// @ts-expect-error: a plain .mjs script without type declarations.
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';

export default function setup(): void {
  (ensureChromium as () => string)();
}

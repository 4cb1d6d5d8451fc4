#!/usr/bin/env node
/**
 * Makes sure Debian's headless-capable Chromium is at /usr/bin/chromium, installing it with apt-get when it
 * is missing. The browser tests (tests/browser) call this before launching playwright-core against it;
 * playwright's own browser downloads are deliberately not used (no binary fetched from a CDN at test time).
 *
 * Usage: node scripts/ensure-chromium.mjs   (exit 0 when Chromium is present afterwards, 1 otherwise)
 * Exported: ensureChromium() → the executable path; throws with a clear message when it cannot install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CHROMIUM_PATH = '/usr/bin/chromium';

function run(command, args) {
  console.log(`[ensure-chromium] $ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw new Error(`[ensure-chromium] could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`[ensure-chromium] \`${command} ${args.join(' ')}\` exited with status ${result.status}`);
  }
}

export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  console.log(`[ensure-chromium] ${CHROMIUM_PATH} is missing; installing Debian's chromium package`);
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(
      `[ensure-chromium] ${CHROMIUM_PATH} is missing and this process is not root, so apt-get cannot install it.\n` +
        '  Install it yourself: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium',
    );
  }
  try {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n` +
        '  The browser tests need Chromium at /usr/bin/chromium. Check network access to the Debian mirrors,\n' +
        '  or install it by hand: apt-get update && apt-get install -y --no-install-recommends chromium',
    );
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`[ensure-chromium] apt-get finished but ${CHROMIUM_PATH} still does not exist`);
  }
  console.log(`[ensure-chromium] installed ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    console.log(`[ensure-chromium] ready: ${ensureChromium()}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

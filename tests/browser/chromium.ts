/** Launching the system Chromium with playwright-core (no browser download), and screenshot paths. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
// @ts-expect-error: a plain .mjs script without type declarations.
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';

export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

export async function launchChromium(): Promise<Browser> {
  const executablePath = (ensureChromium as () => string)();
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Whether a request stays on this machine: loopback hosts, or data:/blob:/about: URLs that need no network. */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

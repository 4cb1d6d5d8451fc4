/**
 * Launching the system Chromium with playwright-core (no browser download), one per test file, the
 * servers its pages load, and screenshot paths.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations.
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';
import type { Application, ArborServer } from '../../ts/src/app/index.js';

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

/**
 * One Chromium for the test file that calls this at its top level: launched before the file's tests and
 * closed after them, with the generous timeouts a headless browser needs on a loaded two-core machine.
 * Returns the browser, to be called once it is launched (in a hook or a test).
 */
export function chromiumForFile(): () => Browser {
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined)
      throw new Error('Chromium is not launched yet: call the browser in a hook or a test');
    return browser;
  };
}

/**
 * Starts `app`'s server on a free loopback port. `origin` is what pages load it by: `http://127.0.0.1:…`,
 * or `http://localhost:…` for a page that needs a secure context (a browser takes a `Secure` cookie from
 * plain HTTP on localhost only).
 */
export async function serve(
  app: Application,
  host: '127.0.0.1' | 'localhost' = '127.0.0.1',
): Promise<{ server: ArborServer; origin: string }> {
  const server = app.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

/** Whether a request stays on this machine: loopback hosts, or data:/blob:/about: URLs that need no network. */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

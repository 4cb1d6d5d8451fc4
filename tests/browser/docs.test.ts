/**
 * The documentation pages in a real headless Chromium, served by the products application over real
 * HTTP on loopback (the stand-in app until `ts/examples/products` mounts its docs):
 * - the static page (JavaScript off) shows every operation of the document;
 * - Swagger UI loads with zero requests leaving loopback and lists every operation;
 * - "Try it out" + "Execute" on GET /api/products shows a 200.
 * Screenshots go to test-results/screenshots/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenApiDocument } from '../../ts/src/openapi/index.js';
import { isLocal, launchChromium, SCREENSHOTS } from './chromium.js';

// A headless Chromium and a served app: generous on a loaded two-core machine (the default is 30 s).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Starts tests/browser/serve-products.ts under tsx; resolves with its origin once it listens. */
function startServer(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'tests/browser/serve-products.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /LISTENING (\d+) (.*)\n/.exec(output);
      if (m) {
        console.info(`[browser] subject: ${m[2]}`);
        resolve({ child, origin: `http://127.0.0.1:${m[1]}` });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`the docs server exited (${code}) before listening:\n${output}`)),
    );
  });
}

let browser: Browser;
let server: ChildProcess;
let origin: string;
let operations: { method: string; path: string }[];

beforeAll(async () => {
  ({ child: server, origin } = await startServer());
  const document = (await (await fetch(`${origin}/api/docs.json`)).json()) as OpenApiDocument;
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method, path })),
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

describe('docs in a headless browser', () => {
  it('the static page (no JavaScript) shows every operation', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    const headings = await page.locator('section.operation:not(.schema) h3').allInnerTexts();
    const shown = headings.map((h) =>
      h
        .replace(/\s+deprecated$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(shown.sort()).toEqual(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort());
    expect(operations.length).toBeGreaterThan(2);
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-static.png'), fullPage: true });
    expect(requests).toEqual([`${origin}/docs`]);
    await context.close();
  });

  it('Swagger UI loads from loopback only, lists the operations, and "Try it out" on GET /api/products gives 200', {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${origin}/api/docs/ui`);
    const blocks = page.locator('.opblock');
    await expect.poll(() => blocks.count(), { timeout: 20_000 }).toBe(operations.length);
    const listed = await page
      .locator('.opblock-summary [data-path]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(new Set(listed)).toEqual(new Set(operations.map((o) => o.path)));
    await page.screenshot({ path: join(SCREENSHOTS, 'swagger-ui.png'), fullPage: true });

    const list = page.locator('.opblock.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/api/products"]'),
    });
    await list.locator('.opblock-summary-control').first().click();
    await list.locator('button.try-out__btn').click();
    const apiResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/products');
    await list.locator('button.execute').click();
    expect((await apiResponse).status()).toBe(200);
    const status = list.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 10_000 }).toBe('200');
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'swagger-ui-try-it-out.png'), fullPage: true });

    expect(requests.filter((u) => !isLocal(u))).toEqual([]);
    expect(requests).toContain(`${origin}/api/docs.json`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

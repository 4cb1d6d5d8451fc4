/**
 * Swagger UI uploads a product image (issue 40), in a real headless Chromium against the products
 * application over loopback, once with the OpenAPI 3.1.0 document and once with the 3.0.3 one: the
 * `@param {file} image.formData` field is shown as a file picker, "Authorize" takes the bearer token,
 * "Try it out" with a file set on the picker (playwright's `setInputFiles`) sends a multipart form, and
 * the application answers 201; the image is then served back byte for byte. Screenshots go to
 * test-results/screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAME_ORIGIN, securitySchemes } from '../../ts/examples/docs.js';
import { createProductsApp, registerProducts } from '../../ts/examples/products/app.js';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { mountDocs, type OpenApiVersion } from '../../ts/src/openapi/index.js';
import { chromiumForFile, isLocal, SCREENSHOTS, serve } from './chromium.js';

/** A small PNG's worth of bytes (the type is what the picker's file declares). */
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 7]);
const TOKEN = 'browser-test-token';

/** The products application with its docs in `version` (the reference app itself for 3.1.0). */
function productsApp(version: OpenApiVersion, imageDir: string): Application {
  const logger = memoryLogger();
  if (version === '3.1.0')
    return createProductsApp({ token: TOKEN, imageDir, config: { logger }, requestLog: logger });
  const app = new Application({
    logger,
    openapi: { info: { title: 'Products API', version: '1.0.0' }, servers: [SAME_ORIGIN] },
  });
  registerProducts(app, { token: TOKEN, imageDir });
  mountDocs(app, { openapi: '3.0.3', security: securitySchemes });
  return app;
}

const browser = chromiumForFile();

describe.each(['3.1.0', '3.0.3'] as const)('Swagger UI on the OpenAPI %s document', (version) => {
  let server: ArborServer;
  let origin: string;
  let imageDir: string;

  beforeAll(async () => {
    imageDir = mkdtempSync(join(tmpdir(), 'arbor-browser-images-'));
    ({ server, origin } = await serve(productsApp(version, imageDir)));
  });
  afterAll(async () => {
    await server?.closeGracefully(1000);
    rmSync(imageDir, { recursive: true, force: true });
  });

  it('"Try it out" on POST /api/products/{id}/image uploads the picked file: 201, then served back', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 1000 } });
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
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.locator('.information-container .version-stamp').textContent()).toContain(
      version === '3.1.0' ? 'OAS 3.1' : 'OAS 3.0',
    );

    // Writes need the bearer token: given once in the Authorize dialog.
    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input').first().fill(TOKEN);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux .auth-btn-wrapper button.btn-done').click();

    const operation = page.locator('.opblock.opblock-post', {
      has: page.locator('.opblock-summary-path[data-path="/api/products/{id}/image"]'),
    });
    await operation.locator('.opblock-summary-control').first().click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="id"] input').fill('1');
    // The form field is a file picker, not a text box.
    const picker = operation.locator('tr[data-property-name="image"] input[type="file"]');
    await expect.poll(() => picker.count()).toBe(1);
    await picker.setInputFiles({ name: 'lamp.png', mimeType: 'image/png', buffer: IMAGE });

    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/products/1/image',
    );
    const answered = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/products/1/image',
    );
    await operation.locator('button.execute').click();
    const request = await sent;
    expect(request.headers().authorization).toBe(`Bearer ${TOKEN}`);
    expect(request.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // Chromium does not hand the file's bytes to the test (a blob-backed body): the 201 says what arrived.
    const response = await answered;
    expect(response.status()).toBe(201);
    expect(await response.json()).toEqual({
      size: IMAGE.byteLength,
      mimetype: 'image/png',
      filename: 'lamp.png',
    });
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 10_000 }).toBe('201');
    await operation.screenshot({ path: join(SCREENSHOTS, `swagger-ui-upload-${version}.png`) });

    const image = await fetch(`${origin}/api/products/1/image`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(IMAGE);

    expect(requests.filter((u) => !isLocal(u))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

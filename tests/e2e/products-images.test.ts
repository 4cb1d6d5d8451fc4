/**
 * The products application's images (issue 40): `POST /api/products/:id/image` takes one picture as a
 * multipart form (bearer token, validated against its `@param {file} image.formData` annotation) and keeps
 * it in the image folder, moved out of the upload's temporary folder; `GET` serves it back as it was sent.
 * Over both transports; the application's response validation holds every answer to the document.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createProductsApp, IMAGE_LIMIT } from '../../ts/examples/products/app.js';
import { type Application, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from '../app/support/engine.js';
import { listen } from '../app/support/transport.js';

const auth = { Authorization: 'Bearer demo-token' };
/** A PNG's signature and a little more: what matters is that the bytes come back unchanged. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 255]);

type Part = [name: string, bytes: Uint8Array | string, type?: string, filename?: string];

/** A multipart body as fetch writes it, with its Content-Type. */
async function form(...parts: Part[]): Promise<{ headers: Record<string, string>; body: Uint8Array }> {
  const data = new FormData();
  for (const [name, bytes, type, filename] of parts) {
    if (typeof bytes === 'string' && type === undefined) data.append(name, bytes);
    else data.append(name, new Blob([bytes as BlobPart], { type: type ?? '' }), filename ?? 'upload');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return {
    headers: { 'Content-Type': request.headers.get('content-type') ?? '' },
    body: new Uint8Array(await request.arrayBuffer()),
  };
}

/** Resolves once `folder` is empty, or fails after 5 s. */
async function emptied(folder: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (readdirSync(folder).length > 0) {
    if (Date.now() > deadline) throw new Error(`left behind: ${readdirSync(folder).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Requests answered as fetch `Response`s (the bytes of an image, not text), over HTTP or `app.fetch()`. */
interface Caller {
  call(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

const transports: { name: string; connect(app: Application): Promise<Caller> }[] = [
  {
    name: 'http',
    async connect(app) {
      const { server, base } = await listen(app);
      return { call: (path, init) => fetch(base + path, init), close: () => server.closeGracefully(1000) };
    },
  },
  {
    name: 'fetch',
    async connect(app) {
      return {
        call: (path, init) =>
          app.fetch(new Request(`http://arbor.test${path}`, init), { remoteAddress: '127.0.0.1' }),
        close: async () => {},
      };
    },
  },
];

describe.each(transports)('product images over $name', (transport) => {
  let client: Caller;
  let images: string;
  let uploads: string;
  beforeEach(async () => {
    images = mkdtempSync(join(tmpdir(), 'arbor-products-images-test-'));
    uploads = mkdtempSync(join(tmpdir(), 'arbor-products-uploads-test-'));
    client = await transport.connect(
      createProductsApp({
        config: withEngine({ logger: memoryLogger(), uploads: { tmpDir: uploads } }),
        requestLog: memoryLogger(),
        imageDir: images,
      }),
    );
  });
  afterEach(() => client.close());

  const upload = async (id: number, parts: Part[], headers: Record<string, string> = auth) => {
    const { headers: type, body } = await form(...parts);
    return client.call(`/api/products/${id}/image`, {
      method: 'POST',
      headers: { ...headers, ...type },
      body: body as BodyInit,
    });
  };

  test('upload → 201 with what was stored; GET serves the same bytes with their type', async () => {
    const reply = await upload(2, [['image', PNG, 'image/png', 'héadphones.png']]);
    expect(reply.status).toBe(201);
    expect(await reply.json()).toEqual({
      size: PNG.byteLength,
      mimetype: 'image/png',
      filename: 'héadphones.png',
    });
    expect(reply.headers.get('location')).toBe('/api/products/2/image');
    // Moved out of the upload's temporary folder into the image folder, not copied.
    await emptied(uploads);
    const stored = readdirSync(images);
    expect(stored).toHaveLength(1);
    expect(new Uint8Array(readFileSync(join(images, stored[0] ?? '')))).toEqual(PNG);

    const image = await client.call('/api/products/2/image');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  test('a second upload replaces the first, whose file is deleted', async () => {
    expect((await upload(1, [['image', PNG, 'image/png', 'a.png']])).status).toBe(201);
    const second = new Uint8Array([1, 2, 3]);
    const reply = await upload(1, [['image', second, 'image/webp', 'b.webp']]);
    expect(await reply.json()).toEqual({ size: 3, mimetype: 'image/webp', filename: 'b.webp' });
    expect(readdirSync(images)).toHaveLength(1);
    const image = await client.call('/api/products/1/image');
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(second);
  });

  test('deleting the product deletes its image', async () => {
    expect((await upload(3, [['image', PNG, 'image/png']])).status).toBe(201);
    expect((await client.call('/api/products/3', { method: 'DELETE', headers: auth })).status).toBe(204);
    expect(readdirSync(images)).toEqual([]);
    expect((await client.call('/api/products/3/image')).status).toBe(404);
  });

  test.each<[label: string, send: () => Promise<Response>, status: number, body: unknown]>([
    [
      'no bearer token → 401',
      () => upload(1, [['image', PNG, 'image/png']], {}),
      401,
      { error: 'Missing bearer token', code: 401 },
    ],
    [
      'no image → 400 naming it',
      () => upload(1, [['caption', 'a lamp']]),
      400,
      { error: 'Missing required fields: image', code: 400, fields: ['image'] },
    ],
    [
      'two images → 400',
      () =>
        upload(1, [
          ['image', PNG, 'image/png'],
          ['image', PNG, 'image/png'],
        ]),
      400,
      { error: expect.stringMatching(/image must be a single file \(got 2\)/), code: 400, fields: ['image'] },
    ],
    [
      'a file that is not an accepted image type → 400',
      () => upload(1, [['image', '<svg/>', 'image/svg+xml', 'x.svg']]),
      400,
      {
        error: expect.stringMatching(
          /image must be image\/png or image\/jpeg or image\/gif or image\/webp \(got image\/svg\+xml/,
        ),
        code: 400,
        fields: ['image'],
      },
    ],
    [
      'the image as a plain field → 400',
      () => upload(1, [['image', 'not a file']]),
      400,
      { error: expect.stringMatching(/image must be a file/), code: 400, fields: ['image'] },
    ],
    [
      'a JSON body → 415',
      () =>
        client.call('/api/products/1/image', {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: '{"image":"x"}',
        }),
      415,
      { error: 'Expected a multipart/form-data body, got application/json', code: 415 },
    ],
    [
      'no such product → 404',
      () => upload(99, [['image', PNG, 'image/png']]),
      404,
      { error: 'Product not found', code: 404 },
    ],
    [
      'one byte over 5 MiB → 413',
      () => upload(1, [['image', new Uint8Array(IMAGE_LIMIT + 1), 'image/png']]),
      413,
      { error: expect.stringMatching(/larger than the limit of 5242880 bytes/), code: 413 },
    ],
  ])('%s', async (_label, send, status, body) => {
    const reply = await send();
    expect(reply.status).toBe(status);
    expect(await reply.json()).toEqual(body);
    await emptied(uploads);
    expect(readdirSync(images)).toEqual([]);
  });

  test('exactly 5 MiB is taken', async () => {
    const reply = await upload(1, [['image', new Uint8Array(IMAGE_LIMIT), 'image/jpeg', 'big.jpg']]);
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ size: IMAGE_LIMIT });
  });

  test.each([
    ['a product without an image', '/api/products/4/image'],
    ['no such product', '/api/products/99/image'],
  ])('GET: %s → 404', async (_label, path) => {
    const reply = await client.call(path);
    expect(reply.status).toBe(404);
    expect(await reply.json()).toEqual({ error: expect.any(String), code: 404 });
  });
});

/**
 * Forms streamed to the handler (`.uploads({ stream: true })`, `req.parts()`), on both servers and through
 * `app.fetch()`: parts in order with their bytes, nothing on disk; each limit refused one past it with the
 * same 413 as the files-on-disk mode; a part left unread is skipped; a handler that stops reading midway
 * and a client that leaves midway leave nothing open. Memory under a 200 MiB streamed upload:
 * uploads-memory.test.ts; the form contract on a streamed form: form-validation.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, test } from 'vitest';
import {
  Application,
  memoryLogger,
  type Request,
  type Response,
  type UploadLimits,
} from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { BOUNDARY, bytes, FORM_TYPE, multipart } from './support/multipart-form.js';
import { listen, transports } from './support/transport.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every part, in order: a field's value, a file's name, type, size and hash (read to its end). */
async function hashEveryPart(req: Request, res: Response): Promise<Response> {
  const parts: unknown[] = [];
  for await (const part of req.parts()) {
    if (part.type === 'field') {
      parts.push({ field: part.fieldname, value: part.value });
      continue;
    }
    const hash = createHash('sha256');
    let size = 0;
    part.stream.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
    });
    await pipeline(part.stream, hash);
    parts.push({
      file: part.fieldname,
      filename: part.filename,
      type: part.mimetype,
      size,
      sha256: hash.digest('hex'),
    });
  }
  return res.json(parts);
}

function application(folder: string, uploads: UploadLimits = {}): Application {
  const app = new Application(
    withEngine({
      uploads: { ...uploads, tmpDir: folder, stream: true },
      bodyLimit: 16 * 2 ** 20,
      logger: memoryLogger(),
    }),
  );
  app.post('/hash', hashEveryPart);
  // Reads the fields only: every file is left unread, and skipped when the next part is asked for.
  app.post('/fields', async (req, res) => {
    const fields: string[] = [];
    for await (const part of req.parts())
      if (part.type === 'field') fields.push(`${part.fieldname}=${part.value}`);
    return res.json(fields);
  });
  app.post('/body', (req, res) => res.json(req.body()));
  app
    .post('/on-disk', (req, res) => res.json(req.parts()))
    .uploads({ stream: false, tmpDir: mkdtempSync(join(tmpdir(), 'arbor-on-disk-')) });
  return app;
}

describe.each(transports)('over $name', (transport) => {
  const folder = mkdtempSync(join(tmpdir(), 'arbor-streamed-'));
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
    // Nothing of a streamed form is ever written to disk.
    expect(readdirSync(folder)).toEqual([]);
  });
  const start = async (uploads: UploadLimits = {}) => {
    const client = await transport.connect(application(folder, uploads));
    close = () => client.close();
    return client;
  };
  /** A POST carrying `body` as a form. */
  const form = (body: Uint8Array) => ({ method: 'POST', headers: { 'content-type': FORM_TYPE }, body });

  test('fields and files in order, byte for byte', async () => {
    const client = await start();
    const big = bytes(3 * 2 ** 20 + 17, 0x62);
    const reply = await client.request(
      '/hash',
      form(
        multipart([
          { name: 'title', content: 'Résumé' },
          { name: 'doc', filename: 'big.bin', type: 'application/octet-stream', content: big },
          { name: 'empty', filename: 'empty.txt', type: 'text/plain', content: '' },
          { name: 'title', content: 'again' },
        ]),
      ),
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json()).toEqual([
      { field: 'title', value: 'Résumé' },
      {
        file: 'doc',
        filename: 'big.bin',
        type: 'application/octet-stream',
        size: big.byteLength,
        sha256: sha256(big),
      },
      {
        file: 'empty',
        filename: 'empty.txt',
        type: 'text/plain',
        size: 0,
        sha256: sha256(new Uint8Array(0)),
      },
      { field: 'title', value: 'again' },
    ]);
  });

  test('a file left unread is skipped: the parts after it still arrive', async () => {
    const client = await start();
    const reply = await client.request(
      '/fields',
      form(
        multipart([
          { name: 'a', content: '1' },
          { name: 'doc', filename: 'x.bin', content: bytes(512 * 1024) },
          { name: 'b', content: '2' },
        ]),
      ),
    );
    expect(reply.json()).toEqual(['a=1', 'b=2']);
  });

  const limits: [string, UploadLimits, Parameters<typeof multipart>[0], RegExp][] = [
    [
      'fileSize',
      { fileSize: 1000 },
      [{ name: 'doc', filename: 'x', content: bytes(1001) }],
      /uploads\.fileSize/,
    ],
    [
      'files',
      { files: 1 },
      [
        { name: 'a', filename: 'a', content: 'x' },
        { name: 'b', filename: 'b', content: 'y' },
      ],
      /uploads\.files/,
    ],
    ['fieldSize', { fieldSize: 10 }, [{ name: 'f', content: 'x'.repeat(11) }], /uploads\.fieldSize/],
    [
      'fields',
      { fields: 1 },
      [
        { name: 'f', content: '1' },
        { name: 'g', content: '2' },
      ],
      /uploads\.fields/,
    ],
  ];
  test.each(limits)(
    '%s: one past the limit is a 413 naming it, at the limit is taken',
    async (_name, uploads, parts, message) => {
      const client = await start(uploads);
      const refused = await client.request('/hash', form(multipart(parts)));
      expect(refused.status, refused.text).toBe(413);
      expect(refused.json().error).toMatch(message);
      const taken = await client.request(
        '/hash',
        form(
          multipart(
            parts.slice(0, 1).map((p) => ({
              ...p,
              content: typeof p.content === 'string' ? p.content.slice(0, 10) : p.content.subarray(0, 1000),
            })),
          ),
        ),
      );
      expect(taken.status, taken.text).toBe(200);
    },
  );

  test('a malformed body is a 400 thrown by the loop', async () => {
    const client = await start();
    const cut = multipart([{ name: 'doc', filename: 'x', content: bytes(1000) }]).subarray(0, 500);
    const reply = await client.request('/hash', form(cut));
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json().error).toMatch(/^Malformed multipart body/);
  });

  test('req.body() on a streamed form, req.parts() on a form read before the handler: a 500 that says why', async () => {
    const client = await start();
    const body = multipart([{ name: 'f', content: '1' }]);
    expect((await client.request('/body', form(body))).status).toBe(500);
    expect((await client.request('/on-disk', form(body))).status).toBe(500);
  });
});

describe('over HTTP: nothing stays open', () => {
  const folder = mkdtempSync(join(tmpdir(), 'arbor-streamed-open-'));
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });
  const openDescriptors = () => readdirSync('/proc/self/fd').length;
  async function settled(check: () => string | null): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (let problem = check(); problem !== null; problem = check()) {
      if (Date.now() > deadline) throw new Error(problem);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Sends a form's head and the first 256 KiB of a 64 MiB file; `leave`: then closes the socket. */
  function partialUpload(port: number, path: string, leave: boolean): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (/\r\n\r\n/.test(received)) socket.destroy();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
      const head = Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="doc"; filename="big.bin"\r\n\r\n`,
      );
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: ${64 * 2 ** 20}\r\n\r\n`,
      );
      socket.write(Buffer.concat([head, Buffer.alloc(256 * 1024, 0x61)]));
      if (leave) setImmediate(() => socket.destroy());
    });
  }

  test('a handler that stops reading midway, and a client that leaves midway', async () => {
    const app = new Application(
      withEngine({ uploads: { tmpDir: folder, stream: true }, bodyLimit: 2 ** 30 }),
    );
    const outcomes: string[] = [];
    // Takes 64 KiB of the file, then answers without reading the rest.
    app.post('/stop', async (req, res) => {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        for await (const chunk of part.stream) if ((chunk as Buffer).byteLength > 0) break;
        return res.json({ stopped: true });
      }
      return res.json({ stopped: false });
    });
    // Reads everything: the client leaves first, and the loop learns it.
    app.post('/read-all', async (req, res) => {
      try {
        for await (const part of req.parts())
          if (part.type === 'file') await pipeline(part.stream, createHash('sha256'));
        outcomes.push('complete');
      } catch (error) {
        outcomes.push(String((error as { status?: number }).status));
        throw error;
      }
      return res.json({});
    });
    const { server, port } = await listen(app);
    close = () => server.closeGracefully(1000);
    expect(await partialUpload(port, '/stop', false)).toMatch(/^HTTP\/1\.1 200 /);
    const baseline = openDescriptors();

    const stopped = await Promise.all(Array.from({ length: 20 }, () => partialUpload(port, '/stop', false)));
    for (const status of stopped) expect(status).toMatch(/^HTTP\/1\.1 200 /);
    await Promise.all(Array.from({ length: 20 }, () => partialUpload(port, '/read-all', true)));
    await settled(() =>
      outcomes.length === 20 ? null : `${outcomes.length} of 20 handlers learned the client left`,
    );
    // node:http reads the closed connection as the client leaving (499); Arbor's server reads its FIN as a
    // body ended early (400: the client may still be reading). Either way the loop learns it.
    for (const outcome of outcomes) expect(['499', '400']).toContain(outcome);
    await settled(() => {
      const open = openDescriptors();
      return open <= baseline ? null : `${open - baseline} descriptors still open`;
    });
    expect(readdirSync(folder)).toEqual([]);
  });
});

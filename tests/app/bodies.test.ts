/** Request bodies: read before the handler, parsed by Content-Type, limited (both transports). */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { type Client, transports } from './support/transport.js';

function buildApp(): Application {
  const app = new Application(withEngine({ bodyLimit: 64 }));
  app.post('/json', (req, res) => res.json({ json: req.json() }));
  app.post('/body', (req, res) => {
    const body = req.body();
    return res.json({
      body: body instanceof Uint8Array ? `bytes:${body.byteLength}` : body,
      isJson: req.isJson(),
    });
  });
  return app;
}

describe.each(transports)('bodies over $name', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await transport.connect(buildApp());
  });
  afterAll(() => client.close());
  const post = (path: string, body: string | Uint8Array | undefined, contentType?: string) =>
    client.request(path, {
      method: 'POST',
      headers: contentType === undefined ? {} : { 'Content-Type': contentType },
      ...(body === undefined ? {} : { body }),
    });

  test.each([
    ['JSON object', '/json', '{"a":1}', 'application/json', { json: { a: 1 } }],
    ['JSON with charset', '/json', '[1,2]', 'application/json; charset=utf-8', { json: [1, 2] }],
    ['vendor +json', '/json', '{"b":true}', 'application/vnd.api+json', { json: { b: true } }],
    ['empty body → {}', '/json', undefined, undefined, { json: {} }],
    // fetch labels a string body text/plain, so bytes stand for a body sent without Content-Type.
    ['no Content-Type, JSON text', '/json', Buffer.from('{"c":3}'), undefined, { json: { c: 3 } }],
    [
      'form → record, repeated keys as arrays',
      '/body',
      'a=1&b=x+y&a=2',
      'application/x-www-form-urlencoded',
      { body: { a: ['1', '2'], b: 'x y' }, isJson: false },
    ],
    ['text', '/body', 'héllo', 'text/plain; charset=utf-8', { body: 'héllo', isJson: false }],
    [
      'latin1 text',
      '/body',
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      'text/plain; charset=latin1',
      { body: 'café', isJson: false },
    ],
    [
      'binary stays bytes',
      '/body',
      new Uint8Array([1, 2, 3]),
      'application/octet-stream',
      { body: 'bytes:3', isJson: false },
    ],
    ['JSON via body()', '/body', '{"d":4}', 'application/json', { body: { d: 4 }, isJson: true }],
  ] as const)('%s', async (_label, path, body, contentType, expected) => {
    const reply = await post(path, body, contentType);
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual(expected);
  });

  test.each([
    ['over the configured limit (64 bytes)', 413, '/json', 'x'.repeat(65), 'application/json'],
    ['no Content-Type and not JSON, where JSON is expected', 400, '/json', Buffer.from('hello'), undefined],
    ['a form where JSON is expected', 415, '/json', 'a=1', 'application/x-www-form-urlencoded'],
  ] as const)('%s → %i', async (_label, status, path, body, contentType) => {
    const reply = await post(path, body, contentType);
    expect(reply.status).toBe(status);
    expect(reply.json().code).toBe(status);
  });
});

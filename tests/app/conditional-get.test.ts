/**
 * Conditional GET for handlers' answers (`etag: true`): a weak ETag from the body's bytes, 304 when the
 * client already holds it, and nothing done where it must not be (other methods and statuses, streams,
 * the setting off).
 */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { transports } from './support/transport.js';

function application(etag: boolean): Application {
  const app = new Application(withEngine({ etag }));
  app.get('/doc', (_q, res) => res.json({ title: 'Arbor', body: 'x'.repeat(100) }));
  app.get('/other', (_q, res) => res.json({ title: 'Other' }));
  app.get('/tagged', (_q, res) => res.header('ETag', '"v7"').send('seven'));
  app.get('/dated', (_q, res) => res.header('Last-Modified', 'Wed, 01 Jan 2025 00:00:00 GMT').send('dated'));
  app.get('/stream', (_q, res) => res.send(Readable.from(['a', 'b'])));
  app.get('/missing', (_q, res) => res.status(404).json({ error: 'Not Found', code: 404 }));
  app.post('/doc', (_q, res) => res.json({ title: 'Arbor' }));
  return app;
}

/**
 * What a browser revalidating sends beside its validator. (fetch adds `Cache-Control: no-cache` to a
 * request with a validator unless told otherwise, and `no-cache` asks for the whole answer.)
 */
const REVALIDATE = { 'Cache-Control': 'max-age=0' };

describe.each(transports)('etag: true, over $name', (transport) => {
  test('a weak ETag on a 200, and 304 without a body when If-None-Match matches it', async () => {
    const client = await transport.connect(application(true));
    try {
      const first = await client.request('/doc');
      const tag = first.headers.get('etag');
      expect(tag).toMatch(/^W\/"[0-9a-v]+~[\w-]+"$/);
      const again = await client.request('/doc', { headers: { ...REVALIDATE, 'If-None-Match': tag ?? '' } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('content-type')).toBeNull();
      // Another body, another tag; a list holding the tag matches too, and `*` matches anything.
      const other = await client.request('/other', {
        headers: { ...REVALIDATE, 'If-None-Match': tag ?? '' },
      });
      expect(other.status).toBe(200);
      expect(other.headers.get('etag')).not.toBe(tag);
      const listed = await client.request('/doc', {
        headers: { ...REVALIDATE, 'If-None-Match': `"nope", ${tag}` },
      });
      expect(listed.status).toBe(304);
      expect(
        (await client.request('/doc', { headers: { ...REVALIDATE, 'If-None-Match': '*' } })).status,
      ).toBe(304);
    } finally {
      await client.close();
    }
  });

  test('a handler ETag is kept and matched; Last-Modified answers If-Modified-Since', async () => {
    const client = await transport.connect(application(true));
    try {
      const tagged = await client.request('/tagged', { headers: { ...REVALIDATE, 'If-None-Match': '"v7"' } });
      expect(tagged.status).toBe(304);
      expect(tagged.headers.get('etag')).toBe('"v7"');
      const dated = await client.request('/dated', {
        headers: { ...REVALIDATE, 'If-Modified-Since': 'Thu, 02 Jan 2025 00:00:00 GMT' },
      });
      expect(dated.status).toBe(304);
      const stale = await client.request('/dated', {
        headers: { ...REVALIDATE, 'If-Modified-Since': 'Tue, 31 Dec 2024 00:00:00 GMT' },
      });
      expect(stale.status).toBe(200);
      expect(stale.text).toBe('dated');
    } finally {
      await client.close();
    }
  });

  test('left alone: a stream, a 404, a POST, and a request that asks for no cache', async () => {
    const client = await transport.connect(application(true));
    try {
      const stream = await client.request('/stream');
      expect(stream.headers.get('etag')).toBeNull();
      expect(stream.text).toBe('ab');
      expect((await client.request('/missing')).headers.get('etag')).toBeNull();
      expect((await client.request('/doc', { method: 'POST' })).headers.get('etag')).toBeNull();
      const tag = (await client.request('/doc')).headers.get('etag') ?? '';
      const revalidate = await client.request('/doc', {
        headers: { ...REVALIDATE, 'If-None-Match': tag, 'Cache-Control': 'no-cache' },
      });
      expect(revalidate.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  test('off by default: no ETag, no 304', async () => {
    const client = await transport.connect(application(false));
    try {
      const reply = await client.request('/doc', { headers: { ...REVALIDATE, 'If-None-Match': '*' } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('etag')).toBeNull();
    } finally {
      await client.close();
    }
  });
});

test('HEAD is answered like GET (304 included), without a body', async () => {
  const app = application(true);
  const head = await app.fetch(new Request('http://x/doc', { method: 'HEAD' }));
  const tag = head.headers.get('etag') ?? '';
  expect(tag).not.toBe('');
  const matched = await app.fetch(
    new Request('http://x/doc', { method: 'HEAD', headers: { ...REVALIDATE, 'If-None-Match': tag } }),
  );
  expect(matched.status).toBe(304);
});

/**
 * Body limits per route and per group, over the application's: each limit taken at exactly its size and
 * refused one byte past it (413 naming the limit and where to raise it), declared (Content-Length) and
 * streamed (chunked), on both servers and through `app.fetch()`.
 */
import { describe, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { transports } from './support/transport.js';

function application(): Application {
  const app = new Application(withEngine({ bodyLimit: 100 }));
  const echo = (
    req: import('../../ts/src/app/index.js').Request,
    res: import('../../ts/src/app/index.js').Response,
  ) => res.json({ bytes: req.rawBody().byteLength });
  app.post('/app', echo);
  app.post('/route', echo).bodyLimit(10);
  app
    .group('/big', (big) => {
      big.post('/group', echo);
      big.post('/route', echo).bodyLimit(20);
      big.group('/inner', (inner) => inner.post('/nested', echo)).bodyLimit(300);
    })
    .bodyLimit(1000);
  return app;
}

const LIMITS: [string, number][] = [
  ['/app', 100],
  ['/route', 10],
  ['/big/group', 1000],
  ['/big/route', 20],
  ['/big/inner/nested', 300],
];

describe.each(transports)('over $name', (transport) => {
  test.each(LIMITS)('%s takes %i bytes and refuses one more', async (path, limit) => {
    const client = await transport.connect(application());
    try {
      for (const chunked of [false, true]) {
        const exact = await client.request(path, { method: 'POST', body: 'x'.repeat(limit), chunked });
        expect(exact.status, `${limit} bytes, chunked: ${chunked}`).toBe(200);
        expect(exact.json()).toEqual({ bytes: limit });
        const over = await client.request(path, { method: 'POST', body: 'x'.repeat(limit + 1), chunked });
        expect(over.status, `${limit + 1} bytes, chunked: ${chunked}`).toBe(413);
        expect(over.json()).toEqual({
          error: `Request body larger than the limit of ${limit} bytes (raise it with bodyLimit on the route, its group or the application)`,
          code: 413,
        });
      }
    } finally {
      await client.close();
    }
  });
});

test.each([-1, 1.5, Number.NaN, 2 ** 60])('bodyLimit(%s) is refused at registration', (bytes) => {
  const app = new Application(withEngine());
  expect(() => app.post('/x', (_q, res) => res.send()).bodyLimit(bytes)).toThrow(RangeError);
  expect(() => app.group('/g', () => {}).bodyLimit(bytes)).toThrow(/expected a whole number of bytes/);
});

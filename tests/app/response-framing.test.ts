/**
 * One framing per message: whatever framing fields a handler sets, a response carries either a
 * Content-Length or `Transfer-Encoding: chunked`, never both (RFC 9112 §6.1: a proxy in front may read
 * the two differently from the client, and a response can hide inside another). Read off the raw socket,
 * on the suite's server.
 */
import { afterEach, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { rawGet, rawRequest } from './support/raw.js';
import { listen } from './support/transport.js';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** The head's field names, lower-case, as the server wrote them. */
const fieldNames = (head: string) =>
  head
    .split('\r\n')
    .slice(1)
    .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());

const cases: { name: string; path: string; framing: 'content-length' | 'transfer-encoding'; body: string }[] =
  [
    { name: 'Transfer-Encoding set, a whole body', path: '/whole', framing: 'content-length', body: 'hello' },
    {
      name: 'Transfer-Encoding and Content-Length set, a whole body',
      path: '/both',
      framing: 'content-length',
      body: 'hello',
    },
    { name: 'Transfer-Encoding set, no body', path: '/empty', framing: 'content-length', body: '' },
    {
      name: 'Transfer-Encoding set, a streamed body',
      path: '/stream',
      framing: 'transfer-encoding',
      body: '5\r\nhello\r\n0\r\n\r\n',
    },
  ];

test.each(cases)('$name: one framing ($framing)', async ({ path, framing, body }) => {
  const app = new Application(withEngine());
  app.get('/whole', (_req, res) => res.header('Transfer-Encoding', 'chunked').send('hello'));
  app.get('/both', (_req, res) =>
    res.header('Transfer-Encoding', 'chunked').header('Content-Length', '5').send('hello'),
  );
  app.get('/empty', (_req, res) => res.header('Transfer-Encoding', 'chunked').status(200).send());
  app.get('/stream', (_req, res) =>
    res.header('Transfer-Encoding', 'chunked').send(
      (async function* () {
        yield 'hello';
      })(),
    ),
  );
  const { server, port } = await listen(app);
  close = () => server.closeGracefully(1000);

  const reply = await rawRequest(port, rawGet(path));
  const names = fieldNames(reply.head);
  expect(reply.status).toBe(200);
  expect(names.filter((name) => name === 'content-length' || name === 'transfer-encoding')).toEqual([
    framing,
  ]);
  expect(reply.body).toBe(body);
});

/**
 * Content negotiation (`req.accepts`, `acceptsLanguages`, `acceptsEncodings`, `acceptsCharsets`), as a
 * table of request fields and offers against what Express answers for them (the same `accepts` package).
 */
import { describe, expect, test } from 'vitest';
import { Application, Request } from '../../ts/src/app/index.js';
import { headersFromMap } from '../../ts/src/core/request.js';
import { withEngine } from './support/engine.js';
import { transports } from './support/transport.js';

function request(headers: Record<string, string>): Request {
  return new Request({
    method: 'GET',
    path: '/',
    query: '',
    ip: '',
    headers: headersFromMap(new Map(Object.entries(headers))),
  });
}

describe('req.accepts', () => {
  test.each<[string | undefined, string[], string | false]>([
    [undefined, ['json', 'html'], 'json'],
    ['*/*', ['html', 'json'], 'html'],
    ['application/json', ['html', 'json'], 'json'],
    ['text/html, application/json;q=0.9', ['json', 'html'], 'html'],
    ['text/html;q=0.5, application/json', ['html', 'json'], 'json'],
    ['text/*', ['application/json', 'text/plain'], 'text/plain'],
    ['image/png', ['json', 'html'], false],
    ['application/json;q=0', ['json'], false],
    ['application/xml, */*;q=0.1', ['json', 'xml'], 'xml'],
    ['text/html', ['text/html', 'text/*'], 'text/html'],
    ['application/vnd.api+json', ['application/vnd.api+json', 'json'], 'application/vnd.api+json'],
  ])('Accept: %s, offers %j → %j', (accept, offers, best) => {
    expect(request(accept === undefined ? {} : { accept }).accepts(...offers)).toBe(best);
  });

  test('without offers: the client list, best first', () => {
    expect(request({ accept: 'text/html;q=0.5, application/json' }).accepts()).toEqual([
      'application/json',
      'text/html',
    ]);
  });
});

describe('languages, encodings and charsets', () => {
  test.each<[string, Record<string, string>, string[], string | false]>([
    ['languages', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' }, ['en', 'fr'], 'fr'],
    ['languages', { 'accept-language': 'de' }, ['en', 'fr'], false],
    ['languages', {}, ['en', 'fr'], 'en'],
    ['encodings', { 'accept-encoding': 'gzip, br, *;q=0.1' }, ['br', 'gzip'], 'gzip'],
    ['encodings', { 'accept-encoding': 'gzip;q=0.8, br' }, ['gzip', 'br'], 'br'],
    ['encodings', { 'accept-encoding': 'gzip' }, ['br', 'identity'], 'identity'],
    ['encodings', { 'accept-encoding': 'identity;q=0' }, ['identity'], false],
    ['charsets', { 'accept-charset': 'utf-8, iso-8859-1;q=0.5' }, ['iso-8859-1', 'utf-8'], 'utf-8'],
  ])('%s: %j, offers %j → %j', (kind, headers, offers, best) => {
    const req = request(headers);
    const answer =
      kind === 'languages'
        ? req.acceptsLanguages(...offers)
        : kind === 'encodings'
          ? req.acceptsEncodings(...offers)
          : req.acceptsCharsets(...offers);
    expect(answer).toBe(best);
  });
});

describe.each(transports)('a handler that negotiates, over $name', (transport) => {
  test('answers JSON, HTML, or 406', async () => {
    const app = new Application(withEngine());
    app.get('/task', (req, res) => {
      switch (req.accepts('json', 'html')) {
        case 'json':
          return res.json({ title: 'Write' });
        case 'html':
          return res.html('<h1>Write</h1>');
        default:
          return res.status(406).json({ error: 'Not Acceptable', code: 406 });
      }
    });
    const client = await transport.connect(app);
    try {
      expect((await client.request('/task', { headers: { Accept: 'text/html' } })).text).toBe(
        '<h1>Write</h1>',
      );
      expect((await client.request('/task', { headers: { Accept: 'application/json' } })).json()).toEqual({
        title: 'Write',
      });
      expect((await client.request('/task', { headers: { Accept: 'image/png' } })).status).toBe(406);
    } finally {
      await client.close();
    }
  });
});

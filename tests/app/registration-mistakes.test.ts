/**
 * Issue 13: mistakes in a pattern are caught when the route is registered, with the message a user reads
 * (the core's words, the byte position, the registration's file and line).
 */
import { describe, expect, test } from 'vitest';
import { Application } from '../../ts/src/app/index.js';
import { RouteError } from '../../ts/src/errors.js';
import { withEngine } from './support/engine.js';

const thrown = (register: (app: Application) => void): RouteError => {
  const app = new Application(withEngine({}));
  try {
    register(app);
  } catch (error) {
    if (error instanceof RouteError) return error;
    throw error;
  }
  throw new Error('no error');
};

describe('pattern mistakes at registration', () => {
  test('a bare word that is no shortcut lists the shortcuts and suggests the nearest', () => {
    const error = thrown((app) => app.get('/a/:id<integer>', (_q, r) => r));
    expect(error).toMatchObject({ code: 'INVALID_CONSTRAINT', pattern: '/a/:id<integer>', position: 7 });
    expect(error.message).toContain("unknown constraint shortcut 'integer': did you mean int?");
    expect(error.message).toContain(
      'the shortcuts are int, slug, alpha, alnum, uuid, date, year, month, day',
    );
    expect(error.message).toMatch(/registered at .*registration-mistakes\.test\.ts:\d+/);
  });

  test('a regex that spells the word out still works', async () => {
    const app = new Application(withEngine({}));
    app.get('/a/:id<(?:integer)>', (req, res) => res.send(req.param('id')));
    expect(await (await app.fetch(new Request('http://t/a/integer'))).text()).toBe('integer');
    expect((await app.fetch(new Request('http://t/a/int'))).status).toBe(404);
  });

  test.each([
    ['/a/:id<[>', 7, 'unclosed character class'],
    ['/x/{^(a$}', 3, 'unclosed group'],
  ])('%s reports the regex crate’s own message at the constraint (%i: %s)', (pattern, position, words) => {
    const error = thrown((app) => app.get(pattern, (_q, r) => r));
    expect(error).toMatchObject({ code: 'INVALID_CONSTRAINT', pattern, position });
    expect(error.message).toContain(words);
    expect(error.message).not.toMatch(/unclosed '<'|unclosed regex block/);
  });
});

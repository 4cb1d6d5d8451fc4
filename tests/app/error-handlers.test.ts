/**
 * The application's answers: `onError` and `notFound` on the application and on groups, over both
 * transports (and, through the `arbor-server` project, the own server). Every status Arbor raises once a
 * request is read reaches `onError` with its original error object; the nearest handler wins; a handler
 * that fails still leaves the default answer, logged once; other libraries' errors keep their status; and
 * `problemDetails` answers RFC 9457 documents, checked against the RFC's member types.
 */
import { Ajv } from 'ajv';
import createError from 'http-errors';
import { errors as undiciErrors } from 'undici';
import { describe, expect, test } from 'vitest';
import {
  type Application,
  HttpError,
  memoryLogger,
  RequestValidationError,
  timeout,
} from '../../ts/src/app/index.js';
import { appStarter, transports } from './support/transport.js';

const json = { 'Content-Type': 'application/json' };

/** An error handler that records what it was given and answers `{ seen }` with the error's status. */
function recording(app: Application, seen: unknown[], tag = 'app'): void {
  app.onError((err, _req, res) => {
    seen.push(err);
    const status = err instanceof HttpError ? err.status : 500;
    return res.status(status).json({ by: tag, name: err.name, message: err.message });
  });
}

/**
 * @api POST /validated
 * @param {integer} limit.query.required - How many
 */

describe.each(transports)('onError and notFound over $name', (transport) => {
  const start = appStarter(transport);

  // Each row: how the request fails, and the status and error class the handler must see.
  test.each<
    [
      label: string,
      setup: (app: Application) => void,
      path: string,
      init: object,
      status: number,
      type: unknown,
    ]
  >([
    [
      'a thrown Error',
      (app) =>
        app.get('/x', () => {
          throw new Error('boom');
        }),
      '/x',
      {},
      500,
      Error,
    ],
    [
      'a thrown HttpError',
      (app) =>
        app.get('/x', () => {
          throw new HttpError(409, 'taken');
        }),
      '/x',
      {},
      409,
      HttpError,
    ],
    [
      'a rejected promise',
      (app) =>
        app.get('/x', async () => {
          throw new HttpError(404, 'no task');
        }),
      '/x',
      {},
      404,
      HttpError,
    ],
    [
      'a method the path lacks (405)',
      (app) => app.get('/x', (_r, res) => res.json({})),
      '/x',
      { method: 'DELETE' },
      405,
      HttpError,
    ],
    [
      'a method no route has (501)',
      (app) => app.get('/x', (_r, res) => res.json({})),
      '/y',
      { method: 'PROPFIND' },
      501,
      HttpError,
    ],
    [
      'a body past the route limit (413)',
      (app) => app.post('/x', (req, res) => res.json(req.json())).bodyLimit(8),
      '/x',
      { method: 'POST', headers: json, body: JSON.stringify({ much: 'too long for eight bytes' }) },
      413,
      HttpError,
    ],
    [
      'an encoded body (415)',
      (app) => app.post('/x', (req, res) => res.json(req.json())),
      '/x',
      { method: 'POST', headers: { ...json, 'Content-Encoding': 'x-unknown' }, body: '{}' },
      415,
      HttpError,
    ],
    [
      'malformed JSON (400)',
      (app) => app.post('/x', (req, res) => res.json(req.json())),
      '/x',
      { method: 'POST', headers: json, body: '{"a":' },
      400,
      HttpError,
    ],
    [
      'a timeout (503)',
      (app) => {
        app.middleware(timeout(30));
        app.get('/x', () => new Promise(() => {}));
      },
      '/x',
      {},
      503,
      HttpError,
    ],
    [
      "a global middleware's refusal (429)",
      (app) => {
        app.middleware(() => {
          throw new HttpError(429, 'slow down', { headers: { 'Retry-After': '1' } });
        });
        app.get('/x', (_r, res) => res.json({}));
      },
      '/x',
      {},
      429,
      HttpError,
    ],
    [
      'a validation refusal (400)',
      (app) => app.post('/validated', (_r, res) => res.json({})).validate(),
      '/validated?limit=many',
      { method: 'POST' },
      400,
      RequestValidationError,
    ],
  ])('%s reaches onError with its original error', async (_label, setup, path, init, status, type) => {
    const seen: unknown[] = [];
    const c = await start(
      (app) => {
        recording(app, seen);
        setup(app);
      },
      { logger: memoryLogger() },
    );
    const reply = await c.request(path, init);
    expect(reply.status, reply.text).toBe(status);
    expect(reply.json().by).toBe('app');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(type);
    if (seen[0] instanceof HttpError) expect(seen[0].status).toBe(status);
  });

  test('the handler gets the very object thrown, and the request', async () => {
    const thrown = new Error('exact');
    let got: unknown;
    let path = '';
    const c = await start(
      (app) => {
        app.onError((err, req, res) => {
          got = err;
          path = req.path;
          return res.status(500).json({ ok: false });
        });
        app.get('/exact', () => {
          throw thrown;
        });
      },
      { logger: memoryLogger() },
    );
    await c.request('/exact?q=1');
    expect(got).toBe(thrown);
    expect(path).toBe('/exact');
  });

  test('a thrown non-Error is wrapped, its value the cause', async () => {
    let got: Error | undefined;
    const c = await start(
      (app) => {
        app.onError((err, _req, res) => {
          got = err;
          return res.status(500).json({});
        });
        app.get('/x', () => {
          throw 'a string';
        });
      },
      { logger: memoryLogger() },
    );
    expect((await c.request('/x')).status).toBe(500);
    expect(got).toBeInstanceOf(Error);
    expect(got?.cause).toBe('a string');
  });

  test('an unmatched path goes to notFound, then to onError as a 404 without it, and a fallback takes it first', async () => {
    const seen: unknown[] = [];
    let c = await start((app) => {
      recording(app, seen);
      app.notFound((req, res) => res.status(404).json({ missing: req.path }));
      app.get('/x', (_r, res) => res.json({}));
    });
    let reply = await c.request('/nothing/here');
    expect([reply.status, reply.json()]).toEqual([404, { missing: '/nothing/here' }]);
    expect(seen).toHaveLength(0);

    c = await start((app) => {
      recording(app, seen);
      app.get('/x', (_r, res) => res.json({}));
    });
    reply = await c.request('/nothing');
    expect(reply.status).toBe(404);
    expect(reply.json().by).toBe('app');
    expect(seen).toHaveLength(1);
    expect((seen[0] as HttpError).status).toBe(404);

    c = await start((app) => {
      app.notFound((_req, res) => res.status(404).json({ by: 'notFound' }));
      app.fallback((_req, res) => res.status(404).json({ by: 'fallback' }));
    });
    expect((await c.request('/anything')).json()).toEqual({ by: 'fallback' });
  });

  test('a 404 thrown by a handler goes to onError, not notFound', async () => {
    const c = await start((app) => {
      app.notFound((_req, res) => res.status(404).json({ by: 'notFound' }));
      app.onError((err, _req, res) => res.status(404).json({ by: 'onError', message: err.message }));
      app.get('/tasks/:id', () => {
        throw new HttpError(404, 'no such task');
      });
    });
    expect((await c.request('/tasks/7')).json()).toEqual({ by: 'onError', message: 'no such task' });
  });

  test("the nearest wins: a route's group, an inner group, then the application", async () => {
    const c = await start(
      (app) => {
        recording(app, [], 'app');
        app.get('/top', () => {
          throw new Error('top');
        });
        app.group('/api', (api) => {
          api.onError((err, _req, res) => res.status(500).json({ by: 'api', message: err.message }));
          api.notFound((_req, res) => res.status(404).json({ by: 'api-notFound' }));
          api.get('/a', () => {
            throw new Error('a');
          });
          api.group('/v2', (v2) => {
            v2.onError((_err, _req, res) => res.status(500).json({ by: 'v2' }));
            v2.get('/b', () => {
              throw new Error('b');
            });
          });
          api.group('/plain', (plain) => {
            plain.get('/c', () => {
              throw new Error('c');
            });
          });
        });
      },
      { logger: memoryLogger() },
    );
    expect((await c.request('/top')).json().by).toBe('app');
    expect((await c.request('/api/a')).json()).toEqual({ by: 'api', message: 'a' });
    expect((await c.request('/api/v2/b')).json()).toEqual({ by: 'v2' });
    expect((await c.request('/api/plain/c')).json().by).toBe('api');
    // Unmatched paths take the innermost group whose prefix holds them.
    expect((await c.request('/api/unknown')).json()).toEqual({ by: 'api-notFound' });
    expect((await c.request('/api/v2/unknown')).json()).toEqual({ by: 'api-notFound' });
    const outside = await c.request('/elsewhere');
    expect([outside.status, outside.json().by]).toEqual([404, 'app']);
  });

  test('a group given its handlers after its routes still answers for them', async () => {
    const c = await start((app) => {
      const api = app.group('/api', (g) => {
        g.get('/x', () => {
          throw new HttpError(418, 'teapot');
        });
      });
      api.onError((err, _req, res) => res.status(418).json({ late: err.message }));
    });
    expect((await c.request('/api/x')).json()).toEqual({ late: 'teapot' });
  });

  test.each<[string, (app: Application) => void]>([
    [
      'throws',
      (app) =>
        app.onError(() => {
          throw new Error('handler broke');
        }),
    ],
    [
      'rejects',
      (app) =>
        app.onError(async () => {
          throw new Error('handler broke');
        }),
    ],
    ['returns no Response', (app) => app.onError((() => ({ not: 'a response' })) as never)],
  ])('an error handler that %s leaves the default answer, logged once', async (_label, give) => {
    const logger = memoryLogger();
    const c = await start(
      (app) => {
        give(app);
        app.get('/bad', () => {
          throw new HttpError(409, 'conflict');
        });
      },
      { logger },
    );
    const reply = await c.request('/bad');
    expect([reply.status, reply.json()]).toEqual([409, { error: 'conflict', code: 409 }]);
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]?.message).toMatch(/error handler/);
  });

  test('a failure the handler answers is logged once; an HttpError is not logged', async () => {
    const logger = memoryLogger();
    const c = await start(
      (app) => {
        app.onError((err, _req, res) =>
          err instanceof HttpError ? res.status(err.status).json({}) : res.status(500).json({ sorry: true }),
        );
        app.get('/bug', () => {
          throw new TypeError('a bug');
        });
        app.get('/answer', () => {
          throw new HttpError(403);
        });
      },
      { logger },
    );
    expect((await c.request('/bug')).json()).toEqual({ sorry: true });
    expect((await c.request('/answer')).status).toBe(403);
    expect(logger.errors.map((e) => e.message)).toEqual([expect.stringMatching(/GET \/bug failed: a bug/)]);
  });

  describe("other libraries' errors", () => {
    test.each<[string, () => unknown, number, string]>([
      ['http-errors 404', () => createError(404, 'no such user'), 404, 'no such user'],
      [
        'http-errors 422 with headers',
        () => createError(422, 'bad input', { headers: { 'X-Why': 'field' } }),
        422,
        'bad input',
      ],
      ['http-errors 503 (not exposed)', () => createError(503, 'db pool empty'), 503, 'Service Unavailable'],
      ['http-errors 500 exposed on purpose', () => createError(500, 'shown', { expose: true }), 500, 'shown'],
      ['statusCode 429', () => Object.assign(new Error('later'), { statusCode: 429 }), 429, 'later'],
      [
        'a status out of range',
        () => Object.assign(new Error('secret'), { status: 200 }),
        500,
        'Internal Server Error',
      ],
      [
        'undici ResponseError 502',
        () => new undiciErrors.ResponseError('upstream said no', 502, { headers: {}, body: null }),
        502,
        'Bad Gateway',
      ],
    ])('%s keeps its status; the message shows only when exposed', async (_label, make, status, message) => {
      const logger = memoryLogger();
      const c = await start(
        (app) =>
          app.get('/x', () => {
            throw make();
          }),
        { logger },
      );
      const reply = await c.request('/x');
      expect([reply.status, reply.json()]).toEqual([status, { error: message, code: status }]);
      if (_label.includes('headers')) expect(reply.headers.get('x-why')).toBe('field');
      // A 5xx is a failure to log; a 4xx an answer.
      expect(logger.errors.length).toBe(status >= 500 ? 1 : 0);
    });
  });

  describe('typed error bodies', () => {
    test('HttpError with a body answers that body', async () => {
      const c = await start((app) =>
        app.get('/x', () => {
          throw new HttpError(422, 'invalid', { body: { errors: { body: ["title can't be blank"] } } });
        }),
      );
      const reply = await c.request('/x');
      expect([reply.status, reply.json()]).toEqual([422, { errors: { body: ["title can't be blank"] } }]);
    });
  });

  describe('problemDetails', () => {
    const problemSchema = {
      type: 'object',
      required: ['type', 'title', 'status', 'detail'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer', minimum: 100, maximum: 599 },
        detail: { type: 'string' },
        instance: { type: 'string' },
      },
    };
    const isProblem = new Ajv().compile(problemSchema);

    test.each<[string, (app: Application) => void, string, object, number]>([
      [
        'a thrown HttpError',
        (app) =>
          app.get('/x', () => {
            throw new HttpError(409, 'taken', { type: 'https://example.com/taken' });
          }),
        '/x',
        {},
        409,
      ],
      ['an unmatched path', () => {}, '/nowhere', {}, 404],
      ['a 405', (app) => app.get('/x', (_r, res) => res.json({})), '/x', { method: 'PUT' }, 405],
      [
        'a bug',
        (app) =>
          app.get('/x', () => {
            throw new Error('internal detail');
          }),
        '/x',
        {},
        500,
      ],
      [
        'a validation refusal',
        (app) => app.post('/validated', (_r, res) => res.json({})).validate(),
        '/validated?limit=x',
        { method: 'POST' },
        400,
      ],
    ])('%s is an RFC 9457 document', async (_label, setup, path, init, status) => {
      const c = await start(setup, { problemDetails: true, logger: memoryLogger() });
      const reply = await c.request(path, init);
      expect(reply.status).toBe(status);
      expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = reply.json();
      expect(isProblem(body), JSON.stringify(isProblem.errors)).toBe(true);
      expect(body.status).toBe(status);
      expect(body.instance).toBe(path.split('?')[0]);
      if (status === 500) expect(body.detail).toBe('Internal Server Error');
      if (status === 409) expect(body.type).toBe('https://example.com/taken');
      else expect(body.type).toBe('about:blank');
      if (status === 400)
        expect(body.errors).toEqual([expect.objectContaining({ in: 'query', name: 'limit' })]);
    });
  });
});

describe('app.request', () => {
  test('takes a relative path, a URL or a Request, with init', async () => {
    const { Application } = await import('../../ts/src/app/index.js');
    const { withEngine } = await import('./support/engine.js');
    const app = new Application(withEngine({}));
    app.get('/ping', (req, res) => res.json({ q: req.query('q') ?? null }));
    app.post('/echo', (req, res) => res.status(201).json(req.json()));
    expect(await (await app.request('/ping?q=1')).json()).toEqual({ q: '1' });
    expect(await (await app.request(new URL('http://example.com/ping'))).json()).toEqual({ q: null });
    const created = await app.request('/echo', { method: 'POST', headers: json, body: '{"a":1}' });
    expect([created.status, await created.json()]).toEqual([201, { a: 1 }]);
    const request = new Request('http://localhost/ping?q=r');
    expect(await (await app.request(request)).json()).toEqual({ q: 'r' });
  });
});

describe("the server's own refusals take the application's error shape", () => {
  /** Each row: what is sent on a raw connection, and the status the server refuses it with. */
  const ROWS: [label: string, payload: string, status: number][] = [
    ['a garbage request line', 'GARBAGE\r\n\r\n', 400],
    ['two Host headers', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
    ['a head over 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`, 431],
    ['a head never finished', 'GET / HTTP/1.1\r\nHost: x\r\n', 408],
    ['an expectation other than 100-continue', 'GET / HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n', 417],
    // The kernel's refusal, before routing: the connection stays open unless the client closes it.
    [
      'a target past maxUrlLength',
      `GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      414,
    ],
  ];

  test.each([true, false])('problemDetails: %s', async (problems) => {
    const { listen } = await import('./support/transport.js');
    const { rawRequest } = await import('./support/raw.js');
    const { Application } = await import('../../ts/src/app/index.js');
    const { withEngine } = await import('./support/engine.js');
    const app = new Application(
      withEngine({
        problemDetails: problems,
        headersTimeout: 300,
        requestTimeout: 600,
        logger: memoryLogger(),
      }),
    );
    app.get('/', (_req, res) => res.json({}));
    const { server, port } = await listen(app);
    try {
      for (const [label, payload, status] of ROWS) {
        // The own server has no Expect handling of its own to refuse with: node's does.
        if (status === 417 && server.kind === 'arbor') continue;
        const reply = await rawRequest(port, payload, 3000);
        expect(reply.status, label).toBe(status);
        const type = /content-type: ([^\r\n]+)/i.exec(reply.head)?.[1] ?? '';
        const body = JSON.parse(reply.body);
        if (problems) {
          expect(type, label).toMatch(/^application\/problem\+json/);
          expect(body, label).toMatchObject({ type: 'about:blank', status, title: expect.any(String) });
        } else {
          expect(type, label).toMatch(/^application\/json/);
          expect(body, label).toEqual({ error: expect.any(String), code: status });
        }
      }
    } finally {
      await server.closeGracefully(500);
    }
  });
});

test("app.fetch gives a request without a Host field its URL's authority, as a server would have received it", async () => {
  const { Application } = await import('../../ts/src/app/index.js');
  const { withEngine } = await import('./support/engine.js');
  const app = new Application(withEngine({}));
  app.get('/host', (req, res) => res.json({ host: req.header('host') ?? null }));
  expect(await (await app.request('http://api.example:8080/host')).json()).toEqual({
    host: 'api.example:8080',
  });
  expect(await (await app.request('/host')).json()).toEqual({ host: 'localhost' });
});

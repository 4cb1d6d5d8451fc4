/**
 * Logging with a real pino instance (writing JSON lines to a stream the test captures): the 500 record
 * keeps the error's type, message and stack and names the request; `requestLogger()` writes one record per
 * request with every field; registration warnings carry fields. Then the loggers Arbor ships
 * (`memoryLogger`, `consoleLogger`) and the transports' adapter.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  Application,
  type ArborServer,
  consoleLogger,
  HttpError,
  type Logger,
  memoryLogger,
  requestLogger,
  transportLogger,
} from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { listen } from './support/transport.js';

/** A pino logger whose records land, parsed, in `records`. */
function capturedPino() {
  const records: Record<string, unknown>[] = [];
  /** The JSON lines as written (a key written twice shows here; parsing keeps only the last). */
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        lines.push(line);
        records.push(JSON.parse(line));
      }
      done();
    },
  });
  // Typed as Arbor's Logger on purpose: a pino instance must be one, as it is.
  const logger: Logger = pino(stream);
  return { logger, records, lines };
}

const servers: ArborServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.closeGracefully(1000)));
});

async function serve(app: Application): Promise<string> {
  const { server, base } = await listen(app);
  servers.push(server);
  return base;
}

describe.each(['node', 'arbor'] as const)('pino on the %s server', (server) => {
  test('a 500 is logged once at error, with err { type, message, stack } and the request as fields', async () => {
    const { logger, records } = capturedPino();
    const app = new Application(withEngine({ logger, server, requestId: true }));
    app.get('/boom/:n', () => {
      throw new TypeError('kaboom');
    });
    app.get('/teapot', () => {
      throw new HttpError(418, 'short and stout');
    });
    const base = await serve(app);

    const reply = await fetch(`${base}/boom/7?x=1`);
    expect(reply.status).toBe(500);
    expect(await reply.text()).not.toContain('kaboom');
    expect((await fetch(`${base}/teapot`)).status).toBe(418); // an answer, not a failure: not logged

    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      level: 50,
      msg: 'GET /boom/7 failed: kaboom',
      method: 'GET',
      path: '/boom/7',
      route: '/boom/:n',
      reqId: reply.headers.get('x-request-id'),
      err: { type: 'TypeError', message: 'kaboom' },
    });
    // The stack survives: it names this file, where the handler threw.
    expect((record?.err as { stack?: string } | undefined)?.stack).toMatch(
      /^TypeError: kaboom\n\s+at .*logging\.test\.ts:\d+/,
    );
  });

  test('requestLogger() writes one info record per request with every field', async () => {
    const { logger, records } = capturedPino();
    const app = new Application(withEngine({ logger, server, requestId: true }));
    app.middleware(requestLogger({ logger }));
    app.get('/tasks/:id<int>', (req, res) => res.json({ id: Number(req.param('id')), title: 'Café' }));
    app.get('/empty', (_req, res) => res.status(204).send());
    const base = await serve(app);

    const ok = await fetch(`${base}/tasks/42?verbose=1`);
    const body = await ok.text();
    const missing = await fetch(`${base}/nope`);
    await missing.text();
    await (await fetch(`${base}/tasks/42`, { method: 'HEAD' })).text();
    await (await fetch(`${base}/empty`)).text();

    expect(records).toHaveLength(4);
    const [first, second, head, empty] = records;
    expect(first).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      method: 'GET',
      path: '/tasks/42',
      route: '/tasks/:id<int>',
      status: 200,
      durationMs: expect.any(Number),
      reqId: ok.headers.get('x-request-id'),
      bytes: Buffer.byteLength(body),
      msg: expect.stringMatching(/^GET \/tasks\/42 200 \d+\.\dms$/),
    });
    expect(first?.bytes).toBe(Number(ok.headers.get('content-length')));
    expect(first?.durationMs).toBeGreaterThanOrEqual(0);
    expect(second).toMatchObject({
      method: 'GET',
      path: '/nope',
      route: null,
      status: 404,
      reqId: missing.headers.get('x-request-id'),
      bytes: Number(missing.headers.get('content-length')),
    });
    expect(head).toMatchObject({ method: 'HEAD', route: '/tasks/:id<int>', status: 200, bytes: 0 });
    expect(empty).toMatchObject({ status: 204, bytes: 0 });
  });

  test("requestLogger() without a logger writes through the application's, each field once", async () => {
    const { logger, records, lines } = capturedPino();
    const write = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const app = new Application(withEngine({ logger, server, requestId: true }));
      app.middleware(requestLogger());
      app.get('/tasks/:id<int>', (req, res) => res.json({ id: Number(req.param('id')) }));
      const base = await serve(app);

      const ok = await fetch(`${base}/tasks/42`);
      const body = await ok.text();
      const missing = await fetch(`${base}/nope`);
      await missing.text();

      expect(write).not.toHaveBeenCalled();
      expect(records).toEqual([
        {
          level: 30,
          time: expect.any(Number),
          pid: process.pid,
          hostname: expect.any(String),
          method: 'GET',
          path: '/tasks/42',
          route: '/tasks/:id<int>',
          status: 200,
          durationMs: expect.any(Number),
          reqId: ok.headers.get('x-request-id'),
          bytes: Buffer.byteLength(body),
          msg: expect.stringMatching(/^GET \/tasks\/42 200 \d+\.\dms$/),
        },
        expect.objectContaining({
          path: '/nope',
          route: null,
          status: 404,
          reqId: missing.headers.get('x-request-id'),
        }),
      ]);
      // req.log binds reqId and the route: the record must not write them a second time.
      for (const line of lines) {
        expect(line.match(/"reqId":/g)).toHaveLength(1);
        expect(line.match(/"route":/g)).toHaveLength(1);
      }
    } finally {
      write.mockRestore();
    }
  });
});

describe('registration and validation records', () => {
  test('a route that can never match is a warn record naming both routes and where they were registered', () => {
    const { logger, records } = capturedPino();
    const app = new Application(withEngine({ logger }));
    app.get('/files/*', (_q, r) => r);
    app.get('/files/:name', (_q, r) => r);
    expect(records).toEqual([
      expect.objectContaining({
        level: 40,
        route: '/files/:name',
        methods: ['GET'],
        at: expect.stringMatching(/logging\.test\.ts:\d+$/),
        shadowedBy: '/files/*',
        shadowedByAt: expect.stringMatching(/logging\.test\.ts:\d+$/),
        msg: expect.stringMatching(/^route GET \/files\/:name \(.*\) can never match: \/files\/\*/),
      }),
    ]);
  });

  test("validate: { responses: 'log' } logs a mismatch with err and the operation", async () => {
    const { logger, records } = capturedPino();
    const app = new Application(withEngine({ logger, validate: { responses: 'log' } }));
    /** @response 200 {integer} A number */
    app.get('/n', (_req, res) => res.json('not a number'));
    const reply = await app.fetch(new Request('http://arbor.test/n'));
    expect(reply.status).toBe(200);
    expect(records).toEqual([
      expect.objectContaining({
        level: 50,
        operation: 'GET /n',
        status: 200,
        err: expect.objectContaining({ type: 'ResponseValidationError', stack: expect.any(String) }),
      }),
    ]);
  });
});

describe('the loggers Arbor ships', () => {
  test('memoryLogger keeps both calling forms: messages in lines/warnings/errors, fields in records', () => {
    const logger = memoryLogger();
    const error = new Error('x');
    logger.info('plain');
    logger.info({ status: 200 }, 'with fields');
    logger.warn({ route: '/a' }, 'careful');
    logger.error({ err: error, reqId: 'r1' }, 'failed');
    logger.error('no error object');
    expect(logger.lines).toEqual(['plain', 'with fields']);
    expect(logger.warnings).toEqual(['careful']);
    expect(logger.errors).toEqual([
      { message: 'failed', error, fields: { err: error, reqId: 'r1' } },
      { message: 'no error object', error: undefined, fields: {} },
    ]);
    expect(logger.records.map((r) => [r.level, r.message, r.fields])).toEqual([
      ['info', 'plain', {}],
      ['info', 'with fields', { status: 200 }],
      ['warn', 'careful', { route: '/a' }],
      ['error', 'failed', { err: error, reqId: 'r1' }],
      ['error', 'no error object', {}],
    ]);
  });

  test('memoryLogger records a 500 with the thrown error and the request fields', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ logger }));
    const thrown = new Error('nope');
    app.get('/x', () => {
      throw thrown;
    });
    expect((await app.fetch(new Request('http://arbor.test/x'))).status).toBe(500);
    expect(logger.errors).toEqual([
      {
        message: 'GET /x failed: nope',
        error: thrown,
        fields: { err: thrown, method: 'GET', path: '/x', route: '/x' },
      },
    ]);
  });

  test('consoleLogger prints the message, and the error (its stack) when a record carries one', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const thrown = new Error('e');
      consoleLogger.info({ status: 200 }, 'GET / 200 0.1ms');
      consoleLogger.error({ err: thrown, method: 'GET' }, 'GET / failed: e');
      consoleLogger.error('plain');
      expect(log.mock.calls).toEqual([['GET / 200 0.1ms']]);
      expect(error.mock.calls).toEqual([['GET / failed: e', thrown], ['plain']]);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  });

  test('transportLogger turns (message, error) into the structured form', () => {
    const logger = memoryLogger();
    const error = new Error('socket gone');
    transportLogger(logger).error('could not write the response: socket gone', error);
    transportLogger(logger).error('no error');
    expect(logger.records).toEqual([
      { level: 'error', message: 'could not write the response: socket gone', fields: { err: error } },
      { level: 'error', message: 'no error', fields: {} },
    ]);
  });
});

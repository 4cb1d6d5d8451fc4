/**
 * Arbor for the I/O cases that read what a request brings, on the server `ARBOR_IO_SERVER` names (as
 * arbor.ts: `node`, the default node:http, or `arbor`, the own one), serving the case `IO_CASE` names:
 *   upload   `POST /upload`: a multipart form whose file the framework streams to `IO_UPLOAD_DIR` (and
 *            deletes once the answer is out); answers `{ size, name }`
 *   upload-stream  the same form handed to the handler part by part (`.uploads({ stream: true })`,
 *            `req.parts()`): the file's bytes counted as they arrive, nothing on disk
 *   cookies  `GET /login` sets the signed cookie `session`; `GET /me` answers `{ user, theme }` from the
 *            verified `session` and the plain `theme`
 *   security `secureHeaders()`, `cors({ origin: [PAGE_ORIGIN], credentials: true })` and `session()` (the
 *            memory store) on every route: `GET /login` puts `user` in a new session, `GET /me` answers
 *            `{ user }` from it
 * A feature this checkout does not have is reported to the runner (`unavailable`). Loads the bundle when
 * `ARBOR_BENCH_FROM=dist`, else the sources.
 */
import type { Server } from 'node:net';
import { announce, HOST } from '../../http/servers/announce.js';
import {
  COOKIE_SECRET,
  type MeAnswer,
  PAGE_ORIGIN,
  SESSION_USER,
  type SessionAnswer,
  UPLOAD_BODY_LIMIT,
} from './requests.js';
import { ioCase, unavailable } from './setup.js';

type AppModule = typeof import('../../../ts/src/app/index.js');

const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const arbor = (
  fromDist
    ? await import(new URL('../../../dist/ts/src/bundle/index.js', import.meta.url).href)
    : await import('../../../ts/src/app/index.js')
) as AppModule;

const base = {
  server: process.env.ARBOR_IO_SERVER === 'arbor' ? ('arbor' as const) : ('node' as const),
  // `run()`'s banner is dropped; errors and warnings still reach stderr.
  logger: { ...arbor.consoleLogger, info: () => {} },
};
const has = (method: string) => typeof Reflect.get(arbor.Request.prototype, method) === 'function';

let app: InstanceType<AppModule['Application']>;
const kase = ioCase();
if (kase === 'upload') {
  if (!has('file')) await unavailable('req.file (multipart uploads) is not in this checkout');
  const tmpDir = process.env.IO_UPLOAD_DIR;
  if (tmpDir === undefined) throw new Error('IO_UPLOAD_DIR must name the uploads folder');
  app = new arbor.Application({ ...base, bodyLimit: UPLOAD_BODY_LIMIT, uploads: { tmpDir } });
  app.post('/upload', (req, res) =>
    res.json({ size: req.file('file')?.size, name: req.body<{ name?: string }>().name }),
  );
} else if (kase === 'upload-stream') {
  if (!has('parts')) await unavailable('req.parts (streamed uploads) is not in this checkout');
  app = new arbor.Application({ ...base, bodyLimit: UPLOAD_BODY_LIMIT, uploads: { stream: true } });
  app.post('/upload', async (req, res) => {
    let size: number | undefined;
    let name: string | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'name') name = part.value;
        continue;
      }
      let bytes = 0;
      for await (const chunk of part.stream) bytes += (chunk as Buffer).byteLength;
      if (part.fieldname === 'file') size = bytes;
    }
    return res.json({ size, name });
  });
} else if (kase === 'cookies') {
  if (!has('signedCookie')) await unavailable('req.signedCookie is not in this checkout');
  app = new arbor.Application({ ...base, cookies: { secrets: [COOKIE_SECRET] } });
  app.get('/login', (_req, res) => res.cookie('session', SESSION_USER, { signed: true }).json({ ok: true }));
  app.get('/me', (req, res) =>
    res.json({ user: req.signedCookie('session'), theme: req.cookie('theme') } satisfies MeAnswer),
  );
} else if (kase === 'security') {
  if (typeof Reflect.get(arbor, 'session') !== 'function')
    await unavailable('session() is not in this checkout');
  app = new arbor.Application({ ...base, cookies: { secrets: [COOKIE_SECRET] } });
  app.middleware(arbor.secureHeaders());
  app.middleware(arbor.cors({ origin: [PAGE_ORIGIN], credentials: true }));
  // Plain HTTP on loopback: the cookie without `Secure`, as Fastify's below.
  app.middleware(arbor.session({ cookie: { secure: false } }));
  type Stored = import('../../../ts/src/app/index.js').Session<SessionAnswer>;
  app.get('/login', (req, res) => {
    req.get<Stored>('session')?.set('user', SESSION_USER);
    return res.json({ ok: true });
  });
  app.get('/me', (req, res) =>
    res.json({ user: req.get<Stored>('session')?.get('user') } satisfies SessionAnswer),
  );
} else {
  app = await unavailable('arbor-requests.ts serves the upload, cookies and security cases only');
}

const listening: Server = app.createServer();
listening.listen(0, HOST, () => announce(listening));

/**
 * Fastify 5, the anchor of the upload and cookies cases (`IO_CASE`), written as its plugins' READMEs
 * show:
 *   upload   `@fastify/multipart`'s `saveRequestFiles({ tmpdir })`: each file streamed to a temporary file
 *            in `IO_UPLOAD_DIR` and deleted by the plugin once the answer is out (its README's "Upload
 *            files to disk and work with temporary file paths", the one way it offers that holds no file in
 *            memory and cleans up by itself, as Arbor's uploads do); answers `{ size, name }`
 *   cookies  `@fastify/cookie` with `secret`: `GET /login` sets the signed `session`, `GET /me` answers
 *            `{ user, theme }` from `request.unsignCookie(request.cookies.session)` and the plain `theme`
 *   security `@fastify/helmet` (its defaults), `@fastify/cors` (`origin: [PAGE_ORIGIN], credentials`) and
 *            `@fastify/session` over `@fastify/cookie` (its memory store): `GET /login` puts `user` in the
 *            session, `GET /me` answers `{ user }` from it
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifySession from '@fastify/session';
import Fastify from 'fastify';
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

declare module 'fastify' {
  /** What the security case keeps in a session. */
  interface Session {
    user?: string;
  }
}

const kase = ioCase();
// The multipart plugin bounds each file by `bodyLimit` (Fastify's default 1 MiB): the same 64 MiB as Arbor's.
const app = Fastify({ logger: false, bodyLimit: UPLOAD_BODY_LIMIT });
if (kase === 'upload') {
  const tmpdir = process.env.IO_UPLOAD_DIR;
  if (tmpdir === undefined) throw new Error('IO_UPLOAD_DIR must name the uploads folder');
  await app.register(multipart);
  app.post('/upload', async (request) => {
    const { files, values } = await request.saveRequestFiles({ tmpdir });
    const file = files.find((f) => f.fieldname === 'file');
    // A text field is `{ type: 'field', value, … }` (the README's `values.hello?.value`).
    const name = (values.name as { value?: unknown } | undefined)?.value;
    // busboy counts the bytes it passed on: no `stat` of the saved file needed.
    return { size: file?.file.bytesRead, name: typeof name === 'string' ? name : undefined };
  });
} else if (kase === 'upload-stream') {
  await app.register(multipart);
  // The README's "Handle multiple file streams": every part as it arrives, each file read to its end.
  app.post('/upload', async (request) => {
    let size: number | undefined;
    let name: string | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'name' && typeof part.value === 'string') name = part.value;
        continue;
      }
      let bytes = 0;
      for await (const chunk of part.file) bytes += (chunk as Buffer).byteLength;
      if (part.fieldname === 'file') size = bytes;
    }
    return { size, name };
  });
} else if (kase === 'cookies') {
  await app.register(fastifyCookie, { secret: COOKIE_SECRET });
  app.get('/login', (_request, reply) => {
    reply.setCookie('session', SESSION_USER, { signed: true, path: '/', httpOnly: true, sameSite: 'lax' });
    reply.send({ ok: true });
  });
  app.get('/me', (request, reply) => {
    const session = request.cookies.session;
    const verified = session === undefined ? null : request.unsignCookie(session);
    const answer: MeAnswer = {
      user: verified?.valid ? (verified.value ?? undefined) : undefined,
      theme: request.cookies.theme,
    };
    reply.send(answer);
  });
} else if (kase === 'security') {
  await app.register(fastifyHelmet);
  await app.register(fastifyCors, { origin: [PAGE_ORIGIN], credentials: true });
  await app.register(fastifyCookie);
  // Its README's setup; `secure: false` for plain HTTP on loopback (its default is `Secure`, as Arbor's).
  await app.register(fastifySession, { secret: COOKIE_SECRET, cookie: { secure: false } });
  app.get('/login', (request, reply) => {
    request.session.set('user', SESSION_USER);
    reply.send({ ok: true });
  });
  app.get('/me', (request, reply) => {
    const answer: SessionAnswer = { user: request.session.get('user') };
    reply.send(answer);
  });
} else {
  await unavailable('fastify-requests.ts serves the upload, cookies and security cases only');
}

await app.listen({ port: 0, host: HOST });
announce(app.server);

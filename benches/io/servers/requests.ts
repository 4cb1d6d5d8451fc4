/**
 * What the upload, cookies and security cases send and expect, the same in every server and in the runner (which
 * imports it to know a correct answer).
 */

/** Every upload server's body limit, Arbor's `bodyLimit` and Fastify's (which bounds each multipart file). */
export const UPLOAD_BODY_LIMIT = 64 * 2 ** 20;

/** The form's text field: `name`, sent before the file (as @fastify/multipart's README asks). */
export const UPLOAD_NAME = 'arbor-bench-upload';

/** The secret both cookie servers sign with (32+ characters, as Arbor asks). */
export const COOKIE_SECRET = 'arbor-io-bench-cookie-secret-0123456789abcdef';

/** The value `GET /login` signs into the `session` cookie, and `GET /me` must read back. */
export const SESSION_USER = 'user-42';

/** The plain cookie the handler reads, and the others it parses and ignores. */
export const PLAIN_COOKIES = 'theme=dark; a=1; b=2';

/** What `GET /me` answers: the verified session (absent when it does not verify) and the theme. */
export interface MeAnswer {
  user?: string | undefined;
  theme?: string | undefined;
}

/** The page origin the security case's CORS policy allows, sent as `Origin` with every request. */
export const PAGE_ORIGIN = 'https://app.example';

/** What the security case's `GET /me` answers: the `user` its session holds (absent without one). */
export interface SessionAnswer {
  user?: string | undefined;
}

/**
 * Bearer-token authentication of the products API: `Authorization: Bearer <token>`, the token from
 * `API_TOKEN` (default `demo-token`). Missing or wrong → 401 `AuthError` with `WWW-Authenticate: Bearer`
 * (a wrong token adds `error="invalid_token"`, RFC 6750 §3).
 */

import { timingSafeEqual } from 'node:crypto';
import { type Middleware, Response } from '../../src/app/index.js';

export const DEFAULT_TOKEN = 'demo-token';

/** The token the API accepts: `API_TOKEN`, else `demo-token`. */
export function configuredToken(): string {
  const token = process.env.API_TOKEN;
  return token === undefined || token === '' ? DEFAULT_TOKEN : token;
}

export function bearerAuth(token: string): Middleware {
  const expected = Buffer.from(token);
  return function bearerAuth(req, handler) {
    const given = req.bearerToken();
    // RFC 6750 §3.1: a request without credentials gets no error code; a wrong token gets invalid_token.
    if (given === undefined) return unauthorized('Missing bearer token', 'Bearer realm="products"');
    const actual = Buffer.from(given);
    // Constant time, so the token cannot be guessed byte by byte from response timings.
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
      return unauthorized('Invalid bearer token', 'Bearer realm="products", error="invalid_token"');
    req.set('user', { id: 'api-client' });
    return handler.handle(req);
  };
}

function unauthorized(message: string, challenge: string): Response {
  return new Response().status(401).header('WWW-Authenticate', challenge).json({ error: message, code: 401 });
}

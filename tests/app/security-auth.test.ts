/**
 * jwtAuth() and basicAuth() over real HTTP (node:http or Arbor's server, by project) and app.fetch().
 *
 * JWT: a table of tokens (valid, expired, expired within the clock tolerance, not yet valid, wrong
 * audience, wrong issuer, alg none, a tampered signature, another key, HS256 made with the public key as
 * its secret, garbage) against applications verifying with HS256, RS256, ES256 and EdDSA keys generated
 * here with jose; a JWKS served by a local HTTP server, cached, with a key rotated in it; the 401's
 * WWW-Authenticate; start-up refusals. Basic: a table of Authorization fields against one user, a list
 * and a verify function.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CryptoKey,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Application } from '../../ts/src/app/index.js';
import { basicAuth } from '../../ts/src/middleware/basic-auth.js';
import { type JwtAlgorithm, type JwtAuthOptions, jwtAuth } from '../../ts/src/middleware/jwt-auth.js';
import { appStarter, transports } from './support/transport.js';

const HMAC_SECRET = new TextEncoder().encode('an-hmac-secret-of-32-bytes-or-so!');
const OTHER_SECRET = new TextEncoder().encode('another-hmac-secret-of-32-bytes!!');
const ISSUER = 'https://auth.example';
const AUDIENCE = 'api';

interface Keys {
  alg: JwtAlgorithm;
  /** Signs tokens. */
  sign: CryptoKey | Uint8Array;
  /** Signs tokens the application must refuse (another key of the same kind). */
  other: CryptoKey | Uint8Array;
  /** What the application verifies with. */
  verify: JwtAuthOptions;
  /** The public key as PEM (asymmetric keys only): the secret of an alg-confusion attack. */
  pem?: string;
}

const keys: Keys[] = [];

beforeAll(async () => {
  keys.push({ alg: 'HS256', sign: HMAC_SECRET, other: OTHER_SECRET, verify: { secret: HMAC_SECRET } });
  for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
    const pair = await generateKeyPair(alg, { extractable: true });
    const other = await generateKeyPair(alg);
    const pem = await exportSPKI(pair.publicKey);
    keys.push({ alg, sign: pair.privateKey, other: other.privateKey, verify: { key: pem }, pem });
  }
});

const now = () => Math.floor(Date.now() / 1000);

/** A token for `claims` (iss, aud, sub and a 10-minute exp unless overridden), signed with `key` as `alg`. */
function token(
  alg: string,
  key: CryptoKey | Uint8Array,
  claims: JWTPayload = {},
  kid?: string,
): Promise<string> {
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'u1', iat: now(), exp: now() + 600, ...claims })
    .setProtectedHeader(kid === undefined ? { alg } : { alg, kid })
    .sign(key);
}

/** The payload segment changed, the signature kept. */
function tampered(jwt: string): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
  return `${header}.${forged}.${signature}`;
}

function protectedApp(options: JwtAuthOptions) {
  return (app: Application) => {
    app.get('/me', { middleware: [jwtAuth(options)] }, (req, res) => res.json({ sub: req.get('jwt').sub }));
  };
}

type Case = [name: string, make: (k: Keys) => Promise<string> | string, status: number, description?: string];

const CASES: Case[] = [
  ['a valid token', (k) => token(k.alg, k.sign), 200],
  ['expired', (k) => token(k.alg, k.sign, { exp: now() - 60 }), 401, 'The token has expired'],
  [
    'not yet valid (nbf)',
    (k) => token(k.alg, k.sign, { nbf: now() + 600 }),
    401,
    'The token is not valid yet',
  ],
  [
    'wrong audience',
    (k) => token(k.alg, k.sign, { aud: 'other-api' }),
    401,
    "The token's aud claim is not accepted",
  ],
  [
    'wrong issuer',
    (k) => token(k.alg, k.sign, { iss: 'https://evil.example' }),
    401,
    "The token's iss claim is not accepted",
  ],
  [
    'alg none',
    () => new UnsecuredJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'u1' }).setExpirationTime('10m').encode(),
    401,
  ],
  [
    'a tampered payload',
    async (k) => tampered(await token(k.alg, k.sign)),
    401,
    "The token's signature does not verify",
  ],
  ['signed by another key', (k) => token(k.alg, k.other), 401],
  ['garbage', () => 'not.a.jwt', 401, 'The token is malformed'],
];

describe.each(transports)('jwtAuth() over $name', (transport) => {
  const start = appStarter(transport);

  describe.each(['HS256', 'RS256', 'ES256', 'EdDSA'])('%s', (alg) => {
    test.each(CASES)('%s', async (_name, make, status, description) => {
      const k = keys.find((entry) => entry.alg === alg) as Keys;
      const c = await start(protectedApp({ ...k.verify, issuer: ISSUER, audience: AUDIENCE }));
      const reply = await c.request('/me', { headers: { authorization: `Bearer ${await make(k)}` } });
      expect(reply.status).toBe(status);
      if (status === 200) {
        expect(reply.json()).toEqual({ sub: 'u1' });
        return;
      }
      const challenge = reply.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"$/);
      if (description !== undefined) {
        expect(challenge).toContain(`error_description="${description.replaceAll('"', '\\"')}"`);
        expect(reply.json()).toEqual({ error: `Invalid token: ${description}`, code: 401 });
      }
    });
  });

  test('alg confusion: HS256 signed with the public key as its secret is refused', async () => {
    for (const k of keys.filter((entry) => entry.pem !== undefined)) {
      const c = await start(protectedApp(k.verify));
      const forged = await token('HS256', new TextEncoder().encode(k.pem));
      const reply = await c.request('/me', { headers: { authorization: `Bearer ${forged}` } });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toContain('algorithm is not accepted');
    }
  });

  test('an expired token passes within the clock tolerance', async () => {
    const k = keys[0] as Keys;
    const c = await start(protectedApp({ ...k.verify, clockTolerance: 120 }));
    const late = await token(k.alg, k.sign, { exp: now() - 60 });
    expect((await c.request('/me', { headers: { authorization: `Bearer ${late}` } })).status).toBe(200);
    const tooLate = await token(k.alg, k.sign, { exp: now() - 600 });
    expect((await c.request('/me', { headers: { authorization: `Bearer ${tooLate}` } })).status).toBe(401);
  });

  test('no token: 401 with a bare challenge (and the realm); optional lets the request through', async () => {
    const c = await start((app) => {
      app.get('/me', { middleware: [jwtAuth({ secret: HMAC_SECRET, realm: 'api' })] }, (req, res) =>
        res.json({ sub: req.get('jwt').sub ?? null }),
      );
      // Optional: the claims may be missing, which the type says only on an open route.
      app
        .get('/maybe', (req, res) => res.json({ sub: req.get<JWTPayload>('jwt')?.sub ?? null }))
        .middleware(jwtAuth({ secret: HMAC_SECRET, optional: true }));
    });
    const missing = await c.request('/me');
    expect([missing.status, missing.headers.get('www-authenticate'), missing.json()]).toEqual([
      401,
      'Bearer realm="api"',
      { error: 'Missing bearer token', code: 401 },
    ]);
    const basic = await c.request('/me', { headers: { authorization: 'Basic dTpw' } });
    expect(basic.status).toBe(401);
    expect((await c.request('/maybe')).json()).toEqual({ sub: null });
    const bad = await c.request('/maybe', { headers: { authorization: 'Bearer x.y.z' } });
    expect(bad.status).toBe(401);
  });

  describe('a JWKS URL', () => {
    let server: Server;
    let jwksUrl: string;
    let served: { keys: JWK[] } = { keys: [] };
    let fetches = 0;
    let down = false;
    const pairs: { kid: string; privateKey: CryptoKey; jwk: JWK }[] = [];

    beforeAll(async () => {
      for (const kid of ['k1', 'k2']) {
        const pair = await generateKeyPair('ES256', { extractable: true });
        pairs.push({
          kid,
          privateKey: pair.privateKey,
          jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256' },
        });
      }
      server = createServer((_req, res) => {
        fetches++;
        if (down) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(served));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const pair = (kid: string) => pairs.find((p) => p.kid === kid) as (typeof pairs)[number];
    const signed = (kid: string) => token('ES256', pair(kid).privateKey, {}, kid);

    test('keys are fetched once and cached; a rotated key is fetched when a token names it', async () => {
      served = { keys: [pair('k1').jwk] };
      fetches = 0;
      down = false;
      const c = await start(
        protectedApp({ jwks: jwksUrl, jwksOptions: { cooldownDuration: 0 }, audience: AUDIENCE }),
      );
      const call = async (kid: string) =>
        (await c.request('/me', { headers: { authorization: `Bearer ${await signed(kid)}` } })).status;
      expect([await call('k1'), await call('k1')]).toEqual([200, 200]);
      expect(fetches).toBe(1);
      // Rotation: the issuer now publishes k2 only.
      served = { keys: [pair('k2').jwk] };
      expect(await call('k2')).toBe(200);
      expect(fetches).toBe(2);
      // k1 is gone from the set: a token signed with it no longer verifies.
      expect(await call('k1')).toBe(401);
    });

    test('a JWKS that cannot be fetched is a 503, not a 401', async () => {
      down = true;
      const c = await start(protectedApp({ jwks: jwksUrl }));
      const reply = await c.request('/me', { headers: { authorization: `Bearer ${await signed('k1')}` } });
      expect([reply.status, reply.json()]).toEqual([
        503,
        { error: 'The keys to verify tokens with could not be loaded', code: 503 },
      ]);
      down = false;
    });
  });
});

describe('basicAuth() over each transport', () => {
  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  // [case, Authorization field, status]
  const TABLE: [string, string | undefined, number][] = [
    ['the right user and password', basic('admin', 's3cret:with:colons'), 200],
    ['a second user of the list', basic('ünïcode', 'pässword'), 200],
    ['a wrong password', basic('admin', 's3cret'), 401],
    ['a password one character longer', basic('admin', 's3cret:with:colonsx'), 401],
    ['an unknown user', basic('root', 's3cret:with:colons'), 401],
    ['another user’s password', basic('ünïcode', 's3cret:with:colons'), 401],
    ['no Authorization', undefined, 401],
    ['a bearer token', 'Bearer abc', 401],
    ['no colon', `Basic ${Buffer.from('admin').toString('base64')}`, 401],
    ['not base64', 'Basic !!!', 401],
    ['lower-case scheme', basic('admin', 's3cret:with:colons').replace('Basic', 'basic'), 200],
  ];

  describe.each(transports)('$name', (transport) => {
    const start = appStarter(transport);

    describe.each([
      [
        'users',
        basicAuth({
          realm: 'Admin area',
          users: [
            { username: 'admin', password: 's3cret:with:colons' },
            { username: 'ünïcode', password: 'pässword' },
          ],
        }),
      ],
      [
        'verify',
        basicAuth({
          realm: 'Admin area',
          verify: async (name, password) =>
            (name === 'admin' && password === 's3cret:with:colons') ||
            (name === 'ünïcode' && password === 'pässword'),
        }),
      ],
    ])('%s', (_form, middleware) => {
      test.each(TABLE)('%s', async (_case, field, status) => {
        const c = await start((app) => {
          app.get('/admin', { middleware: [middleware] }, (req, res) =>
            res.json({ user: req.get('user').id }),
          );
        });
        const reply = await c.request('/admin', {
          headers: field === undefined ? {} : { authorization: field },
        });
        expect(reply.status).toBe(status);
        if (status === 401) {
          expect(reply.headers.get('www-authenticate')).toBe('Basic realm="Admin area", charset="UTF-8"');
          expect(reply.json().code).toBe(401);
        } else {
          expect(reply.json().user).toMatch(/^(admin|ünïcode)$/);
        }
      });
    });
  });
});

test.each<[string, () => unknown, RegExp]>([
  ['a short HMAC secret', () => jwtAuth({ secret: 'short' }), /32 bytes or more/],
  [
    'HS256 with a public key',
    () => jwtAuth({ key: keys[1]?.pem as string, algorithms: ['HS256'] }),
    /HS256 needs a secret/,
  ],
  [
    'RS256 with a secret',
    () => jwtAuth({ secret: HMAC_SECRET, algorithms: ['RS256'] }),
    /RS256 needs a public key/,
  ],
  [
    'alg none',
    () => jwtAuth({ secret: HMAC_SECRET, algorithms: ['none' as never] }),
    /"none" is not an algorithm/,
  ],
  [
    'two key sources',
    () => jwtAuth({ secret: HMAC_SECRET, jwks: 'https://x.example' } as never),
    /exactly one of/,
  ],
  ['basicAuth without users', () => basicAuth({} as never), /exactly one of users and verify/],
  [
    'a realm with a quote',
    () => basicAuth({ realm: 'a"b', users: { username: 'a', password: 'b' } }),
    /realm/,
  ],
])('start-up refusal: %s', (_case, make, message) => {
  expect(make).toThrow(message);
});

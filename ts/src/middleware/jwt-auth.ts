/**
 * Bearer JWT verification on `jose`: the token of `Authorization: Bearer <token>` verified with a secret
 * (HS256/384/512), a public key (RS*, PS*, ES*, EdDSA), or the keys of a JWKS URL (fetched by jose's
 * `createRemoteJWKSet`, cached, and fetched again when a token names a key it does not hold: key
 * rotation), then its claims checked (`exp`, `nbf`, and `iss`, `aud`, `sub`, `typ`, the token's age when
 * asked), within a clock tolerance. The verified claims go on the request as `req.get('jwt')`.
 *
 * The algorithms a token may use are a fixed list (`algorithms`), never what the token says: `alg: none`
 * is refused by jose always, a token signed with HS256 using a public key as its secret (alg confusion) is
 * refused because a secret is only ever given for HS*, and a public key only for its own algorithms.
 *
 * A request without a token, or with one that does not verify, is a 401 with `WWW-Authenticate: Bearer`
 * (with `error="invalid_token"` and a description for a bad token).
 */
import type { KeyObject } from 'node:crypto';
import type { JWK, JWTPayload, JWTVerifyGetKey, JWTVerifyOptions, RemoteJWKSetOptions } from 'jose';
import { crypto, lazyPackage } from '../builtins.js';
import { HttpError } from '../core/errors.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';

/** Web Crypto's key type, named through node:crypto (a consumer without the DOM library has no global type). */
type WebCryptoKey = import('node:crypto').webcrypto.CryptoKey;

export type { JWTPayload } from 'jose';

/** A JWS algorithm `jwtAuth()` verifies with. `none` is not one. */
export type JwtAlgorithm =
  | 'HS256'
  | 'HS384'
  | 'HS512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'EdDSA'
  | 'Ed25519';

/** Where the keys come from: exactly one of `secret`, `key` and `jwks`. */
export type JwtKeySource =
  | {
      /** The HMAC secret (HS*), at least 32 bytes. */
      secret: string | Uint8Array;
      key?: never;
      jwks?: never;
    }
  | {
      /** A public key: a PEM string (SPKI), a `KeyObject`, a `CryptoKey` or a public JWK. */
      key: string | KeyObject | WebCryptoKey | JWK;
      secret?: never;
      jwks?: never;
    }
  | {
      /**
       * The issuer's JWKS: its URL (fetched, cached, refetched for an unknown `kid`), or a key set given
       * as `{ keys: [...] }`.
       */
      jwks: string | URL | { keys: JWK[] };
      secret?: never;
      key?: never;
    };

/** Options of the {@link jwtAuth} middleware besides its keys. */
export interface JwtAuthCheckOptions {
  /**
   * The algorithms accepted. Default: `['HS256']` with a `secret`, the key's own with a `key`
   * (`RS256`, `ES256`, `ES384`, `ES512`, `EdDSA` by its type), and every asymmetric one with `jwks`.
   */
  algorithms?: readonly JwtAlgorithm[];
  /** The `iss` required (one, or any of a list). */
  issuer?: string | readonly string[];
  /** The `aud` required (one, or any of a list). */
  audience?: string | readonly string[];
  /** The `sub` required. */
  subject?: string;
  /** The header's `typ` required (`'at+jwt'` for OAuth access tokens). */
  typ?: string;
  /** Clock skew allowed on `exp`, `nbf` and `iat`: seconds, or a duration (`'30s'`). Default 0. */
  clockTolerance?: number | string;
  /** The oldest a token may be, by its `iat`: seconds, or a duration (`'1h'`). */
  maxTokenAge?: number | string;
  /** Claims that must be present besides those the options above require. */
  requiredClaims?: readonly string[];
  /** jose's options of the JWKS fetch: `cacheMaxAge` (10 min), `cooldownDuration` (30 s), `timeoutDuration` (5 s), `headers`. */
  jwksOptions?: RemoteJWKSetOptions;
  /** The token of a request. Default: the `Authorization: Bearer` token. */
  token?: (req: Request) => string | undefined;
  /** `true`: a request without a token goes on without `jwt` (a bad token is still a 401). Default `false`. */
  optional?: boolean;
  /** The `realm` of `WWW-Authenticate`. Default none. */
  realm?: string;
}

/** Options of the {@link jwtAuth} middleware. */
export type JwtAuthOptions = JwtKeySource & JwtAuthCheckOptions;

/** The request key of the verified claims (`req.get('jwt')`). */
export const JWT_KEY = 'jwt';

const ASYMMETRIC: JwtAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
const KNOWN = new Set<string>(['HS256', 'HS384', 'HS512', ...ASYMMETRIC]);
const MIN_SECRET_BYTES = 32;

type Jose = typeof import('jose');
// jose is loaded when the first jwtAuth() is made, not when Arbor is imported.
const loadJose = lazyPackage<Jose>('jose');

type Key = Uint8Array | KeyObject | WebCryptoKey | JWTVerifyGetKey;

function keyOf(options: JwtAuthOptions, jose: Jose): { key: Key; defaults: JwtAlgorithm[] } {
  const given = [options.secret, options.key, options.jwks].filter((k) => k !== undefined).length;
  if (given !== 1) throw new TypeError('jwtAuth(): give exactly one of secret, key and jwks');
  if (options.secret !== undefined) {
    const secret =
      typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
    if (!(secret instanceof Uint8Array) || secret.byteLength < MIN_SECRET_BYTES)
      throw new TypeError(
        `jwtAuth(): an HMAC secret needs ${MIN_SECRET_BYTES} bytes or more (as long as the hash: use 32 random bytes)`,
      );
    return { key: secret, defaults: ['HS256'] };
  }
  if (options.key !== undefined) {
    const key = publicKey(options.key);
    return { key, defaults: algorithmsOf(key) };
  }
  const jwks = options.jwks as string | URL | { keys: JWK[] };
  if (typeof jwks === 'string' || jwks instanceof URL) {
    const url = new URL(jwks);
    return { key: jose.createRemoteJWKSet(url, options.jwksOptions), defaults: ASYMMETRIC };
  }
  return { key: jose.createLocalJWKSet(jwks), defaults: ASYMMETRIC };
}

/** A public key as a KeyObject (PEM, JWK) or as given (KeyObject, CryptoKey). A private or secret key is refused. */
function publicKey(key: string | KeyObject | WebCryptoKey | JWK): KeyObject | WebCryptoKey {
  if (typeof key === 'string') return crypto().createPublicKey(key);
  if (key instanceof crypto().KeyObject) {
    if (key.type !== 'public')
      throw new TypeError(
        `jwtAuth(): key must be a public key, not a ${key.type} one (a secret goes in secret)`,
      );
    return key;
  }
  if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) {
    if (key.type !== 'public')
      throw new TypeError(`jwtAuth(): key must be a public key, not a ${key.type} one`);
    return key;
  }
  const jwk = key as JWK;
  if (jwk.kty === 'oct' || jwk.d !== undefined)
    throw new TypeError(
      'jwtAuth(): key must be a public JWK (a secret goes in secret; never give a private key)',
    );
  const { d: _d, ...pub } = jwk;
  return crypto().createPublicKey({ key: pub as import('node:crypto').JsonWebKey, format: 'jwk' });
}

/** The algorithm a public key signs with, by its type (RSA: RS256, as most issuers use; PS* by option). */
function algorithmsOf(key: KeyObject | WebCryptoKey): JwtAlgorithm[] {
  const object = key instanceof crypto().KeyObject ? key : crypto().KeyObject.from(key as WebCryptoKey);
  const type = object.asymmetricKeyType;
  if (type === 'rsa') return ['RS256'];
  if (type === 'rsa-pss') return ['PS256'];
  if (type === 'ed25519') return ['EdDSA', 'Ed25519'];
  if (type === 'ec') {
    const curve = object.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return ['ES256'];
    if (curve === 'secp384r1') return ['ES384'];
    if (curve === 'secp521r1') return ['ES512'];
  }
  throw new TypeError(`jwtAuth(): no JWS algorithm for a ${type ?? 'unknown'} key; pass algorithms`);
}

function checkedAlgorithms(
  given: readonly JwtAlgorithm[] | undefined,
  defaults: JwtAlgorithm[],
  hmac: boolean,
) {
  const list = given === undefined ? defaults : [...given];
  if (list.length === 0) throw new TypeError('jwtAuth(): algorithms is empty');
  for (const alg of list) {
    if (!KNOWN.has(alg))
      throw new TypeError(`jwtAuth(): ${JSON.stringify(alg)} is not an algorithm jwtAuth() verifies with`);
    // A secret with an asymmetric algorithm, or a public key with HMAC, is the alg-confusion mistake.
    if (alg.startsWith('HS') !== hmac)
      throw new TypeError(
        `jwtAuth(): ${alg} ${hmac ? 'needs a public key or a JWKS, not a secret' : 'needs a secret, not a public key'}`,
      );
  }
  return list;
}

/** A header value's quoted-string (quotes and backslashes escaped). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&').replace(/[^\x20-\x7e]/g, '?')}"`;
}

/** What a failed verification tells the client: a fixed description per kind of failure. */
function describeFailure(error: { code?: unknown; claim?: unknown }): string {
  switch (error.code) {
    case 'ERR_JWT_EXPIRED':
      return 'The token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return error.claim === 'nbf'
        ? 'The token is not valid yet'
        : `The token's ${String(error.claim)} claim is not accepted`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return "The token's signature does not verify";
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return "The token's algorithm is not accepted";
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'No key matches the token';
    default:
      return 'The token is malformed';
  }
}

/** jose's errors that say the token is bad; any other (a JWKS that cannot be fetched) is the server's problem. */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
  'ERR_JWK_INVALID',
]);

/**
 * `Claims` types the verified claims (unchecked beyond the options' checks: it is what the issuer puts in
 * its tokens).
 *
 * @example
 * app.group('/api', { middleware: [jwtAuth({ secret: process.env.JWT_SECRET!, issuer: 'https://auth.example' })] },
 *   (api) => api.get('/me', (req, res) => res.json({ user: req.get('jwt').sub })));
 * app.middleware(jwtAuth({ jwks: 'https://auth.example/.well-known/jwks.json', audience: 'api' }));
 */
export function jwtAuth<Claims extends JWTPayload = JWTPayload>(
  options: JwtAuthOptions,
): Middleware<{ jwt: Claims }> {
  const jose = loadJose();
  const { key, defaults } = keyOf(options, jose);
  const algorithms = checkedAlgorithms(options.algorithms, defaults, options.secret !== undefined);
  const verifyOptions: JWTVerifyOptions = { algorithms };
  if (options.issuer !== undefined) verifyOptions.issuer = [options.issuer].flat();
  if (options.audience !== undefined) verifyOptions.audience = [options.audience].flat();
  if (options.subject !== undefined) verifyOptions.subject = options.subject;
  if (options.typ !== undefined) verifyOptions.typ = options.typ;
  if (options.clockTolerance !== undefined) verifyOptions.clockTolerance = options.clockTolerance;
  if (options.maxTokenAge !== undefined) verifyOptions.maxTokenAge = options.maxTokenAge;
  if (options.requiredClaims !== undefined) verifyOptions.requiredClaims = [...options.requiredClaims];
  const tokenOf = options.token ?? ((req: Request) => req.bearerToken());
  const optional = options.optional === true;
  const remote = typeof options.jwks === 'string' || options.jwks instanceof URL;
  const realm = options.realm === undefined ? '' : `realm=${quoted(options.realm)}`;
  const challenge = (error?: string) =>
    [realm, error === undefined ? '' : `error="invalid_token", error_description=${quoted(error)}`]
      .filter((part) => part !== '')
      .join(', ');
  const refuse = (message: string, error?: string) => {
    const params = challenge(error);
    return new HttpError(401, message, {
      headers: { 'WWW-Authenticate': params === '' ? 'Bearer' : `Bearer ${params}` },
    });
  };

  return async function jwtAuth(req, next) {
    const token = tokenOf(req);
    if (token === undefined || token === '') {
      if (optional) return next.handle(req);
      throw refuse('Missing bearer token');
    }
    let payload: JWTPayload;
    try {
      // jose's overloads take a key or a key-selecting function; `key` is one of the two.
      ({ payload } = await jose.jwtVerify(token, key as Uint8Array, verifyOptions));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !TOKEN_FAULTS.has(code)) {
        // The JWKS could not be fetched (a timeout, a network error, not a key set): no fault of the client's.
        if (remote)
          throw new HttpError(503, 'The keys to verify tokens with could not be loaded', { cause: error });
        throw error;
      }
      const description = describeFailure(error as { code?: unknown; claim?: unknown });
      throw refuse(`Invalid token: ${description}`, description);
    }
    req.set(JWT_KEY, payload as Claims);
    return next.handle(req);
  };
}

/**
 * The OpenAPI security scheme of a bearer JWT, for the exporter's `security` option
 * (`{ bearerAuth: jwtSecurityScheme() }`).
 */
export function jwtSecurityScheme(): { type: 'http'; scheme: 'bearer'; bearerFormat: 'JWT' } {
  return { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
}

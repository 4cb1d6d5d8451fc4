/** Application configuration: the keys `new Application(config)` takes, and how `run()` picks its port. */

import type { SecureServerOptions } from 'node:http2';
import type { UploadLimits } from '../body/multipart.js';
import type { Logger } from '../core/logger.js';
import type { Order } from '../engine/engine.js';
import type { CookiesConfig } from '../helpers/cookies.js';
import type { RateLimitStore } from '../middleware/throttle.js';
import type { RouterOptions } from '../router/index.js';
import type { CompiledContracts } from '../validation/precompiled.js';
import type { ValidateConfig } from '../validation/validation.js';
import type { TrustProxy } from './proxy.js';

/** The `openapi` configuration key (`info`, `servers`), read by the OpenAPI exporter (docs/OPENAPI.md). */
export interface OpenApiConfig {
  info: {
    title: string;
    version: string;
    description?: string;
    contact?: { name?: string; email?: string; url?: string };
    license?: { name: string; url?: string };
  };
  servers?: { url: string; description?: string }[];
  /** Tags with their descriptions (an `@tag` annotation describes one too; this list wins). */
  tags?: { name: string; description?: string }[];
}

/** The `requestId` configuration key. */
export interface RequestIdConfig {
  /** The request and response field (default `X-Request-Id`). */
  header?: string;
  /** Take the incoming field's value when it is 1–200 visible ASCII characters (default `false`). */
  trustIncoming?: boolean;
  /** A new id (default: `crypto.randomUUID()`). */
  generate?: () => string;
}

/**
 * The options of `new Application(config)`: the router's behaviour, body limits, logging, request ids,
 * proxies, validation and the OpenAPI document's metadata. Every field has a default.
 *
 * @example
 * const app = new Application({ order: 'specificity', bodyLimit: 10 * 1024 * 1024, requestId: true });
 */
export interface ApplicationConfig {
  /** The routing engine (default: WebAssembly). */
  engine?: RouterOptions['engine'];
  /** `'definition'` (default) or `'specificity'` (ROUTING.md §3.2). */
  order?: Order;
  /** `true` (default): `/users/` also matches `/users`; `false`: strict; `'redirect'`: 308 to the canonical form. */
  trailingSlash?: boolean | 'redirect';
  /** Largest request body in bytes (default 1 MiB; beyond: 413). */
  bodyLimit?: number;
  /** Longest request target (path + query) in characters (default 8192; beyond: 414). */
  maxUrlLength?: number;
  /** `true` (default): 405 with `Allow` when only the method differs; `false`: 404 (or the fallback). */
  methodNotAllowed?: boolean;
  openapi?: OpenApiConfig;
  /** Port for `run()` (else `PORT`, else 3000) and host (default: all interfaces). */
  port?: number;
  host?: string;
  /** Where errors (with stacks), warnings and `run()`'s banner go. Default: the console. */
  logger?: Logger;
  /** Counters of the built-in `throttle` alias (default: in memory, per application). */
  rateLimitStore?: RateLimitStore;
  /**
   * Believe `X-Forwarded-For` from these proxies for `req.ip` (and so the throttle's key): `'loopback'`,
   * addresses or CIDR subnets, a hop count, `true`, or a function (see `proxy.ts`). Default: trust no
   * one, `req.ip` is the socket address.
   */
  trustProxy?: TrustProxy;
  /** Milliseconds a client has to send a whole request before a 408 (default 300,000). For `run()`/`createServer()`. */
  requestTimeout?: number;
  /** Milliseconds a client has to send the request head before a 408 (default 60,000). */
  headersTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open (default 5,000, as node:http). */
  keepAliveTimeout?: number;
  /**
   * The server behind `run()` and `createServer()`: `'node'` (default), node:http's (node:https with
   * `tls`, node:http2 with `http2`), or `'arbor'`, Arbor's own HTTP/1.1 server on `node:net`: faster,
   * cleartext HTTP/1.1 only, for behind a proxy. `app.listener` mounts in any node:http server either way.
   */
  server?: 'arbor' | 'node';
  /**
   * Serve HTTPS from `run()`/`createServer()`: node:https's options (`key`, `cert`, `ca`, `pfx`,
   * `passphrase`, …). Only on the node server (`server: 'node'`, the default).
   */
  tls?: SecureServerOptions;
  /**
   * Serve HTTP/2 (with `tls`: ALPN `h2`, HTTP/1.1 clients still served) through node:http2's compatibility
   * API. Without `tls`, cleartext HTTP/2 (h2c, prior knowledge only). Only on the node server.
   */
  http2?: boolean;
  /**
   * Give each request an id, `req.id`, echoed in the response's `X-Request-Id` (and in `requestLogger()`'s
   * records). `true`: a new random id per request. `{ trustIncoming: true }`: take the client's
   * `X-Request-Id` when it is a sane token (else generate). `header` renames the field, `generate` replaces
   * the generator. Default: off (`req.id` is then `''`).
   */
  requestId?: boolean | RequestIdConfig;
  /**
   * Conditional GET for handlers' answers: a 200 to GET or HEAD with a body held whole gets a weak
   * `ETag` from its bytes (one the handler set is kept), and a request whose `If-None-Match` (or
   * `If-Modified-Since`, against a `Last-Modified` the handler set) matches gets a 304 without the body.
   * Default: off (hashing every answer costs time; files are tagged by `sendFile()` and `serveStatic()`
   * whatever this says).
   */
  etag?: boolean;
  /**
   * Limits for `multipart/form-data` bodies (file size, number of files and fields, field size, parts) and
   * where their files are written; a route's or group's `.uploads()` goes over them. The whole body is
   * bounded by `bodyLimit`.
   */
  uploads?: UploadLimits;
  /**
   * Decode request bodies sent with `Content-Encoding: gzip` (or `x-gzip`), `deflate`, `br` or `zstd`,
   * as they arrive, for every route; a route's or group's `.decompress()` goes over it. `bodyLimit` then
   * counts the decoded bytes (and the encoded ones): a small body that would inflate past it is a 413 as
   * soon as it does, never inflated whole. Corrupt data is a 400, another coding a 415. Default: off (a
   * body with a `Content-Encoding` is a 415), as in Fastify until `@fastify/compress` is registered and
   * in Hono: browsers never compress what they send, and a decoder is CPU and memory (its window) spent
   * on behalf of whoever sends one.
   *
   * @example new Application({ decompress: true, bodyLimit: 10 * 1024 * 1024 });
   */
  decompress?: boolean;
  /** Secrets for signed cookies (`res.cookie(name, value, { signed: true })`, `req.signedCookie(name)`). */
  cookies?: CookiesConfig;
  /**
   * Check requests against their route's annotations before the handler (400 `{ error, code, details }`),
   * and with `{ responses: true }` responses against their documented schema. A route's own
   * `.validate(…)` overrides it. Default: off.
   */
  validate?: ValidateConfig;
  /**
   * The compiled contracts `arbor contracts:export` writes (the module's default export): the routes'
   * annotations and every JSON Schema check compiled ahead of time. With them the application reads no
   * source file for its annotations and generates no code to validate, which Cloudflare Workers require
   * (docs/RUNTIMES.md), and which spares a bundled app its sources. A route whose contract changed since
   * the export is refused (`CONTRACTS_STALE`), never let through unchecked.
   *
   * @example
   * import contracts from './arbor.contracts.js';
   * const app = new Application({ validate: true, contracts });
   */
  contracts?: CompiledContracts;
  /**
   * The route cache written by `arbor route:cache` (docs/CLI.md): a file path, or `true` for
   * `ARBOR_ROUTE_CACHE`, else `<project>/.arbor/routes.cache`. When on, registration is recorded and the
   * router is built on first use, from the cache when it matches the routes registered (else compiled,
   * with one warning). `false`: never. Default: on only when `ARBOR_ROUTE_CACHE` names a file (`off`
   * switches it off), so creating an application reads no file unless asked to.
   */
  routeCache?: string | boolean;
  /**
   * Error answers as RFC 9457 problem details (`application/problem+json`: `type`, `title`, `status`,
   * `detail`, `instance`, and members such as a validation refusal's `errors`) instead of
   * `{ error, code }`: every error Arbor answers, the transports' own refusals included. Default: off.
   */
  problemDetails?: boolean;
}

/** `PORT` as a number, `undefined` when unset; a value that is not a port is an error. */
export function portFromEnv(): number | undefined {
  const raw = process.env.PORT;
  if (raw === undefined || raw === '') return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT=${raw} is not a port number`);
  return port;
}

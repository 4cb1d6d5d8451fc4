/**
 * The request pipeline, transport-neutral: the node:http listener and the fetch adapter both turn their
 * request into an {@link IncomingInput} and write back the {@link Response} this returns. It never throws.
 *
 * The kernel is built once, when the application gets ready to serve. The router's value for each route
 * is its {@link RouteContext}, so one `find()` yields the chain, handler, bindings and checks; the kernel
 * reads nothing else from the application per request.
 *
 * Order: target checks (414, 400) → routing (HEAD via GET, trailing-slash redirect, malformed escapes →
 * 400) → application middleware → [matched route: group and route middleware → body (413/400/415) →
 * bindings (404) → handler] or [automatic OPTIONS 204 / 405 / 501 / body → fallback / 404]. The body is
 * read only once every middleware has let the request through: an auth middleware's 401 never
 * waits for, buffers or parses an unauthenticated body. Errors thrown inside become responses there, so
 * application middleware (logging, CORS) sees them too.
 */

import { EMPTY_BODY, type ParsedBody } from '../body/body.js';
import type { UploadLimits } from '../body/multipart.js';
import { errorAnswer, errorResponse, type FailedRequest, finalize, splitTarget } from '../core/answers.js';
import { conditionalGet } from '../core/conditional.js';
import type { ErrorHandlers } from '../core/error-handlers.js';
import { type ErrorShape, HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { type Middleware, runChain } from '../core/middleware.js';
import { andThen, guarded, type Outcome } from '../core/outcome.js';
import { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import type { CookieSigner } from '../helpers/cookies.js';
import type { IncomingInput } from '../http/dispatch.js';
import type { Router } from '../router/index.js';
import { VERBS } from '../routing/registrar.js';
import type { BindingResolver, RouteContext } from '../routing/route-context.js';
import type { RouteTable } from '../routing/route-table.js';
import { BodyLoader, uploadLimits } from './body-loader.js';
import type { RequestIdConfig } from './config.js';
import type { RouteContracts } from './contracts.js';
import { ErrorRouting } from './error-routing.js';
import { clientAddress, type TrustProxy } from './proxy.js';
import { type RequestIds, requestIds } from './request-id.js';
import { requestLogFactory } from './request-logger.js';
import { afterMiddleware, callHandler, NO_BOUND } from './route-call.js';
import { type RequestTrace, requestChannel, routed, traceRequest } from './tracing.js';

export type { Outcome } from '../core/outcome.js';
export type { IncomingInput } from '../http/dispatch.js';
export type { BindingResolver } from '../routing/route-context.js';

export interface KernelSettings {
  bodyLimit: number;
  maxUrlLength: number;
  methodNotAllowed: boolean;
  trailingSlash: boolean | 'redirect';
  /** Which proxies' `X-Forwarded-For` to believe for `req.ip`; `null`: none (the socket address). */
  trustProxy: TrustProxy | null;
  /** The `requestId` configuration key, as given (resolved, and its header name checked, by the kernel). */
  requestId: boolean | RequestIdConfig | undefined;
  /** Conditional GET for handlers' answers (see `ApplicationConfig.etag`). */
  etag: boolean;
  /** Signs and verifies cookies; `null` when the application has no secrets. */
  cookies: CookieSigner | null;
  /** The application's upload limits (a route's or group's `.uploads()` goes over them). */
  uploads: UploadLimits | undefined;
  /** Decode compressed request bodies (a route's or group's `.decompress()` goes over it). */
  decompress: boolean;
}

/** What the kernel is built from. */
export interface KernelParts {
  router: Router<RouteContext>;
  /** Read for what a request may need beyond its route: global middleware, known methods, fallback. */
  table: RouteTable;
  contracts: RouteContracts;
  settings: KernelSettings;
  logger: Logger;
  /** The shape of error answers (`{ error, code }`, or problem details). */
  errors: ErrorShape;
  /** The application's own `onError` and `notFound`. */
  errorHandlers: ErrorHandlers;
}

/** The body of a request that has none: the shared empty body (its media type is only ever read together
 * with the request's Content-Type, so the empty body need not carry it). Here, not in body-loader.ts: a
 * request without a body runs nothing of that module. */
const noBody = (): ParsedBody => EMPTY_BODY;

export class Kernel {
  readonly #router: Router<RouteContext>;
  readonly #table: RouteTable;
  readonly #contracts: RouteContracts;
  readonly #settings: KernelSettings;
  readonly logger: Logger;
  readonly errors: ErrorShape;
  readonly #answers: ErrorRouting;
  /** `null` when requests get no id: then the per-request cost is one `null` check. */
  readonly #ids: RequestIds | null;
  #global: readonly Middleware[] | null = null;
  /** `req.log`'s factory: children of the application's logger (request-logger.ts). */
  readonly #requestLog: (request: Request) => Logger;

  constructor(parts: KernelParts) {
    this.#router = parts.router;
    this.#table = parts.table;
    this.#contracts = parts.contracts;
    this.#settings = parts.settings;
    this.logger = parts.logger;
    this.errors = parts.errors;
    this.#answers = new ErrorRouting(parts.errorHandlers, () => parts.table.answeringGroups, this);
    this.#ids = requestIds(parts.settings.requestId);
    this.#requestLog = requestLogFactory(parts.logger);
  }

  /**
   * Resolves every route's context now (middleware chains and binders). A reference that cannot be
   * resolved is left for its request to report, as it would be without this step.
   */
  prepare(): void {
    try {
      this.#globalChain();
    } catch {
      // reported by the first request
    }
    for (const context of this.#table.contexts) {
      try {
        this.#resolve(context);
      } catch {
        // reported by the route's first request
      }
    }
  }

  /** Compiles every route's contract checks now (so no request pays for it, and mistakes surface). */
  compileValidations(): void {
    const pending = this.#table.contexts.filter((context) => context.validation === undefined);
    this.#contracts.compileAll(
      pending.map((context) => context.route),
      (route, checks) => {
        const context = this.#table.contexts[route.id];
        if (context !== undefined) context.validation = checks;
      },
    );
  }

  /** What the contexts were resolved from changed: resolve again at the next request. */
  reset(): void {
    this.#global = null;
    this.#answers.groupsChanged();
    for (const context of this.#table.contexts) context.clear();
  }

  /** Serves one request. Never throws. Its `arbor.request` events are published only when subscribed (tracing.ts). */
  dispatch(input: IncomingInput): Outcome {
    return requestChannel.hasSubscribers
      ? traceRequest(input, (trace) => this.#serve(input, trace))
      : this.#serve(input, null);
  }

  #serve(input: IncomingInput, trace: RequestTrace | null): Outcome {
    const method = input.method;
    const ids = this.#ids;
    // Assigned before routing, so that every answer carries it: 414, 400, redirects, 404/405, errors.
    let id = '';
    let outcome: Outcome;
    try {
      if (ids !== null) id = ids.assign(input.headers);
      outcome = this.#route(input, id, trace);
    } catch (error) {
      outcome = errorResponse(this, error, { method, path: input.target, id, route: null });
    }
    if (this.#settings.etag) {
      const headers = input.headers;
      outcome = andThen(outcome, (res) => conditionalGet(res, method, headers));
    }
    if (outcome instanceof Response)
      return id === '' ? finalize(outcome, method) : this.#echo(outcome, method, id);
    return outcome.then(
      (res) => (id === '' ? finalize(res, method) : this.#echo(res, method, id)),
      (error: unknown) =>
        this.#echo(errorResponse(this, error, { method, path: input.target, id, route: null }), method, id),
    );
  }

  /** Finalizes `res` with the request id in its field (`id` is `''` only when ids are off or failed). */
  #echo(res: Response, method: string, id: string): Response {
    const ids = this.#ids;
    if (ids !== null && id !== '') res.setKnownHeader(ids.key, ids.header, id);
    return finalize(res, method);
  }

  #globalChain(): readonly Middleware[] {
    this.#global ??= this.#table.global.map((ref) => this.#table.aliases.resolve(ref));
    return this.#global;
  }

  #resolve(context: RouteContext): readonly Middleware[] {
    if (context.binders === null) {
      const binders: [string, BindingResolver][] = [];
      for (const name of context.route.paramNames) {
        const resolver = this.#table.bindings.get(name);
        if (resolver !== undefined) binders.push([name, resolver]);
      }
      context.binders = binders;
    }
    context.chain ??= context.route.middlewareChain().map((ref) => this.#table.aliases.resolve(ref));
    return context.chain;
  }

  /** A refusal before the target is split: no request exists for a handler, so it takes the app's shape only. */
  #refuse(status: number, message: string): Response {
    return errorAnswer(this.errors, new HttpError(status, message), undefined);
  }

  #route(input: IncomingInput, id: string, trace: RequestTrace | null): Outcome {
    const { method } = input;
    const router = this.#router;
    const settings = this.#settings;
    if (input.target.length > settings.maxUrlLength) {
      return this.#refuse(414, `Request target longer than ${settings.maxUrlLength} characters`);
    }
    const target = splitTarget(input.target);
    if (target === null) {
      if (input.target === '*' && method === 'OPTIONS')
        return new Response().status(204).header('Allow', VERBS.join(', '));
      // `CONNECT host:port` asks for a tunnel: this server is no proxy (RFC 9110 §9.3.6).
      if (method === 'CONNECT') return this.#refuse(501, 'CONNECT tunnels are not implemented');
      return this.#refuse(400, 'Malformed request target');
    }
    const { path, query } = target;

    let match = router.find(method, path);
    if (match === null && method === 'HEAD') match = router.find('GET', path);
    if (match === null && settings.trailingSlash === 'redirect' && path !== '/') {
      const canonical = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
      const found =
        router.find(method, canonical) ?? (method === 'HEAD' ? router.find('GET', canonical) : null);
      if (found !== null && canonical !== '') {
        return new Response()
          .status(308)
          .header('Location', query === '' ? canonical : `${canonical}?${query}`);
      }
    }
    const malformed = match?.malformed === true;
    const matched = match === null || malformed ? null : match.value;
    const body = input.hasBody
      ? new BodyLoader(
          input,
          matched?.route.bodyLimitSetting ?? settings.bodyLimit,
          () => uploadLimits(settings.uploads, matched?.route.uploadsSetting),
          () => matched?.route.decompressSetting ?? settings.decompress,
        )
      : null;
    const req = new Request({
      method,
      path,
      query,
      headers: input.headers,
      ip:
        settings.trustProxy === null
          ? input.ip
          : clientAddress(input.ip, input.headers.get('x-forwarded-for'), settings.trustProxy),
      params: match === null ? undefined : match.params,
      captures: match === null ? undefined : match.captures,
      // The context describes the route to `req.route` when a handler reads it.
      route: matched,
      body: body === null ? noBody : body.load,
      upgrade: input.upgrade,
      id,
      client: input,
      cookies: settings.cookies,
      log: this.#requestLog,
    });
    if (trace !== null) routed(trace, matched, req);
    const res = new Response(req);
    if (malformed) {
      // Before any middleware, as before routing: the path cannot be read, but the answer is the app's.
      const error = new HttpError(400, 'Malformed percent-encoding in the path');
      return this.#answers.failed(error, req, false, null, { method, path, id, route: null });
    }
    const global = this.#global ?? this.#globalChain();
    const outcome =
      global.length === 0
        ? this.#core(matched, req, res, method, path, id)
        : guarded(
            () => runChain(global, (current) => this.#core(matched, current, res, method, path, id), req),
            // What an application middleware throws (a timeout, a throttle's 429) goes to onError as well.
            (error) => this.#failed(error, matched, req, method, path, id),
          );
    // A body may still be arriving when the answer is decided, or have left files: let it go after.
    return body === null ? outcome : body.afterAnswer(outcome);
  }

  /**
   * What the application middleware wraps: the matched route, or the answers for a path without one.
   * Errors become responses here, so the application middleware sees them. `method` and `path` are the
   * request's as received (and `id` its id), whatever request a middleware passes on.
   */
  #core(
    matched: RouteContext | null,
    req: Request,
    res: Response,
    method: string,
    path: string,
    id: string,
  ): Outcome {
    try {
      const outcome =
        matched !== null ? this.#runRoute(matched, req, res) : this.#unmatched(req, res, method, path);
      return outcome instanceof Response
        ? outcome
        : outcome.catch((error: unknown) => this.#failed(error, matched, req, method, path, id));
    } catch (error) {
      return this.#failed(error, matched, req, method, path, id);
    }
  }

  /** The answer to an error thrown while serving (no closure built for requests that do not fail). */
  #failed(
    error: unknown,
    matched: RouteContext | null,
    req: Request,
    method: string,
    path: string,
    id: string,
  ): Outcome {
    const route = matched === null ? null : matched.route;
    const failed: FailedRequest = { method, path, id, route: route === null ? null : route.pattern };
    return this.#answers.failed(error, req, route !== null, route === null ? null : route.group, failed);
  }

  #unmatched(req: Request, res: Response, method: string, path: string): Outcome {
    const allowed = allowedMethods(this.#router, path);
    if (allowed.length > 0 && method === 'OPTIONS')
      return new Response().status(204).header('Allow', allowed.join(', '));
    if (allowed.length > 0 && this.#settings.methodNotAllowed) {
      throw new HttpError(405, `Method ${method} not allowed`, { headers: { Allow: allowed.join(', ') } });
    }
    // RFC 9110 §15.6.2: 501 is for a method the server supports on no resource at all. On a path with
    // routes the useful answer is the 405 above, whatever the method: which methods the path has.
    if (!this.#table.methods.has(method)) throw new HttpError(501, `Method ${method} is not implemented`);
    const fallback = this.#table.fallback;
    if (fallback !== null) {
      return andThen(req.loadBody(), () => callHandler(fallback, req, res, NO_BOUND));
    }
    return this.#answers.notFound(req, { method, path, id: req.id, route: null });
  }

  #runRoute(context: RouteContext, req: Request, res: Response): Outcome {
    let validation = context.validation;
    if (validation === undefined) {
      validation = this.#contracts.compile(context.route);
      context.validation = validation;
    }
    const middleware = context.chain ?? this.#resolve(context);
    if (validation === null) {
      if (middleware.length === 0) return afterMiddleware(context, null, req, res);
      return runChain(middleware, (current) => afterMiddleware(context, null, current, res), req);
    }
    const { checkRequest, checkResponse } = validation;
    // Validation needs the body, so it runs where the body is read: after every middleware (an auth
    // middleware's 401 comes first), before the bindings and the handler.
    const chain = () =>
      runChain(middleware, (current) => afterMiddleware(context, checkRequest, current, res), req);
    if (checkResponse === null) return chain();
    // The route's answer as the client gets it, thrown errors included, is what the document promises.
    const answered = guarded(chain, (error) =>
      this.#failed(error, context, req, req.method, req.path, req.id),
    );
    return andThen(answered, checkResponse);
  }
}

/** The methods a path answers to, in `VERBS` order (HEAD with GET, OPTIONS always), then others. */
function allowedMethods(router: Router<RouteContext>, path: string): string[] {
  const methods = new Set(router.allowedMethods(path));
  if (methods.size === 0) return [];
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const known: string[] = VERBS.filter((verb) => methods.has(verb));
  return [...known, ...[...methods].filter((m) => !known.includes(m)).sort()];
}

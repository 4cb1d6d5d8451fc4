/**
 * The request pipeline, transport-neutral: the node:http listener and the fetch adapter both turn their
 * request into an {@link IncomingInput} and write back the {@link Response} this returns. It never throws.
 *
 * Order: target checks (414, 400, 501) → routing (HEAD via GET, trailing-slash redirect, malformed
 * escapes → 400) → application middleware → [matched route: body (413/400/415) → group and route
 * middleware → bindings (404) → handler] or [automatic OPTIONS 204 / 405 / fallback / 404]. Errors thrown
 * inside become responses there, so application middleware (logging, CORS) sees them too.
 */
import type { Router } from '../router.js';
import { parseBody } from './body.js';
import { errorBody, HttpError } from './errors.js';
import type { ResolvedHandler } from './handler.js';
import type { Logger } from './logger.js';
import { describe, type Middleware, runChain } from './middleware.js';
import { VERBS } from './registrar.js';
import { Request } from './request.js';
import { Response } from './response.js';
import type { Route } from './route.js';

/** A request as a transport hands it over. */
export interface IncomingInput {
  method: string;
  /** The request target as sent: `/path?query` (or an absolute URL). */
  target: string;
  /** Lower-case names. */
  headers: Map<string, string>;
  ip: string;
  /** Reads the whole body, failing with a 413 {@link HttpError} past `limit` bytes. */
  readBody(limit: number): Promise<Uint8Array>;
}

/** `(raw, req) => value`; `null`/`undefined` answers 404. */
export type BindingResolver = (value: string, req: Request) => unknown;

export interface KernelSettings {
  bodyLimit: number;
  maxUrlLength: number;
  methodNotAllowed: boolean;
  trailingSlash: boolean | 'redirect';
}

/** What the kernel reads from the application at each request. */
export interface KernelState {
  readonly router: Router<Route>;
  readonly settings: KernelSettings;
  readonly logger: Logger;
  readonly bindings: ReadonlyMap<string, BindingResolver>;
  readonly fallback: ResolvedHandler | null;
  isKnownMethod(method: string): boolean;
  globalMiddleware(): readonly Middleware[];
  routeMiddleware(route: Route): readonly Middleware[];
}

export async function dispatch(state: KernelState, input: IncomingInput): Promise<Response> {
  let res: Response;
  try {
    res = await route(state, input);
  } catch (error) {
    res = errorResponse(state, error, input.method, input.target);
  }
  return finalize(res, input.method);
}

async function route(state: KernelState, input: IncomingInput): Promise<Response> {
  const { method } = input;
  const { router, settings } = state;
  if (input.target.length > settings.maxUrlLength) {
    return plainError(414, `Request target longer than ${settings.maxUrlLength} characters`);
  }
  const target = splitTarget(input.target);
  if (target === null) {
    if (input.target === '*' && method === 'OPTIONS')
      return new Response().status(204).header('Allow', VERBS.join(', '));
    return plainError(400, 'Malformed request target');
  }
  if (!state.isKnownMethod(method)) return plainError(501, `Method ${method} is not implemented`);
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
  if (match?.malformed === true) return plainError(400, 'Malformed percent-encoding in the path');

  const matched = match?.value ?? null;
  const req = new Request({
    method,
    path,
    query,
    headers: input.headers,
    ip: input.ip,
    ...(match === null ? {} : { params: match.params, captures: match.captures }),
    route: matched === null ? null : { id: matched.id, name: matched.getName(), pattern: matched.pattern },
  });
  const res = new Response();

  const core = async (current: Request): Promise<Response> => {
    try {
      if (matched !== null) return await runRoute(state, matched, current, res, input);
      const allowed = allowedMethods(router, path);
      if (allowed.length > 0 && method === 'OPTIONS')
        return new Response().status(204).header('Allow', allowed.join(', '));
      if (allowed.length > 0 && settings.methodNotAllowed) {
        return plainError(405, `Method ${method} not allowed`).header('Allow', allowed.join(', '));
      }
      if (state.fallback !== null) {
        await readBody(state, current, input);
        return await callHandler(state.fallback, current, res, []);
      }
      return plainError(404, `No route for ${method} ${path}`);
    } catch (error) {
      return errorResponse(state, error, method, path);
    }
  };
  return runChain(state.globalMiddleware(), core, req);
}

async function runRoute(
  state: KernelState,
  route: Route,
  req: Request,
  res: Response,
  input: IncomingInput,
): Promise<Response> {
  await readBody(state, req, input);
  return runChain(
    state.routeMiddleware(route),
    async (current) => {
      const bound: unknown[] = [];
      for (const name of route.paramNames) {
        const resolver = state.bindings.get(name);
        if (resolver === undefined) continue;
        const raw = current.param(name);
        const value = raw === undefined ? undefined : await resolver(raw, current);
        if (raw !== undefined && (value === null || value === undefined))
          throw new HttpError(404, 'Not Found');
        bound.push(value);
      }
      return callHandler(route.handler, current, res, bound);
    },
    req,
  );
}

async function readBody(state: KernelState, req: Request, input: IncomingInput): Promise<void> {
  const raw = await input.readBody(state.settings.bodyLimit);
  req.attachBody(parseBody(raw, input.headers.get('content-type'), input.headers.get('content-encoding')));
}

async function callHandler(
  handler: ResolvedHandler,
  req: Request,
  res: Response,
  bound: unknown[],
): Promise<Response> {
  const result = await handler.call(req, res, ...bound);
  if (result === undefined) return res;
  if (result instanceof Response) return result;
  throw new TypeError(`handler ${handler.location ?? ''} returned ${describe(result)} instead of a Response`);
}

/** The methods a path answers to, in `VERBS` order (HEAD with GET, OPTIONS always), then others. */
function allowedMethods(router: Router<Route>, path: string): string[] {
  const methods = new Set(router.allowedMethods(path));
  if (methods.size === 0) return [];
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const known: string[] = VERBS.filter((verb) => methods.has(verb));
  return [...known, ...[...methods].filter((m) => !known.includes(m)).sort()];
}

/** An error thrown by a handler or middleware, as a response: HttpError keeps its status; the rest is a 500. */
export function errorResponse(
  state: Pick<KernelState, 'logger'>,
  error: unknown,
  method: string,
  path: string,
): Response {
  if (error instanceof HttpError) {
    const res = plainError(error.status, error.message);
    for (const [name, value] of Object.entries(error.headers)) res.header(name, value);
    return res;
  }
  state.logger.error(
    `${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`,
    error,
  );
  return plainError(500);
}

function plainError(status: number, message?: string): Response {
  return new Response().status(status).json(errorBody(status, message));
}

/** Content-Length from the real body; no body on HEAD, 204, 304 and 1xx. */
function finalize(res: Response, method: string): Response {
  const status = res.getStatus();
  if (status === 204 || status === 304 || status < 200) {
    res.dropBody();
    if (status !== 304) res.removeHeader('Content-Length');
    return res;
  }
  const body = res.getBody();
  if (body !== null) {
    res.header('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  } else if (method !== 'HEAD' || !res.hasHeader('Content-Length')) {
    res.header('Content-Length', 0);
  }
  if (method === 'HEAD') res.dropBody();
  return res;
}

/** Splits an origin-form (`/p?q`) or absolute-form (`http://h/p?q`) target; `null` for anything else. */
export function splitTarget(target: string): { path: string; query: string } | null {
  let rest = target;
  if (!rest.startsWith('/')) {
    const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
    if (absolute === null) return null;
    rest = rest.slice(absolute[0].length);
    if (!rest.startsWith('/')) rest = `/${rest}`;
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q === -1 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

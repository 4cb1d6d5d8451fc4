/**
 * The typed client's runtime: one `fetch` per call, its URL built from the route's pattern pieces, its
 * answer read and checked against the statuses the route documents. It uses only what browsers and Node
 * both have (`fetch`, `Headers`, `URLSearchParams`), and the caller's `fetch` when given one.
 */
import { ClientError } from './errors.js';
import type { Client, RouteMap, RouteNameMap } from './types.js';
import { fillPath, queryString, type UrlPiece } from './url.js';

/** What the client knows of one route at run time: written by `arbor client:export`. */
export interface ClientRoute {
  /** The pattern's pieces: literal text and parameters. */
  readonly path: readonly UrlPiece[];
  /** The route's name, if it has one. */
  readonly name?: string;
  /** The statuses it documents (`'200'`, `'4XX'`, `'default'`): any other is a {@link ClientError}. */
  readonly statuses: readonly string[];
}

/** The routes a client calls, keyed `'METHOD /pattern'`: the generated `routes` constant. */
export type ClientRoutes = { readonly [key: string]: ClientRoute };

/** The `fetch` a client calls: the global one, or the caller's (an `app.fetch`, a wrapper that logs, a mock server's). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** How a client reaches the API. */
export interface ClientOptions {
  /**
   * Where the API is, prefixed to every route's path: `'https://api.example.com'`, `'http://localhost:3000/v1'`;
   * `''` in a browser for the page's own origin.
   */
  baseUrl: string;
  /** The `fetch` to call (default: the global `fetch`, looked up at each call). */
  fetch?: FetchFunction;
  /** `RequestInit` every call starts from (credentials, headers, …); a call's own `init` is laid over it. */
  init?: RequestInit;
}

/** The input of a call, as the client reads it (the types say what each route takes). */
interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: unknown;
}

/**
 * A client of the routes `routes` (the generated constant), typed by the route map `R` (the generated
 * `Routes`) and its names `N`.
 *
 * @example
 * import { routes, type RouteNames, type Routes } from './api-client.js';
 * const api = createClient<Routes, RouteNames>(routes, { baseUrl: 'http://localhost:3000' });
 * const answer = await api.get('/tasks/:id', { params: { id: 'a b' } });
 * if (answer.status === 200) console.log(answer.data.title);
 */
export function createClient<R extends RouteMap, N extends RouteNameMap<R> = Record<never, never>>(
  routes: ClientRoutes,
  options: ClientOptions,
): Client<R, N> {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl.slice(0, -1) : options.baseUrl;
  const send: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const names = new Map<string, string>();
  for (const [key, route] of Object.entries(routes)) if (route.name !== undefined) names.set(route.name, key);

  const routeAt = (key: string): ClientRoute => {
    const route = Object.hasOwn(routes, key) ? routes[key] : undefined;
    if (route === undefined) throw new ClientError('UNKNOWN_ROUTE', `no route ${key} in the client's table`);
    return route;
  };
  const urlOf = (key: string, route: ClientRoute, input: CallInput): string =>
    base + fillPath(key, route.path, input.params ?? {}) + queryString(input.query);

  const call = async (key: string, input: CallInput = {}, init: RequestInit = {}) => {
    const route = routeAt(key);
    const method = key.slice(0, key.indexOf(' '));
    const url = urlOf(key, route, input);
    const headers = new Headers(options.init?.headers);
    new Headers(init.headers).forEach((value, name) => {
      headers.set(name, value);
    });
    for (const [name, value] of Object.entries(input.headers ?? {}))
      if (value !== undefined && value !== null) headers.set(name, String(value));
    const cookie = cookieHeader(input.cookies);
    if (cookie !== '')
      headers.set('cookie', headers.has('cookie') ? `${headers.get('cookie')}; ${cookie}` : cookie);
    const request: RequestInit = { ...options.init, ...init, method, headers };
    if (input.body !== undefined) {
      if (isRawBody(input.body)) {
        request.body = input.body;
        // A stream needs half duplex in Node's fetch (and is what it is in a browser's).
        if (typeof ReadableStream !== 'undefined' && input.body instanceof ReadableStream)
          Object.assign(request, { duplex: 'half' });
      } else {
        request.body = JSON.stringify(input.body);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
    }
    const response = await send(url, request);
    const data = await readBody(key, response, method);
    const status = response.status;
    if (!documents(route.statuses, status))
      throw new ClientError(
        'UNDOCUMENTED_STATUS',
        `${key} answered ${status}, which it does not document (it documents ${route.statuses.join(', ') || 'nothing'})`,
        { status, data, response },
      );
    return { status, ok: response.ok, data, response };
  };

  const byMethod = (method: string) => (path: string, input?: CallInput, init?: RequestInit) =>
    call(`${method} ${path}`, input, init);
  const client = {
    request: (key: string, input?: CallInput, init?: RequestInit) => call(key, input, init),
    route: async (name: string, input?: CallInput, init?: RequestInit) => {
      const key = names.get(name);
      if (key === undefined)
        throw new ClientError('UNKNOWN_ROUTE', `no route named "${name}" in the client's table`);
      return call(key, input, init);
    },
    get: byMethod('GET'),
    post: byMethod('POST'),
    put: byMethod('PUT'),
    patch: byMethod('PATCH'),
    delete: byMethod('DELETE'),
    url: (key: string, input: CallInput = {}) => urlOf(key, routeAt(key), input),
  };
  // The runtime is untyped by design: the route map's types are laid over it here, once.
  return client as unknown as Client<R, N>;
}

/** Whether `status` is one the route documents: itself, its range (`4XX`), or `default`. */
function documents(statuses: readonly string[], status: number): boolean {
  const code = String(status);
  return statuses.includes(code) || statuses.includes(`${code[0]}XX`) || statuses.includes('default');
}

/** Bodies sent as they are: the ones `fetch` knows how to send. Anything else is JSON. */
function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}

/** `name=value; …`, each value percent-encoded as the server's cookie parser decodes it. */
function cookieHeader(cookies: Record<string, unknown> | undefined): string {
  if (cookies === undefined) return '';
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(cookies))
    if (value !== undefined && value !== null) pairs.push(`${name}=${encodeURIComponent(String(value))}`);
  return pairs.join('; ');
}

/** The answer's body: `null` when it has none, JSON parsed when it says it is JSON, text otherwise. */
async function readBody(key: string, response: Response, method: string): Promise<unknown> {
  const status = response.status;
  if (method === 'HEAD' || status === 204 || status === 205 || status === 304) {
    await response.body?.cancel();
    return null;
  }
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text === '' ? null : text;
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ClientError(
      'INVALID_JSON',
      `${key} answered ${status} with a body that is not JSON`,
      {
        status,
        data: text,
        response,
      },
      { cause: error },
    );
  }
}

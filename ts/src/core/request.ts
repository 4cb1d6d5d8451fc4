/**
 * The request a handler receives: route parameters (percent-decoded), query string, headers, the body
 * (read and parsed before the handler runs), and attributes that middleware attach for later layers.
 */
import type { IncomingMessage } from 'node:http';
import type accepts from 'accepts';
import type { Accepts } from 'accepts';
import { decodeJson, EMPTY_BODY, isJsonMediaType, mediaTypeOf, type ParsedBody } from '../body/body.js';
import type { UploadedFile } from '../body/multipart.js';
import type { Part, PartStream } from '../body/multipart-parts.js';
import { lazyPackage } from '../builtins.js';
import { type CookieSigner, parseCookies } from '../helpers/cookies.js';
import type { HeaderSource, IncomingInput, UpgradeChannel } from '../http/dispatch.js';
import type {
  DeclaredEnv,
  DefaultEnv,
  Env,
  IsOpen,
  RouteContracts,
  ValidOf,
  ValidPart,
  VariableKey,
  VariableValue,
} from './context.js';
import { HttpError } from './errors.js';
import type { Logger } from './logger.js';
import type { AnyParams, PathParams } from './params.js';

export { type HeaderSource, headersFromMap } from '../http/dispatch.js';

/** The path and query of the request target, as sent (not normalised). */
export class Uri {
  readonly #path: string;
  readonly #query: string;

  constructor(path: string, query: string) {
    this.#path = path;
    this.#query = query;
  }

  /** The raw path, e.g. `/tasks/42` (percent-escapes kept). */
  getPath(): string {
    return this.#path;
  }

  /** The raw query string without `?`, or `''`. */
  getQuery(): string {
    return this.#query;
  }

  /** The path with its query string, `?` included when there is one: `/tasks?page=2`. */
  toString(): string {
    return this.#query === '' ? this.#path : `${this.#path}?${this.#query}`;
  }
}

/** What the kernel knows about the matched route when it builds the request. */
export interface RequestRoute {
  id: number;
  name: string | null;
  /** The full pattern, group prefixes applied. */
  pattern: string;
}

export interface RequestInit {
  method: string;
  path: string;
  query: string;
  headers: HeaderSource;
  ip: string;
  params?: Readonly<Record<string, string>> | undefined;
  captures?: readonly (string | undefined)[] | undefined;
  /** The matched route, or what describes it when first asked (the kernel passes its route context). */
  route?: RequestRoute | RouteSource | null;
  /** Reads and parses the body when first asked (the kernel's). Without one the body is empty. */
  body?: (() => ParsedBody | Promise<ParsedBody>) | undefined;
  /** The transport's channel when the request asks to switch protocols (see `IncomingInput.upgrade`). */
  upgrade?: UpgradeChannel | undefined;
  /** The request id (the kernel's, from the `requestId` setting); `''` when ids are off. */
  id?: string | undefined;
  /** Tells when the client goes away before its answer is out (the transport's input). */
  client?: Pick<IncomingInput, 'onAbort' | 'platform'> | undefined;
  /** The application's cookie signer, when it has secrets. */
  cookies?: CookieSigner | null | undefined;
  /** Builds the request's logger on first use of `req.log` (a child of the application's logger). */
  log?: ((request: Request) => Logger) | undefined;
}

/** @internal Describes a matched route when `req.route` is first read, so requests that never read it
 * never build it. */
export interface RouteSource {
  describe(): RequestRoute;
}

const loadAccepts = lazyPackage<typeof accepts>('accepts');
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
const NO_FILES: readonly UploadedFile[] = Object.freeze([]);
const ignore = (): void => {};
/** `req.log` of a request built without the application (a test's `new Request(…)`): it logs nothing. */
const SILENT_LOGGER: Logger = { info: ignore, warn: ignore, error: ignore };
const NO_CAPTURES: readonly (string | undefined)[] = Object.freeze([]);

/** `record[name]` when the record has it as its own entry: what a client named, never an inherited member. */
function ownEntry(record: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/**
 * `req.json()`, `req.body()` or `req.rawBody()` was called before the body was read: in a middleware,
 * which runs before the body is read (docs/framework/middleware.md), without `await req.readBody()` first.
 */
export class BodyNotReadError extends Error {
  readonly code = 'BODY_NOT_READ';

  constructor(accessor: string) {
    super(
      `req.${accessor}() was called before the body was read: middleware runs before it is read, ` +
        'so a middleware that needs the body must `await req.readBody()` first',
    );
    this.name = 'BodyNotReadError';
  }
}

/**
 * @example
 * app.get('/search/:q/:page?', (req, res) =>
 *   res.json({ q: req.param('q'), page: Number(req.param('page', '1')), sort: req.query('sort', 'asc') }));
 */
export class Request<P extends AnyParams = AnyParams, E extends Env = DefaultEnv> {
  readonly method: string;
  readonly ip: string;
  /**
   * The request's id when the application gives ids (`requestId`: generated, or the client's `X-Request-Id`
   * when trusted), as echoed in the response and logged with its records; `''` when ids are off.
   *
   * @example
   * app.get('/jobs', async (req, res) => res.status(202).json({ job: await queue.add({ trace: req.id }) }));
   */
  readonly id: string;
  readonly #path: string;
  readonly #query: string;
  /** Built on first use, like every per-request object below that most handlers never ask for. */
  #uri: Uri | undefined;
  #route: RequestRoute | RouteSource | null;
  readonly #headers: HeaderSource;
  readonly #params: Readonly<Record<string, string>>;
  readonly #captures: readonly (string | undefined)[];
  #attributes: Map<string, unknown> | undefined;
  /** The contract's validated, coerced values by part, set by the route's checks. */
  #valid: Partial<Record<ValidPart, unknown>> | undefined;
  readonly #logFactory: ((request: Request) => Logger) | null;
  #log: Logger | undefined;
  /** `null` until read. */
  #body: ParsedBody | null;
  #loader: (() => ParsedBody | Promise<ParsedBody>) | null;
  #loading: Promise<void> | null = null;
  #search: URLSearchParams | undefined;
  /**
   * @internal The transport's channel when this request asks to switch protocols and the transport can
   * hand its connection over (WebSocket routes take it); `null` otherwise.
   */
  readonly upgrade: UpgradeChannel | null;
  readonly #client: Pick<IncomingInput, 'onAbort' | 'platform'> | null;
  /** @internal The application's cookie signer (`res.cookie(…, { signed: true })` signs with it). */
  readonly cookieSigner: CookieSigner | null;
  #cookies: Record<string, string> | undefined;
  #accepts: Accepts | undefined;
  /** Built when `signal` is first read, or when the request is aborted. */
  #abort: AbortController | null = null;

  constructor(init: RequestInit) {
    this.method = init.method;
    this.ip = init.ip;
    this.id = init.id ?? '';
    this.#path = init.path;
    this.#query = init.query;
    this.#route = init.route ?? null;
    this.#headers = init.headers;
    this.#params = init.params ?? NO_PARAMS;
    this.#captures = init.captures ?? NO_CAPTURES;
    this.#loader = init.body ?? null;
    this.#body = this.#loader === null ? EMPTY_BODY : null;
    this.upgrade = init.upgrade ?? null;
    this.#client = init.client ?? null;
    this.cookieSigner = init.cookies ?? null;
    this.#logFactory = init.log ?? null;
  }

  /**
   * What the runtime hands its fetch handler besides the request, its bindings: on Cloudflare Workers the
   * `env` object (KV namespaces, secrets, …) when the Worker passes it on (`export default { fetch:
   * app.fetch }` does); `undefined` on a runtime without them.
   *
   * @example
   * app.get('/flags', async (req, res) => res.json(await (req.bindings as Env).FLAGS.get('all', 'json')));
   */
  get bindings(): unknown {
    return this.#client?.platform?.env;
  }

  /**
   * Keeps `promise` running after the answer is sent: Workers' `ctx.waitUntil` when the runtime has one
   * (the Worker would otherwise be stopped once it answered). Elsewhere the promise simply runs on, and a
   * rejection is logged on `req.log` rather than left unhandled.
   *
   * @example
   * app.post('/events', (req, res) => { req.waitUntil(analytics.record(req.path)); return res.status(202).send(); });
   */
  waitUntil(promise: Promise<unknown>): void {
    const keep = this.#client?.platform?.waitUntil;
    if (keep !== undefined) {
      keep(promise);
      return;
    }
    promise.catch((error: unknown) => {
      this.log.error({ err: error }, 'a promise given to waitUntil failed');
    });
  }

  /**
   * The request's logger: a child of the application's `logger` carrying the request id (`reqId`) and,
   * once matched, the route, so a handler's own lines join the request's.
   *
   * @example
   * app.post('/orders', (req, res) => { req.log.info({ items: 3 }, 'order placed'); return res.status(201).send(); });
   */
  get log(): Logger {
    if (this.#log === undefined) {
      const factory = this.#logFactory;
      this.#log = factory === null ? SILENT_LOGGER : factory(this as Request);
    }
    return this.#log;
  }

  /**
   * Content negotiation (the `accepts` package, as Express's `req.accepts`): the best of `types` for the
   * request's `Accept` field — a media type (`application/json`), a wildcard (`text/*`), or an extension
   * (`json`, `html`) — as given, or `false` when none is acceptable. Without `Accept` the first wins.
   * Without arguments: the types the client accepts, best first.
   *
   * @example
   * switch (req.accepts('json', 'html')) { case 'html': return res.html(page); default: return res.json(data); }
   */
  accepts(): string[];
  accepts(...types: string[]): string | false;
  accepts(...types: string[]): string[] | string | false {
    return types.length === 0 ? this.#negotiate().types() : this.#negotiate().types(types);
  }

  /** The best of `languages` for `Accept-Language` (`false`: none); without arguments, the client's list. */
  acceptsLanguages(): string[];
  acceptsLanguages(...languages: string[]): string | false;
  acceptsLanguages(...languages: string[]): string[] | string | false {
    return languages.length === 0 ? this.#negotiate().languages() : this.#negotiate().languages(languages);
  }

  /** The best of `encodings` for `Accept-Encoding` (`identity` is always acceptable unless refused). */
  acceptsEncodings(): string[];
  acceptsEncodings(...encodings: string[]): string | false;
  acceptsEncodings(...encodings: string[]): string[] | string | false {
    return encodings.length === 0 ? this.#negotiate().encodings() : this.#negotiate().encodings(encodings);
  }

  /** The best of `charsets` for `Accept-Charset`. */
  acceptsCharsets(): string[];
  acceptsCharsets(...charsets: string[]): string | false;
  acceptsCharsets(...charsets: string[]): string[] | string | false {
    return charsets.length === 0 ? this.#negotiate().charsets() : this.#negotiate().charsets(charsets);
  }

  #negotiate(): Accepts {
    if (this.#accepts === undefined) {
      const headers: Record<string, string> = {};
      for (const name of ['accept', 'accept-language', 'accept-encoding', 'accept-charset']) {
        const value = this.#headers.get(name);
        if (value !== undefined) headers[name] = value;
      }
      // `accepts` reads only `headers` of the node request it is given.
      this.#accepts = loadAccepts()({ headers } as unknown as IncomingMessage);
    }
    return this.#accepts;
  }

  /** A cookie's value (percent-decoded), or `undefined`. A signed cookie reads as sent: use {@link signedCookie}. */
  cookie(name: string): string | undefined {
    return ownEntry(this.cookies(), name);
  }

  /**
   * Every cookie of the `Cookie` field (parsed once, with the `cookie` package), in a null-prototype
   * record: `Object.hasOwn(req.cookies(), name)`, not `req.cookies().hasOwnProperty(name)`.
   */
  cookies(): Readonly<Record<string, string>> {
    this.#cookies ??= parseCookies(this.#headers.get('cookie'));
    return this.#cookies;
  }

  /**
   * A signed cookie's value when its signature verifies with one of the application's secrets
   * (`cookies.secrets`); `undefined` when it is absent, unsigned, altered or signed for another name.
   * Never throws on what the client sent; throws a `TypeError` when the application has no secrets.
   */
  signedCookie(name: string): string | undefined {
    const signer = this.cookieSigner;
    if (signer === null)
      throw new TypeError(
        `req.signedCookie(${JSON.stringify(name)}): the application has no cookie secrets (new Application({ cookies: { secrets: [...] } }))`,
      );
    const raw = ownEntry(this.cookies(), name);
    return raw === undefined ? undefined : signer.unsign(name, raw);
  }

  /**
   * Fires when the client goes away before its answer is out in full (a streamed answer included), or when
   * a {@link timeout} middleware gives up on the request (then its reason is a `TimeoutError`). Pass it on
   * to whatever the handler waits for, so that work nobody will read stops.
   *
   * @example
   * app.get('/report', async (req, res) => res.json(await fetch(upstream, { signal: req.signal })));
   */
  get signal(): AbortSignal {
    if (this.#abort === null) {
      const controller = new AbortController();
      this.#abort = controller;
      // Listened for only by requests that read the signal: most never do.
      this.#client?.onAbort?.(() =>
        controller.abort(new DOMException('The client went away before the answer was sent', 'AbortError')),
      );
    }
    return this.#abort.signal;
  }

  /** @internal Aborts {@link signal} (a timeout gave up on the request). */
  abort(reason: unknown): void {
    if (this.#abort === null) this.#abort = new AbortController();
    this.#abort.abort(reason);
  }

  /** The matched route, or `null` (fallback, automatic OPTIONS, errors). */
  get route(): RequestRoute | null {
    const route = this.#route;
    if (route === null || !('describe' in route)) return route;
    const described = route.describe();
    this.#route = described;
    return described;
  }

  /** The request method, upper case (`'GET'`); the same as {@link method}. */
  getMethod(): string {
    return this.method;
  }

  /** The request target as a {@link Uri}: its path and query string, still percent-encoded. */
  getUri(): Uri {
    this.#uri ??= new Uri(this.#path, this.#query);
    return this.#uri;
  }

  /** Shorthand for `getUri().getPath()`. */
  get path(): string {
    return this.#path;
  }

  /**
   * A route parameter (percent-decoded), or `fallback` when the parameter is absent (`:page?`). Typed from
   * the route's pattern: a declared name is `string`, an optional one `string | undefined` (`string` with
   * a fallback), an undeclared one a compile error.
   */
  param<K extends keyof P & string>(name: K): P[K];
  param<K extends keyof P & string>(name: K, fallback: string): NonNullable<P[K]> | string;
  param(name: string, fallback?: string): string | undefined {
    return Object.hasOwn(this.#params, name) ? this.#params[name] : fallback;
  }

  /** `params(name)` is `param(name)` (annotated examples spell it so); `params()` gives all. */
  params(): { [K in keyof P]: P[K] };
  params<K extends keyof P & string>(name: K): P[K];
  params(name?: string): unknown {
    return name === undefined ? { ...this.#params } : this.param(name);
  }

  /** The capture groups of a `{^regex$}` route, in textual order (`undefined` for a group that did not take part). */
  captures(): (string | undefined)[] {
    return [...this.#captures];
  }

  /**
   * The first value of a query-string parameter, or `fallback`. `query()` gives all (first values) in a
   * null-prototype record, as `req.cookies()` does: the client names its keys.
   */
  query(): Record<string, string>;
  query(name: string): string | undefined;
  query(name: string, fallback: string): string;
  query(name?: string, fallback?: string): string | undefined | Record<string, string> {
    const search = this.searchParams;
    if (name !== undefined) return search.get(name) ?? fallback;
    const all: Record<string, string> = Object.create(null);
    for (const [key, value] of search) if (!Object.hasOwn(all, key)) all[key] = value;
    return all;
  }

  /** Every value of a repeated query parameter (`?tag=a&tag=b`). */
  queryAll(name: string): string[] {
    return this.searchParams.getAll(name);
  }

  get searchParams(): URLSearchParams {
    this.#search ??= new URLSearchParams(this.#query);
    return this.#search;
  }

  /** A request header (case-insensitive), or `undefined`. */
  header(name: string): string | undefined {
    return this.#headers.get(name.toLowerCase());
  }

  /** Whether the request has the header `name` (any case). */
  hasHeader(name: string): boolean {
    return this.#headers.get(name.toLowerCase()) !== undefined;
  }

  /** All headers, lower-case names. */
  headers(): Record<string, string> {
    return Object.fromEntries(this.#headers.all());
  }

  /** The token of an `Authorization: Bearer <token>` header, or `undefined`. */
  bearerToken(): string | undefined {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(this.header('authorization') ?? '');
    return match?.[1];
  }

  /**
   * The JSON body. An empty body gives `{}` (as Express's `json()` does). A body of another declared type
   * (form, text, …) throws a 415; a body sent without `Content-Type` is parsed as JSON (400 if it is not).
   */
  json<T = Record<string, unknown>>(): T {
    const body = this.#read('json');
    if (body.kind === 'empty') return {} as T;
    if (body.kind === 'json') return body.value as T;
    if (body.mediaType === '') return decodeJson(body.raw) as T;
    throw new HttpError(415, `Expected a JSON body (Content-Type: application/json), got ${body.mediaType}`);
  }

  /**
   * The parsed body: the JSON value, a form record (`a=1&b=2` → `{ a: '1', b: '2' }`; a multipart body's
   * fields the same way), the text of a `text/*` body, the bytes of anything else, `{}` when empty.
   */
  body<T = Record<string, unknown>>(): T {
    const body = this.#read('body');
    return (body.kind === 'empty' ? {} : body.value) as T;
  }

  /** The raw body bytes (empty for a multipart body, whose files are on disk: see {@link files}). */
  rawBody(): Uint8Array {
    return this.#read('rawBody').raw;
  }

  /**
   * The files of a `multipart/form-data` body, in the order they came (`[]` for any other body): each with
   * its `fieldname`, `filename`, `mimetype`, `size` and the `path` it was streamed to. They are deleted
   * once the answer is sent; move one (`fs.rename`) to keep it. The form's other fields are `req.body()`.
   *
   * @example
   * app.post('/avatar', async (req, res) => {
   *   const avatar = req.file('avatar');
   *   if (avatar === undefined) throw new HttpError(400, 'avatar is required');
   *   await rename(avatar.path, `uploads/${randomUUID()}`);
   *   return res.status(201).json({ size: avatar.size });
   * });
   */
  files(): readonly UploadedFile[] {
    return this.#read('files').files ?? NO_FILES;
  }

  /**
   * The parts of a `multipart/form-data` body as they arrive, on a route with `.uploads({ stream: true })`:
   * nothing is written to disk, and a file is read from the client only as fast as its `stream` is read —
   * to hash it, scan it, or pipe it to storage. Iterate once; a part not read to its end is skipped when
   * the next is asked for. A limit crossed (413), a malformed body (400), the client leaving (499) or a
   * part the route's contract refuses (400, with `validate`) is thrown by the loop, and fails the file
   * stream being read.
   *
   * @example
   * app.post('/objects', async (req, res) => {
   *   for await (const part of req.parts())
   *     if (part.type === 'file') await pipeline(part.stream, bucket.writer(part.filename));
   *   return res.status(201).send();
   * }).uploads({ stream: true });
   */
  parts(): AsyncIterable<Part> {
    const body = this.#body;
    if (body === null) throw new BodyNotReadError('parts');
    if (body.parts !== undefined) return body.parts;
    if (body.kind === 'multipart')
      throw new Error(
        'req.parts() is for routes that stream their uploads (`.uploads({ stream: true })`): this one read the form before the handler, use req.body() and req.files()',
      );
    throw new HttpError(415, `Expected a multipart/form-data body, got ${body.mediaType || 'none'}`);
  }

  /** @internal The parts of a form this route streams, once the body is opened (validation guards them). */
  get streamedParts(): PartStream | undefined {
    return this.#body?.parts;
  }

  /** The first file sent in the field `fieldname`, or `undefined`. */
  file(fieldname: string): UploadedFile | undefined {
    return this.files().find((file) => file.fieldname === fieldname);
  }

  /**
   * Reads and parses the body now, and resolves to what {@link Request.body} returns. Handlers never need
   * it (the body is read before they run); a middleware that needs the body awaits it, as it would
   * `await c.req.json()` in Hono. It reads once: later calls, and the kernel, reuse the result. A body
   * over the limit rejects with a 413 `HttpError`, malformed JSON with a 400 (let them propagate).
   *
   * @example
   * app.alias('signed', async (req, next) => {
   *   await req.readBody();
   *   return verify(req.header('x-signature'), req.rawBody()) ? next.handle(req) : new Response().status(401).send();
   * });
   */
  async readBody<T = Record<string, unknown>>(): Promise<T> {
    await this.loadBody();
    return this.body<T>();
  }

  /** True once the body has been read (or there was none to read). */
  get bodyRead(): boolean {
    return this.#body !== null;
  }

  /** True when the request declared a JSON media type. */
  isJson(): boolean {
    return (
      isJsonMediaType(this.#body?.mediaType ?? '') ||
      isJsonMediaType(mediaTypeOf(this.header('content-type')))
    );
  }

  /**
   * Attaches a value for later layers (`req.set('user', user)` in an auth middleware). Chainable. A key the
   * route's environment declares takes a value of its type.
   */
  set<K extends VariableKey<E>>(key: K, value: VariableValue<E, K>): this;
  set(key: string, value: unknown): this;
  set(key: string, value: unknown): this {
    this.#attributes ??= new Map();
    this.#attributes.set(key, value);
    return this;
  }

  /**
   * An attribute set by a middleware, or `fallback`. On a route whose middleware declare what they add
   * (`Middleware<{ user: User }>`, a group given its middleware first, `MiddlewareNames`), the key is
   * checked and the value typed; on an untyped route any key is read as `T`.
   *
   * @example
   * app.group('/me', { middleware: [auth] }, (me) => me.get('/', (req, res) => res.json(req.get('user'))));
   */
  get<K extends VariableKey<E>>(key: K): VariableValue<E, K>;
  get<T = unknown>(key: IsOpen<E> extends true ? string : never, fallback?: T): T | undefined;
  get(key: string, fallback?: unknown): unknown {
    const attributes = this.#attributes;
    return attributes?.has(key) === true ? attributes.get(key) : fallback;
  }

  /**
   * The validated input of the route's contract for `part`, coerced and with its defaults applied
   * (`req.valid('query').limit` is a number), typed from a code-first schema. Throws when the route has no
   * contract for `part`.
   *
   * @example
   * app.get('/articles', { schema: { query: z.object({ limit: z.coerce.number().default(20) }) } }, (req, res) =>
   *   res.json(list(req.valid('query').limit)));
   */
  valid<K extends ValidPart>(part: K): ValidOf<E, K> {
    const valid = this.#valid;
    if (valid === undefined || !(part in valid))
      throw new Error(`req.valid('${part}'): this route has no contract for its ${part}`);
    return valid[part] as ValidOf<E, K>;
  }

  /** @internal The route's checks store what they validated (and coerced) for `req.valid(part)`. */
  setValid(part: ValidPart, value: unknown): void {
    this.#valid ??= {};
    this.#valid[part] = value;
  }

  /** @internal Reads the body once; synchronous when there is none (the kernel's hot path stays so). */
  loadBody(): void | Promise<void> {
    if (this.#body !== null) return;
    if (this.#loading !== null) return this.#loading;
    const loader = this.#loader as () => ParsedBody | Promise<ParsedBody>;
    const parsed = loader();
    if (!(parsed instanceof Promise)) {
      this.#body = parsed;
      return;
    }
    this.#loading = parsed.then((body) => {
      this.#body = body;
    });
    return this.#loading;
  }

  #read(accessor: string): ParsedBody {
    const body = this.#body;
    if (body === null) throw new BodyNotReadError(accessor);
    if (body.parts !== undefined)
      throw new Error(
        `req.${accessor}() cannot read a form this route streams (\`.uploads({ stream: true })\`): read its fields and files with req.parts()`,
      );
    return body;
  }
}

/**
 * The request of route `K` (`'METHOD /pattern'`, a key of the generated {@link RouteContracts}) as its
 * registration types it: path parameters from the pattern, `req.valid(part)` from the contract. For a
 * handler written apart from its registration, a controller method above all, where nothing infers them.
 *
 * @example
 * class TaskController {
 *   index(req: RouteRequest<'GET /tasks'>, res: Response) {
 *     const { offset, limit } = req.valid('query'); // numbers, defaults applied: no cast
 *     return res.json(store.list(offset, limit));
 *   }
 * }
 */
export type RouteRequest<K extends keyof RouteContracts & string> = K extends `${infer M} ${infer P}`
  ? Request<PathParams<P>, DeclaredEnv<DefaultEnv, M, P>>
  : never;

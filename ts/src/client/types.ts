/**
 * The types of the typed client: a route's spec (what a call sends, what it may answer by status), the
 * arguments a call takes, and the answer as a union discriminated by `status`.
 *
 * A route map is what `arbor client:export` writes (`interface Routes`), keyed `'METHOD /pattern'`:
 *
 * @example
 * interface Routes {
 *   'GET /tasks/:id': {
 *     request: { params: { id: string | number } };
 *     responses: { 200: Task; 404: ApiError };
 *   };
 * }
 */

/** What a call to one route sends: each part optional unless the route requires something in it. */
export interface RequestSpec {
  /** Path parameters by name (the wildcard is `'*'`), percent-encoded as the router decodes them. */
  params?: object;
  /** Query parameters; an array is sent as the key repeated (`?tag=a&tag=b`), as the validator reads it. */
  query?: object;
  /** Request headers by lower-case name. */
  headers?: object;
  /** Cookies, sent in a `Cookie` header (a browser's `fetch` never sends one it is given: there the browser's own apply). */
  cookies?: object;
  /** The body: sent as JSON, unless it is a `FormData`, `Blob`, `URLSearchParams`, string or stream (sent as it is). */
  body?: unknown;
}

/** One route of a route map: what it takes and what it answers, by status (`200`, `'4XX'`, `'default'`). */
export interface RouteSpec {
  request: RequestSpec;
  responses: object;
}

/** A route map: route specs keyed `'METHOD /pattern'`. */
export type RouteMap = { [key: string]: RouteSpec };

/** The route names of a route map (`'tasks.show'` → `'GET /tasks/:id'`). */
export type RouteNameMap<R extends RouteMap> = { [name: string]: keyof R & string };

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** Each numeral of a union of numerals as its number (`'404'` → 404). */
type Numbers<S> = S extends `${infer N extends number}` ? N : never;

/** The statuses of a range (`4` → 400 … 499). */
export type StatusRange<D extends 1 | 2 | 3 | 4 | 5> = Numbers<`${D}${Digit}${Digit}`>;

/** The numeric statuses a response key stands for: itself, its range less the listed codes, or any. */
export type StatusOf<S, Listed> = S extends number
  ? S
  : S extends `${infer N extends number}`
    ? N
    : S extends `${infer D extends 1 | 2 | 3 | 4 | 5}XX`
      ? Exclude<StatusRange<D>, Listed>
      : S extends 'default'
        ? number
        : never;

/** `true` for a 2XX key, `false` for another, `boolean` for `'default'` (as `Response.ok`). */
type OkOf<S> = S extends 'default' ? boolean : `${S & (string | number)}` extends `2${string}` ? true : false;

/** The numbers a spec lists by code (what a range or `default` stands for less these). */
type ListedCodes<Responses> = {
  [S in keyof Responses]: S extends number ? S : S extends `${infer N extends number}` ? N : never;
}[keyof Responses];

/**
 * One documented answer: its `status` (a literal: comparing it with a status the route does not document
 * is a compile error), `ok`, the body read and typed (`data`: JSON parsed, `null` when there is none, text
 * otherwise) and the fetch `Response` itself (headers, …).
 */
export interface Answer<Status extends number, Ok extends boolean, Data> {
  readonly status: Status;
  readonly ok: Ok;
  readonly data: Data;
  readonly response: Response;
}

/** The answers of a spec: a union discriminated by `status` (and by `ok`). */
export type AnswerOf<Spec extends RouteSpec> = {
  [S in keyof Spec['responses']]: Answer<
    StatusOf<S, ListedCodes<Spec['responses']>>,
    OkOf<S>,
    Spec['responses'][S]
  >;
}[keyof Spec['responses']];

/** The keys of `T` that must be given. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * A call's arguments: the request input (required when a part of it is) and the caller's `RequestInit`,
 * passed through to `fetch` (its `method` and `body` are the route's).
 */
export type CallArgs<Spec extends RouteSpec> = [RequiredKeys<Spec['request']>] extends [never]
  ? [input?: Spec['request'], init?: RequestInit]
  : [input: Spec['request'], init?: RequestInit];

/** The spec of route `K` of `R`. */
type At<R extends RouteMap, K> = K extends keyof R ? R[K] : never;

/** The patterns of the routes of `R` that answer `Method`. */
export type PathsOf<R extends RouteMap, Method extends string> = {
  [K in keyof R]: K extends `${Method} ${infer P}` ? P : never;
}[keyof R];

/** The client of a route map `R` whose routes `N` names. */
export interface Client<R extends RouteMap, N extends RouteNameMap<R> = Record<never, never>> {
  /** Calls a route by its key, `'GET /tasks/:id'`. */
  request<K extends keyof R & string>(route: K, ...args: CallArgs<R[K]>): Promise<AnswerOf<R[K]>>;
  /** Calls a named route (`app.get(…).name('tasks.show')`) by its name. */
  route<Name extends keyof N & string>(
    name: Name,
    ...args: CallArgs<R[N[Name]]>
  ): Promise<AnswerOf<R[N[Name]]>>;
  /** `GET` a route by its pattern, `'/tasks/:id'`. */
  get<P extends PathsOf<R, 'GET'>>(
    path: P,
    ...args: CallArgs<At<R, `GET ${P}`>>
  ): Promise<AnswerOf<At<R, `GET ${P}`>>>;
  /** `POST` to a route by its pattern. */
  post<P extends PathsOf<R, 'POST'>>(
    path: P,
    ...args: CallArgs<At<R, `POST ${P}`>>
  ): Promise<AnswerOf<At<R, `POST ${P}`>>>;
  /** `PUT` to a route by its pattern. */
  put<P extends PathsOf<R, 'PUT'>>(
    path: P,
    ...args: CallArgs<At<R, `PUT ${P}`>>
  ): Promise<AnswerOf<At<R, `PUT ${P}`>>>;
  /** `PATCH` a route by its pattern. */
  patch<P extends PathsOf<R, 'PATCH'>>(
    path: P,
    ...args: CallArgs<At<R, `PATCH ${P}`>>
  ): Promise<AnswerOf<At<R, `PATCH ${P}`>>>;
  /** `DELETE` a route by its pattern. */
  delete<P extends PathsOf<R, 'DELETE'>>(
    path: P,
    ...args: CallArgs<At<R, `DELETE ${P}`>>
  ): Promise<AnswerOf<At<R, `DELETE ${P}`>>>;
  /** The URL a call would fetch (path and query filled in), without fetching it. */
  url<K extends keyof R & string>(
    route: K,
    input?: Pick<R[K]['request'], Extract<'params' | 'query', keyof R[K]['request']>>,
  ): string;
}

/**
 * Shapes shared by the annotation reader, the exporter and the docs mount.
 *
 * Everything in {@link AnnotationSet} is plain JSON (no class instances, no functions, no `undefined`
 * inside arrays) so the route cache can store it and the exporter can run from it when the sources are
 * not available (a deployed bundle, a cached route table).
 */

import type { RouteInfo } from '../engine/engine.js';
import type { CallSite } from '../registry/call-site.js';

/**
 * One route as the docs read it, declared here so that the docs depend on the fields they read and not on
 * the application: `app.routeTable()`'s rows fit it, and so do the route cache's and hand-built tables,
 * which may leave out the middleware and the handler location. A type alias, not an interface, so that it
 * fits index signatures (`Record<string, unknown>`).
 */
export type RegisteredRoute = {
  id: number;
  methods: string[];
  /** The full pattern, group prefixes applied. */
  pattern: string;
  /** The engine's metadata (template, parameters and constraints, shadowing). */
  info: RouteInfo;
  name: string | null;
  middleware?: string[];
  handlerLocation?: string | null;
  /** Where the route was registered: the annotation reader looks for its doc block just above. */
  callSite: CallSite | null;
  /** Requests are checked against the annotations (`validate`): the document lists the 400. */
  validated?: boolean;
  /** A WebSocket route (`app.ws`): documented with its 101 answer. */
  webSocket?: boolean;
  /** Path parameters resolved by a binding (`app.bind`): the route answers 404 when one finds nothing. */
  bound?: string[];
};

/** The `openapi` key of the Application's config (docs/framework/configuration.md). */
export interface OpenApiConfig {
  info?: {
    title?: string;
    version?: string;
    description?: string;
    contact?: { name?: string; url?: string; email?: string };
    license?: { name: string; url?: string; identifier?: string };
  };
  servers?: { url: string; description?: string }[];
  /**
   * The document's top-level tags with their descriptions, listed first and in this order (a tag only
   * operations use is listed after them). Wins over a `@tag` annotation; `ExportOptions.tags` wins over it.
   *
   * @example [{ name: 'Tasks', description: 'The task list' }]
   */
  tags?: TagConfig[];
}

/** A top-level tag as the config or the export options give it. */
export interface TagConfig {
  name: string;
  description?: string;
}

/**
 * What the exporter needs from an application. The real `Application` satisfies it; tests hand-build one.
 *
 * @example
 * const source: DocumentSource = { config: { openapi: { info: { title: 'T', version: '1' } } }, routeTable: () => [] };
 */
export interface DocumentSource {
  config?: { openapi?: OpenApiConfig | undefined } | undefined;
  routeTable(): RegisteredRoute[];
  /** Annotations stored in the route cache the application started from (`null`: read the sources). */
  cachedAnnotations?(): AnnotationSet | null;
  /**
   * How the route's error answers look, when the application says so (an `onError` given a `schema`, or
   * `problemDetails`); `null`: `{ error, code }`.
   */
  errorDocument?(route: RegisteredRoute): { contentType: string; schema: object } | null;
  /**
   * The status and body a validation refusal of the route answers with, when the application declares
   * them (`onInvalid: { status, schema, handler }`); `null`: the error shape's 400.
   */
  invalidDocument?(route: RegisteredRoute): { status: number; contentType: string; schema?: object } | null;
  /**
   * The route's contract in code (its `schema` option) as JSON Schema in `target`'s dialect, or `null`
   * without one.
   */
  codeSchemas?(route: RegisteredRoute, target: JsonSchemaTarget): CodeContractDocument | null;
}

/** The JSON Schema dialect a document asks a code-first schema for. */
export type JsonSchemaTarget = 'draft-2020-12' | 'openapi-3.0';

/** A route's code-first contract as JSON Schema, part by part (the `schema` option converted). */
export interface CodeContractDocument {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: Record<string, unknown>;
  /** By status (`200`, `'4XX'`, `'default'`). */
  response?: Record<string, Record<string, unknown>>;
}

/**
 * The stable code of a {@link Diagnostic}, a problem found in the `@api` and `@schema` annotations (an
 * unknown tag, a malformed one, an example that does not fit its schema, a block that matches no route…).
 * Test on the code, not on the message.
 */
export type DiagnosticCode =
  | 'UNKNOWN_TAG'
  | 'MALFORMED_TAG'
  | 'MALFORMED_PARAM'
  | 'MALFORMED_RESPONSE'
  | 'MALFORMED_PROPERTY'
  | 'INVALID_EXAMPLE'
  | 'API_NO_MATCH'
  | 'AMBIGUOUS_BLOCK'
  | 'UNKNOWN_PATH_PARAM'
  | 'MIXED_BODY'
  | 'DUPLICATE_SCHEMA'
  | 'DUPLICATE_TAG'
  | 'DUPLICATE_COMPONENT'
  | 'UNDEFINED_SCHEMA'
  | 'UNDEFINED_COMPONENT'
  | 'UNDEFINED_SECURITY_SCHEME'
  | 'SOURCE_UNREADABLE'
  | 'BLOCK_NOT_ATTACHED';

/** A problem found in annotations or at export, always with the file and line it comes from. */
export interface Diagnostic {
  code: DiagnosticCode;
  /** Human-readable, starts with `file:line`. */
  message: string;
  file: string;
  line: number;
}

/** `formData`: a field of a `multipart/form-data` body (a file with `{file}`, `{file[]}`). */
export type ParamLocation = 'path' | 'query' | 'header' | 'cookie' | 'body' | 'formData';

/**
 * `@param {type} name.location.required - text`, and for a file field
 * `@param {file} name.formData.required [media/type[, media/type]] - text`.
 */
export interface ParamDoc {
  name: string;
  in: ParamLocation;
  type: string;
  required: boolean;
  description: string;
  /** The media types a `{file}` field declares (they become the part's `encoding.contentType`). */
  media?: string[];
  /** The `@component parameter` it came from (`@param #Name`): written as a `$ref` to it. */
  ref?: string;
  line: number;
}

/**
 * `@response 200 {Type} text`, `@response 204 text`, `@response 200 {file} application/pdf - text`,
 * `@response 200 {Task} text/event-stream - text`. `type` `'file'` is a binary body.
 */
export interface ResponseDoc {
  status: string;
  type: string | null;
  /** Media types written on the `@response` line (they replace `@produces` for this response). */
  media?: string[];
  description: string;
  /** The `@component response` it came from (`@response 404 #Name`): written as a `$ref` to it. */
  ref?: string;
  line: number;
}

/** `@body {Type} [required|optional] - text`: the JSON body as one schema (default required). */
export interface BodyDoc {
  type: string;
  required: boolean;
  description: string;
  /** The `@component requestBody` it came from (`@body #Name`): written as a `$ref` to it. */
  ref?: string;
  line: number;
}

/**
 * `@component parameter|response|requestBody Name …`: parameters, responses and request bodies written
 * once and used by name (`@param #Name`, `@response 404 #Name`, `@body #Name`), each with the file that
 * defines it. A response component has no status of its own (its `status` is `''`).
 */
export interface ComponentDocs {
  parameters: Record<string, ParamDoc & { file: string }>;
  responses: Record<string, ResponseDoc & { file: string }>;
  requestBodies: Record<string, BodyDoc & { file: string }>;
}

/** Everything one annotation block says about an operation. */
export interface OperationDoc {
  summary?: string;
  description?: string;
  params: ParamDoc[];
  /** The whole JSON body's type (`@body`); `.body.` params add fields to it. */
  body?: BodyDoc;
  produces: string[];
  responses: ResponseDoc[];
  security: { scheme: string; line: number }[];
  tags: string[];
  deprecated: boolean;
  /** `@example request` */
  requestExample?: unknown;
  /** `@example response <status>`, keyed by status. */
  responseExamples: Record<string, unknown>;
  file: string;
  /** First line of the block. */
  line: number;
  /**
   * The block's contract lines that could not be read (`file:line: why`), left out of the operation:
   * a validated route with any is refused (`CONTRACT_INVALID`) rather than checked without them.
   */
  unreadable?: string[];
}

/** `@schema Name` with its `@property` lines. */
export interface SchemaDoc {
  name: string;
  description?: string;
  properties: { name: string; type: string; description: string; required: boolean; line: number }[];
  example?: unknown;
  file: string;
  line: number;
  /**
   * Its `@property` lines that could not be read (`file:line: why`), left out: a validated route whose
   * contract refers to the schema is refused (`CONTRACT_INVALID`) rather than checked without them.
   */
  unreadable?: string[];
}

/** `@tag Name - description`: the description of a top-level tag. */
export interface TagDoc {
  name: string;
  description: string;
  file: string;
  line: number;
}

/** The annotation data of an application: serialisable, the exporter's only input besides the routes. */
export interface AnnotationSet {
  version: 1;
  /** Operation docs keyed by `"<METHOD> <pattern>"` (the registered full pattern, upper-case method). */
  operations: Record<string, OperationDoc>;
  schemas: Record<string, SchemaDoc>;
  /** `@tag` descriptions by tag name (absent in sets stored before tags had descriptions). */
  tags?: Record<string, TagDoc>;
  /** `@component` definitions (absent in sets stored before components existed). */
  components?: ComponentDocs;
  /** Problems found while reading (export adds its own: undefined schemas and security schemes). */
  diagnostics: Diagnostic[];
}

/** The OpenAPI version a document is written in: `'3.1.0'` (the default) or `'3.0.3'` for older tools. */
export type OpenApiVersion = '3.1.0' | '3.0.3';

/** A security scheme object as OpenAPI writes it (`bearerAuth`, `apiKey`, `basicAuth` in the reference applications). */
export type SecurityScheme = Record<string, unknown> & { type: string };

/**
 * Options of {@link exportWithDiagnostics} and `OpenApiExporter.export`: the OpenAPI version, the
 * security schemes, and where the annotations come from.
 *
 * @example
 * const { document } = exportWithDiagnostics(app, { openapi: '3.0.3', sources: ['src/schemas'] });
 */
export interface ExportOptions {
  /** `'3.1.0'` (default) or `'3.0.3'`. */
  openapi?: OpenApiVersion;
  /** Security schemes by name → `components.securitySchemes`. */
  security?: Record<string, SecurityScheme>;
  /** Precomputed annotations (from the route cache); skips reading sources. */
  annotations?: AnnotationSet;
  /** Extra files or directories to scan for `@api` and `@schema` blocks. */
  sources?: string[];
  /** Leave a route out of the document (the docs routes themselves are always left out). */
  exclude?: (route: RegisteredRoute) => boolean;
  /** Descriptions for top-level tags (wins over `config.openapi.tags` and `@tag`). */
  tags?: TagConfig[];
}

/** The OpenAPI document: plain JSON. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: { title: string; version: string } & Record<string, unknown>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

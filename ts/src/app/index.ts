/** The framework's public surface (re-exported by `ts/src/index.ts`). */

export { DEFAULT_BODY_LIMIT } from '../body/body.js';
export type { UploadedFile, UploadLimits } from '../body/multipart.js';
export type { FieldPart, FilePart, Part } from '../body/multipart-parts.js';
export type {
  ContextVariableMap,
  DefaultEnv,
  Env,
  MiddlewareNames,
  RouteContracts,
  ValidPart,
} from '../core/context.js';
export type {
  ErrorHandler,
  ErrorHandlerOptions,
  NotFoundHandler,
} from '../core/error-handlers.js';
export {
  type ErrorBody,
  errorBody,
  HeaderError,
  HttpError,
  type HttpErrorOptions,
} from '../core/errors.js';
export type {
  ArrayCallable,
  ControllerClass,
  HandlerFn,
  PatternHandler,
  RouteHandler,
} from '../core/handler.js';
export {
  consoleLogger,
  type LogFields,
  type Logger,
  type LogMethod,
  type LogRecord,
  type MemoryLogger,
  memoryLogger,
  transportLogger,
} from '../core/logger.js';
export {
  type AddsOf,
  type Middleware,
  type MiddlewareFactory,
  type MiddlewareName,
  type MiddlewareRef,
  middlewareFactory,
  type NextHandler,
} from '../core/middleware.js';
export type {
  AnyParams,
  Bindings,
  BoundArgs,
  JoinPath,
  NoBindings,
  ParamEntries,
  PathParams,
} from '../core/params.js';
export {
  BodyNotReadError,
  type HeaderSource,
  headersFromMap,
  Request,
  type RouteRequest,
  Uri,
} from '../core/request.js';
export {
  type HeaderValue,
  type RequestView,
  Response,
  type ResponseBody,
  type ServerSentEvent,
  type SseOptions,
  StreamBody,
  type StreamSource,
} from '../core/response.js';
export type { CookieOptions, CookiesConfig } from '../helpers/cookies.js';
export type { PrecompressedCoding } from '../helpers/precompressed.js';
export { encodeEvent } from '../helpers/sse.js';
export type { SseProducer, SseStream } from '../helpers/sse-push.js';
export { type SseCloseReason, SseTooSlowError } from '../helpers/sse-stream.js';
export type { FileOptions, SendFileOptions } from '../helpers/static-files.js';
export type { WebSocketHub } from '../helpers/websocket-hub.js';
export type { ArborServer, ServerOptions } from '../http/app-server.js';
export type { Dispatch, OutgoingResponse } from '../http/dispatch.js';
export type { ExecutionContext, FetchInfo } from '../http/fetch-adapter.js';
export { type BasicAuthOptions, type BasicAuthUser, basicAuth } from '../middleware/basic-auth.js';
export { type CompressEncoding, type CompressOptions, compress } from '../middleware/compress.js';
export { type CorsOptions, cors, type OriginDecision, type OriginMatcher } from '../middleware/cors.js';
export {
  CsrfError,
  type CsrfOptions,
  type CsrfTokenMode,
  type CsrfTokenOptions,
  type CsrfVariables,
  csrf,
  type SecFetchSite,
} from '../middleware/csrf.js';
export {
  type HealthHandler,
  type HealthHandlers,
  type HealthOptions,
  health,
  type ShutdownSource,
  type ShutdownState,
} from '../middleware/health.js';
export {
  type JWTPayload,
  type JwtAlgorithm,
  type JwtAuthCheckOptions,
  type JwtAuthOptions,
  type JwtKeySource,
  jwtAuth,
  jwtSecurityScheme,
} from '../middleware/jwt-auth.js';
export {
  type RequestLoggerOptions,
  type RequestLogRecord,
  requestLogger,
} from '../middleware/request-log.js';
export {
  CSP_NONCE_KEY,
  NONCE,
  type SecureHeadersOptions,
  type SecureHeadersVariables,
  secureHeaders,
} from '../middleware/secure-headers.js';
export { type ServeStaticOptions, serveStatic } from '../middleware/serve-static.js';
export {
  Session,
  type SessionCookieOptions,
  type SessionData,
  type SessionOptions,
  SessionTooLargeError,
  session,
} from '../middleware/session.js';
export {
  MemorySessionStore,
  type MemorySessionStoreOptions,
  type SessionStore,
} from '../middleware/session-store.js';
export {
  MemoryRateLimitStore,
  type RateLimitHit,
  type RateLimitStore,
  type ThrottleOptions,
  throttle,
} from '../middleware/throttle.js';
export { type TimeoutOptions, timeout } from '../middleware/timeout.js';
export { type CloseSource, type UnderPressureOptions, underPressure } from '../middleware/under-pressure.js';
export type { CallSite } from '../registry/call-site.js';
export { type AnyGroup, Group, Registrar, VERBS } from '../routing/registrar.js';
export type { ResourceAction, ResourceOptions } from '../routing/resource.js';
export type { RegisteredRoute } from '../routing/route.js';
export type { RouteContext } from '../routing/route-context.js';
export type { GroupOptions, RouteOptions } from '../routing/route-options.js';
export type { Route, RouteGroup } from '../routing/route-registration.js';
export { generateUrl, type UrlParams } from '../routing/url.js';
export {
  DEFAULT_MAX_PAYLOAD,
  type PatternWebSocketHandler,
  type WebSocket,
  type WebSocketHandler,
  type WebSocketOptions,
} from '../routing/websocket.js';
export type { CompiledContracts } from '../validation/precompiled.js';
export type {
  ContractSchema,
  FromJsonSchema,
  JsonSchema as ContractJsonSchema,
  JsonSchemaOutput,
  OutputOf,
  RouteSchemas,
  ValidOfSchemas,
} from '../validation/schema-types.js';
export {
  type InvalidAnswer,
  type InvalidHandler,
  RequestValidationError,
  ResponseValidationError,
  type ValidateConfig,
  type ValidateOptions,
  type ValidationDetail,
} from '../validation/validation.js';
export { type AnyApplication, Application, route } from './application.js';
export type { ApplicationConfig, OpenApiConfig, RequestIdConfig } from './config.js';
export type { BindingResolver, IncomingInput } from './kernel.js';
export type { Shutdown } from './lifecycle.js';
export { clientAddress, type TrustProxy } from './proxy.js';

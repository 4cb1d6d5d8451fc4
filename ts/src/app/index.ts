/** The framework's public surface (re-exported by `ts/src/index.ts`). */

export type { ArborServer, ServerOptions } from '../http/arbor-server.js';
export type { Dispatch, OutgoingResponse } from '../http/dispatch.js';
export type { FetchInfo } from '../http/fetch-adapter.js';
export type { CallSite } from '../registry/call-site.js';
export { type AnyApplication, Application, route } from './application.js';
export { DEFAULT_BODY_LIMIT } from './body.js';
export { type CompressEncoding, type CompressOptions, compress } from './compress.js';
export type { ApplicationConfig, OpenApiConfig, RequestIdConfig } from './config.js';
export type { CookieOptions, CookiesConfig } from './cookies.js';
export { type CorsOptions, cors } from './cors.js';
export { type ErrorBody, errorBody, HeaderError, HttpError } from './errors.js';
export type {
  ArrayCallable,
  ControllerClass,
  HandlerFn,
  PatternHandler,
  RouteHandler,
} from './handler.js';
export type { BindingResolver, IncomingInput } from './kernel.js';
export {
  consoleLogger,
  type LogFields,
  type Logger,
  type LogMethod,
  type LogRecord,
  type MemoryLogger,
  memoryLogger,
  transportLogger,
} from './logger.js';
export {
  type Middleware,
  type MiddlewareFactory,
  type MiddlewareRef,
  middlewareFactory,
  type NextHandler,
} from './middleware.js';
export type { UploadedFile, UploadLimits } from './multipart.js';
export type { FieldPart, FilePart, Part } from './multipart-parts.js';
export type {
  AnyParams,
  Bindings,
  BoundArgs,
  JoinPath,
  NoBindings,
  ParamEntries,
  PathParams,
} from './params.js';
export { clientAddress, type TrustProxy } from './proxy.js';
export { type AnyGroup, Group, Registrar, VERBS } from './registrar.js';
export { BodyNotReadError, type HeaderSource, headersFromMap, Request, Uri } from './request.js';
export { type RequestLoggerOptions, type RequestLogRecord, requestLogger } from './request-log.js';
export type { ResourceAction, ResourceOptions } from './resource.js';
export {
  type HeaderValue,
  type RequestView,
  Response,
  type ResponseBody,
  type ServerSentEvent,
  type SseOptions,
  StreamBody,
  type StreamSource,
} from './response.js';
export type { RegisteredRoute } from './route.js';
export type { RouteContext } from './route-context.js';
export type { Route, RouteGroup } from './route-registration.js';
export { type ServeStaticOptions, serveStatic } from './serve-static.js';
export { encodeEvent } from './sse.js';
export type { SseProducer, SseStream } from './sse-push.js';
export { type SseCloseReason, SseTooSlowError } from './sse-stream.js';
export type { FileOptions, SendFileOptions } from './static-files.js';
export {
  MemoryRateLimitStore,
  type RateLimitHit,
  type RateLimitStore,
  type ThrottleOptions,
  throttle,
} from './throttle.js';
export { type TimeoutOptions, timeout } from './timeout.js';
export { generateUrl, type UrlParams } from './url.js';
export {
  RequestValidationError,
  ResponseValidationError,
  type ValidateConfig,
  type ValidateOptions,
  type ValidationDetail,
} from './validation.js';
export {
  DEFAULT_MAX_PAYLOAD,
  type PatternWebSocketHandler,
  type WebSocket,
  type WebSocketHandler,
  type WebSocketOptions,
} from './websocket.js';
export type { WebSocketHub } from './websocket-hub.js';

// The package entry: the standalone router and, on top of it, the framework.

export * from './app/index.js';
export type { EngineOptions, Order, ParamInfo, ParamKind, RouteInfo, RouteShape } from './engine/engine.js';
export { RouteError, type RouteErrorCode } from './errors.js';
export {
  type AnnotationSet,
  clearSourceCache,
  type Diagnostic,
  type DiagnosticCode,
  type DocsOptions,
  type ExportOptions,
  exportWithDiagnostics,
  generateHtml,
  mountDocs,
  type OpenApiDocument,
  OpenApiExporter,
  type OpenApiVersion,
  readAnnotations,
  type SecurityScheme,
} from './openapi/index.js';
export { type RouteMatch, Router, type RouterOptions, type RouteSelection } from './router/index.js';

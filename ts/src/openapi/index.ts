// Annotations → OpenAPI document → static page and Swagger UI. See docs/OPENAPI.md.
export {
  DOCS_ROUTE_PREFIX,
  operationKey,
  type ReadOptions,
  readAnnotations,
} from './annotations/annotations.js';
export { clearSourceCache } from './annotations/source-cache.js';
export { type DocsHost, type DocsOptions, type DocsResponse, type MountedDocs, mountDocs } from './docs.js';
export { type ExportResult, exportWithDiagnostics, OpenApiExporter } from './exporter.js';
export { escapeHtml, generateHtml } from './html.js';
export { swaggerUiVersion } from './swagger-ui.js';
export type {
  AnnotationSet,
  BodyDoc,
  Diagnostic,
  DiagnosticCode,
  DocumentSource,
  ExportOptions,
  OpenApiConfig,
  OpenApiDocument,
  OpenApiVersion,
  OperationDoc,
  ParamDoc,
  RegisteredRoute,
  ResponseDoc,
  SchemaDoc,
  SecurityScheme,
  TagConfig,
  TagDoc,
} from './types.js';

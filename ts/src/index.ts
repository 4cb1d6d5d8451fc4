/**
 * The package entry, `arbor-router`: the standalone {@link Router} and, on top of it, the framework
 * ({@link Application}, its middleware and helpers, the OpenAPI exporter).
 *
 * @example
 * import { Application } from 'arbor-router';
 * const app = new Application();
 * app.get('/tasks/:id<int>', (req, res) => res.json({ id: req.param('id') }));
 * await app.run({ port: 3000 });
 *
 * @module arbor-router
 */

export * from './app/index.js';
export { NodeBuiltinMissingError } from './builtins.js';
export {
  type ClientExportOptions,
  type ContractSourceOptions,
  exportClient,
  exportRouteTypes,
  type RouteTypesOptions,
} from './client/emit/index.js';
export { CodeGenerationRefusedError } from './code-generation.js';
export type { EngineOptions, Order, ParamInfo, ParamKind, RouteInfo, RouteShape } from './engine/engine.js';
export {
  loadWasm,
  provideWasm,
  type WasmModuleSource,
  WasmNotLoadedError,
  type WasmSource,
} from './engine/index.js';
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

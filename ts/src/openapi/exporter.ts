/**
 * `OpenApiExporter.export(app, options?)`: the OpenAPI document of an application, built from the engine's
 * route metadata (paths, parameters), the annotations (everything else) and `config.openapi` (info, servers).
 */
import { isDocsRoute, operationKey, readAnnotations } from './annotations/annotations.js';
import { documentCode } from './code-operation.js';
import { ComponentRefs } from './component-refs.js';
import { hasRequestChecks, routeContract } from './contract.js';
import { emitOnce } from './diagnostics.js';
import { documentFrameworkAnswers, documentValidation } from './framework-answers.js';
import { parseType, referencedSchemas, schemaExample, typeToSchema } from './grammar/type-expr.js';
import { generateHtml } from './html.js';
import { ANONYMOUS_SCHEME, type BuildContext, buildOperation } from './operation.js';
import { openApiPaths } from './paths.js';
import { relativePaths, serversBasePath } from './servers.js';
import type {
  AnnotationSet,
  Diagnostic,
  DocumentSource,
  ExportOptions,
  OpenApiDocument,
  OpenApiVersion,
  TagConfig,
} from './types.js';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** `GET /api/products/{id}` → `getApiProductsById` (for routes without a name). */
function generatedId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      const text = param ? `by ${param[1]}` : segment;
      return text
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((w) => w[0]?.toUpperCase() + w.slice(1))
        .join('');
    });
  return method + words.join('');
}

function claim(wanted: string, method: string, taken: Set<string>): string {
  let id = taken.has(wanted) ? `${wanted}_${method}` : wanted;
  for (let n = 2; taken.has(id); n++) id = `${wanted}_${n}`;
  taken.add(id);
  return id;
}

function info(app: DocumentSource, version: OpenApiVersion): OpenApiDocument['info'] {
  const given = app.config?.openapi?.info ?? {};
  const out: OpenApiDocument['info'] = { title: given.title ?? 'API', version: given.version ?? '1.0.0' };
  if (given.description) out.description = given.description;
  if (given.contact) out.contact = given.contact;
  if (given.license) {
    const { identifier, ...license } = given.license;
    // `identifier` (SPDX) is 3.1 only, and excludes `url` there.
    out.license = version === '3.1.0' && identifier && !license.url ? { ...license, identifier } : license;
  }
  return out;
}

function schemas(annotations: AnnotationSet, ctx: BuildContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, doc] of Object.entries(annotations.schemas)) {
    const properties: Record<string, unknown> = {};
    for (const p of doc.properties) {
      const type = parseType(p.type);
      if (type === null) continue;
      for (const schema of referencedSchemas(type)) ctx.uses.push({ schema, file: doc.file, line: p.line });
      properties[p.name] = typeToSchema(
        type,
        ctx.version,
        p.description ? { description: p.description } : {},
      );
    }
    const required = doc.properties.filter((p) => p.required).map((p) => p.name);
    out[name] = {
      type: 'object',
      ...(doc.description ? { description: doc.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
      ...(doc.example !== undefined ? schemaExample(doc.example, ctx.version) : {}),
    };
  }
  return out;
}

/**
 * A WebSocket route (`app.ws`) is a GET that answers `101` and continues in a protocol OpenAPI cannot
 * describe; the document says that much, and lists the 426 every other request gets. Statuses the
 * annotations document are kept (a middleware's 401, say).
 */
function documentWebSocket(operation: Record<string, unknown>): void {
  const documented = operation.responses as Record<string, unknown>;
  const responses: Record<string, unknown> = {
    '101': { description: 'Switching Protocols: the connection continues as a WebSocket' },
  };
  for (const [status, response] of Object.entries(documented)) {
    // The placeholder of an operation without @response lines says nothing a 101 does not.
    if (status === 'default' && Object.keys(documented).length === 1) continue;
    responses[status] = response;
  }
  responses['426'] ??= { description: 'Upgrade Required: the request is not a WebSocket handshake' };
  operation.responses = responses;
}

export interface ExportResult {
  document: OpenApiDocument;
  /** The annotations' diagnostics and the export's own (undefined schemas and security schemes). */
  diagnostics: Diagnostic[];
}

/**
 * The document and every diagnostic.
 *
 * @example
 * const { document, diagnostics } = exportWithDiagnostics(app, { security: { bearerAuth: { type: 'http', scheme: 'bearer' } } });
 */
export function exportWithDiagnostics(app: DocumentSource, options: ExportOptions = {}): ExportResult {
  const version = options.openapi ?? '3.1.0';
  // The docs routes (`mountDocs`) never document themselves.
  const routes = app.routeTable().filter((r) => !isDocsRoute(r) && options.exclude?.(r) !== true);
  // Annotations given, else those of the route cache the app started from, else read from the sources.
  const annotations =
    options.annotations ??
    app.cachedAnnotations?.() ??
    readAnnotations(routes, { sources: options.sources ?? [] });
  const ctx: BuildContext = { version, uses: [] };
  const componentRefs = new ComponentRefs();
  const diagnostics: Diagnostic[] = [...annotations.diagnostics];

  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  const configuredTags = [...(options.tags ?? []), ...(app.config?.openapi?.tags ?? [])];
  const tagNames: string[] = [...new Set(configuredTags.map((t) => t.name))];
  const security = options.security ?? {};
  const reportedSchemes = new Set<string>();
  for (const route of routes) {
    const variants = openApiPaths(route);
    for (const upper of route.methods) {
      const method = upper.toLowerCase();
      if (!METHODS.has(method)) continue; // OpenAPI 3.0/3.1 cannot express other methods
      const doc = annotations.operations[operationKey(upper, route.pattern)];
      for (const variant of variants) {
        const item = paths[variant.path] ?? {};
        paths[variant.path] = item;
        if (item[method]) continue; // an earlier route already owns this method and path
        const id = claim(route.name ?? generatedId(method, variant.path), method, ids);
        const operation = buildOperation(variant, doc, id, ctx);
        const errors = app.errorDocument?.(route) ?? null;
        const code = app.codeSchemas?.(route, version === '3.0.3' ? 'openapi-3.0' : 'draft-2020-12') ?? null;
        const codeChecks = code !== null && documentCode(operation, code);
        if (
          codeChecks ||
          (route.validated === true &&
            doc !== undefined &&
            hasRequestChecks(routeContract(doc, route.info.params)))
        )
          documentValidation(operation, errors, app.invalidDocument?.(route) ?? null);
        if (route.webSocket === true) documentWebSocket(operation);
        else documentFrameworkAnswers(operation, route, errors);
        componentRefs.refer(operation, doc);
        item[method] = operation;
      }
      for (const tag of doc?.tags ?? []) if (!tagNames.includes(tag)) tagNames.push(tag);
      for (const s of doc?.security ?? []) {
        const key = `${doc?.file}:${s.line}`;
        if (s.scheme === ANONYMOUS_SCHEME || security[s.scheme] || reportedSchemes.has(key)) continue;
        reportedSchemes.add(key);
        diagnostics.push({
          code: 'UNDEFINED_SECURITY_SCHEME',
          file: doc?.file ?? '',
          line: s.line,
          message: `${key}: @security ${s.scheme} names no scheme given in export options.security (defined: ${Object.keys(security).join(', ') || 'none'})`,
        });
      }
    }
  }

  const componentSchemas = schemas(annotations, ctx);
  const reportedUses = new Set<string>();
  for (const use of ctx.uses) {
    const key = `${use.file}:${use.line}`;
    if (annotations.schemas[use.schema] || reportedUses.has(`${key} ${use.schema}`)) continue;
    reportedUses.add(`${key} ${use.schema}`);
    diagnostics.push({
      code: 'UNDEFINED_SCHEMA',
      file: use.file,
      line: use.line,
      message: `${key}: $ref to undefined schema ${use.schema} (no @schema ${use.schema} in the scanned sources)`,
    });
  }

  const publicByRoot = statePublicOperations(paths);
  const servers = app.config?.openapi?.servers;
  const document: OpenApiDocument = {
    openapi: version,
    info: info(app, version),
    paths: servers?.length ? relativePaths(paths, servers, serversBasePath(servers)) : paths,
  };
  if (servers?.length) document.servers = servers;
  if (publicByRoot) document.security = [];
  const components: Record<string, unknown> = {};
  if (Object.keys(componentSchemas).length) components.schemas = componentSchemas;
  Object.assign(components, componentRefs.components());
  // Only the schemes some operation names: a declared scheme nothing requires documents nothing.
  const named = new Set(namedSchemes(paths));
  const schemes = Object.entries(security).filter(([name]) => named.has(name));
  if (schemes.length) components.securitySchemes = Object.fromEntries(schemes);
  if (Object.keys(components).length) document.components = components;
  if (tagNames.length) document.tags = topLevelTags(tagNames, configuredTags, annotations);
  emitOnce(diagnostics);
  return { document, diagnostics };
}

/**
 * A facade: `export` and `generateHtml` as static methods (docs/OPENAPI.md).
 *
 * @example
 * const document = OpenApiExporter.export(app, { security: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } });
 * const page = OpenApiExporter.generateHtml(document);
 */
export class OpenApiExporter {
  /** The application's OpenAPI document; the diagnostics are dropped (use {@link exportWithDiagnostics} to see them). */
  static export(app: DocumentSource, options: ExportOptions = {}): OpenApiDocument {
    return exportWithDiagnostics(app, options).document;
  }

  /** A standalone HTML page that renders `document` (same as {@link generateHtml}). */
  static generateHtml(document: OpenApiDocument): string {
    return generateHtml(document);
  }
}

/** The scheme names the operations' `security` lists name. */
function namedSchemes(paths: OpenApiDocument['paths']): string[] {
  return Object.values(paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      ((op.security ?? []) as Record<string, unknown>[]).flatMap((requirement) => Object.keys(requirement)),
    ),
  );
}

/**
 * Says which operations are public, as linters (Redocly's `security-defined`) want it said rather than
 * left to the reader: when some operation names a scheme, every other one gets `security: []` (no
 * credentials needed); when none does, the document's root `security: []` says so once. Both mean what
 * leaving `security` out means; they only show it was not forgotten. Returns true for the root form.
 */
function statePublicOperations(paths: OpenApiDocument['paths']): boolean {
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  if (!operations.some((op) => Array.isArray(op.security) && op.security.length > 0)) return true;
  for (const op of operations) op.security ??= [];
  return false;
}

/**
 * The top-level tags: the configured ones first (export options, then `config.openapi.tags`), then the
 * ones operations use, in order of appearance. A description comes from the options, else the config,
 * else a `@tag` annotation.
 */
function topLevelTags(
  names: readonly string[],
  configured: readonly TagConfig[],
  annotations: AnnotationSet,
): Record<string, unknown>[] {
  return names.map((name) => {
    const description =
      configured.find((t) => t.name === name && t.description)?.description ??
      annotations.tags?.[name]?.description;
    return description ? { name, description } : { name };
  });
}

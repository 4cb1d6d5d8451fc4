/**
 * The answers a generated client expects of each route: the ones the application's OpenAPI document lists
 * for its operation — the annotations' and the code-first schemas', and those the framework adds (the
 * validation refusal in the application's shape, 413, 415, …) — so the client and the document agree.
 */
import { exportWithDiagnostics } from '../../openapi/exporter.js';
import type { AnnotationSet, DocumentSource, ExportOptions, OpenApiDocument } from '../../openapi/types.js';
import type { Schema } from './schema-type.js';

const NO_BODY: Schema = { type: 'null' };

/**
 * The application's OpenAPI document (3.1), its paths as the routes' own: the answers a client can get
 * are the ones it documents — the annotations' and the code-first schemas', and those the framework adds
 * (the validation refusal in the application's shape, 413, 415, …). The servers are left out so that no
 * base path is taken off the paths.
 */
export function documentOf(
  app: Pick<DocumentSource, 'config'>,
  annotations: AnnotationSet,
  options: ExportOptions = {},
): OpenApiDocument {
  const config = { ...app.config, openapi: { ...app.config?.openapi, servers: [] } };
  const source = new Proxy(app, {
    get(target, key) {
      if (key === 'config') return config;
      const value: unknown = Reflect.get(target, key, target);
      // The application's methods read its private fields: called on the application, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return exportWithDiagnostics(source as DocumentSource, { ...options, annotations, openapi: '3.1.0' })
    .document;
}

/** An operation's answers by status: the body schema of each (`$ref`s to documented responses followed). */
export function answers(
  document: OpenApiDocument,
  operation: Record<string, unknown> | undefined,
): Record<string, Schema[]> {
  const out: Record<string, Schema[]> = {};
  const responses = (operation?.responses ?? {}) as Record<string, Record<string, unknown>>;
  const components = (
    document.components as { responses?: Record<string, Record<string, unknown>> } | undefined
  )?.responses;
  for (const [status, written] of Object.entries(responses)) {
    const ref =
      typeof written.$ref === 'string'
        ? /^#\/components\/responses\/(.+)$/.exec(written.$ref)?.[1]
        : undefined;
    const response = ref === undefined ? written : (components?.[ref] ?? {});
    out[status] = [bodySchema(status, response)];
  }
  if (Object.keys(out).length === 0) out.default = [true];
  return out;
}

/** A documented answer's body: none for 204/205/304, its JSON schema, text for another media type, else anything. */
function bodySchema(status: string, response: Record<string, unknown>): Schema {
  if (status === '204' || status === '205' || status === '304') return NO_BODY;
  const content = (response.content ?? {}) as Record<string, { schema?: Schema }>;
  const json = Object.keys(content).find((media) => /[/+]json\b/i.test(media));
  if (json !== undefined) return content[json]?.schema ?? true;
  const media = Object.keys(content);
  if (media.length === 0) return true;
  return media.every((m) => m.startsWith('text/')) ? { type: 'string' } : true;
}

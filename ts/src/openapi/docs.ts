/**
 * `mountDocs(app, options)`: one call registers the documentation routes.
 *
 * Defaults (the reference applications' routes):
 *   GET /docs                  the static HTML page (generateHtml), readable without JavaScript
 *   GET /api/docs              the OpenAPI document as JSON, through res.json()
 *   GET /api/docs.json         the same document: the stable URL the UI and custom pages load
 *   GET /api/docs/ui           Swagger UI (+ /api/docs/ui/swagger-ui.css, …-bundle.js, …-initializer.js)
 * The document is built at the first request (every route is registered by then) and kept. The docs
 * routes are named `arbor.docs.*` and left out of the document itself. The UI's script and style files
 * carry an ETag (304 on `If-None-Match`), `Cache-Control` and a brotli or gzip body when accepted
 * (static-asset.ts).
 */
import { DOCS_ROUTE_PREFIX } from './annotations/annotations.js';
import { exportWithDiagnostics } from './exporter.js';
import { generateHtml } from './html.js';
import { type AssetRequest, type AssetResponse, StaticAsset } from './static-asset.js';
import {
  UI_ASSETS,
  type UiAsset,
  uiAsset,
  uiContentSecurityPolicy,
  uiInitializer,
  uiPage,
} from './swagger-ui.js';
import type { DocumentSource, ExportOptions, OpenApiDocument } from './types.js';

/** What the docs handlers need from a response (Arbor's `Response` has all of it). */
export interface DocsResponse {
  header(name: string, value: string): DocsResponse;
  json(data: unknown): unknown;
  html(markup: string): unknown;
  send(body?: string): unknown;
}

/** What `mountDocs` needs from an application: the document source and `get()`. */
export interface DocsHost extends DocumentSource {
  // biome-ignore lint/suspicious/noExplicitAny: the handler returns whatever the app's Response methods return.
  get(uri: string, handler: (req: any, res: any) => any): unknown;
}

/**
 * Where {@link mountDocs} serves the document, its page and Swagger UI (each path `null` to leave it out),
 * plus the export options of the document itself.
 *
 * @example
 * mountDocs(app, { pagePath: null, uiPath: '/swagger' });
 */
export interface DocsOptions extends ExportOptions {
  /** The static page; `null` to leave it out. Default `/docs`. */
  pagePath?: string | null;
  /** The JSON document. Default `/api/docs.json`. */
  jsonPath?: string;
  /** A second JSON route; `null` to leave it out. Default `/api/docs`. */
  aliasPath?: string | null;
  /** Swagger UI; `null` to leave it out. Default `/api/docs/ui`. */
  uiPath?: string | null;
}

export interface MountedDocs {
  /** The paths registered, for logs and tests. */
  paths: { page: string | null; json: string; alias: string | null; ui: string | null };
  /** The document (built on first use, then cached). */
  document(): OpenApiDocument;
}

function nameRoute(route: unknown, name: string): void {
  const named = route as { name?: (n: string) => unknown } | null;
  if (named && typeof named.name === 'function') named.name(name);
}

/**
 * @example
 * mountDocs(app, { security: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } });
 */
export function mountDocs(app: DocsHost, options: DocsOptions = {}): MountedDocs {
  const {
    pagePath = '/docs',
    jsonPath = '/api/docs.json',
    aliasPath = '/api/docs',
    uiPath = '/api/docs/ui',
  } = options;
  const exportOptions: ExportOptions = { ...options };
  let cached: OpenApiDocument | null = null;
  let page: string | null = null;
  const document = () => {
    cached ??= exportWithDiagnostics(app, exportOptions).document;
    return cached;
  };
  const title = () => document().info.title;
  const sendJson = (_req: unknown, res: DocsResponse) => res.json(document());

  if (pagePath !== null) {
    nameRoute(
      app.get(pagePath, (_req: unknown, res: DocsResponse) => {
        page ??= generateHtml(document());
        return res
          .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
          .html(page);
      }),
      `${DOCS_ROUTE_PREFIX}page`,
    );
  }
  nameRoute(app.get(jsonPath, sendJson), `${DOCS_ROUTE_PREFIX}json`);
  if (aliasPath !== null) nameRoute(app.get(aliasPath, sendJson), `${DOCS_ROUTE_PREFIX}alias`);
  if (uiPath !== null) {
    const base = uiPath.replace(/\/+$/, '');
    const csp = () => uiContentSecurityPolicy(app.config?.openapi?.servers ?? []);
    nameRoute(
      app.get(uiPath, (_req: unknown, res: DocsResponse) =>
        res.header('Content-Security-Policy', csp()).html(uiPage({ title: title(), assetBase: base })),
      ),
      `${DOCS_ROUTE_PREFIX}ui`,
    );
    const initializer = new StaticAsset(uiInitializer(jsonPath), 'text/javascript; charset=utf-8');
    nameRoute(
      app.get(`${base}/swagger-initializer.js`, (req: AssetRequest, res: AssetResponse) =>
        initializer.respond(req, res),
      ),
      `${DOCS_ROUTE_PREFIX}ui.initializer`,
    );
    for (const [file, type] of Object.entries(UI_ASSETS)) {
      // Read at the first request, so mounting the docs costs nothing until someone opens the UI.
      let asset: StaticAsset | undefined;
      nameRoute(
        app.get(`${base}/${file}`, (req: AssetRequest, res: AssetResponse) => {
          asset ??= new StaticAsset(uiAsset(file as UiAsset), type);
          return asset.respond(req, res);
        }),
        `${DOCS_ROUTE_PREFIX}ui.${file}`,
      );
    }
  }
  return { paths: { page: pagePath, json: jsonPath, alias: aliasPath, ui: uiPath }, document };
}

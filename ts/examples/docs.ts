/**
 * The documentation routes of the reference applications (docs/OPENAPI.md):
 * `GET /docs` (static HTML page), `GET /api/docs` and `GET /api/docs.json` (the OpenAPI document),
 * `GET /api/docs/ui` (Swagger UI served from local files).
 */
import type { Application } from '../src/app/index.js';
import { type MountedDocs, mountDocs, type SecurityScheme } from '../src/openapi/index.js';

/** The security schemes the reference applications declare for `@security` tags. */
export const securitySchemes: Record<string, SecurityScheme> = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  basicAuth: { type: 'http', scheme: 'basic' },
};

/**
 * The reference applications' server: the origin that serves the document (a relative URL, which OpenAPI
 * resolves against the document's own URL), since they run wherever they are started, on any port.
 */
export const SAME_ORIGIN = { url: '/', description: 'The server this document was loaded from' };

export function mountReferenceDocs(app: Application): MountedDocs {
  return mountDocs(app, { security: securitySchemes });
}

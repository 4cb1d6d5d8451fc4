/**
 * The documentation routes of the reference applications (SPEC §6, the original's §4.6):
 * `GET /docs` (static HTML page), `GET /api/docs` and `GET /api/docs.json` (the OpenAPI document),
 * `GET /api/docs/ui` (Swagger UI served from local files).
 */
import type { Application } from '../src/app/index.js';
import { type MountedDocs, mountDocs, type SecurityScheme } from '../src/openapi/index.js';

/** The security schemes of the original's section 5, declared for `@security` tags. */
export const securitySchemes: Record<string, SecurityScheme> = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  basicAuth: { type: 'http', scheme: 'basic' },
};

export function mountReferenceDocs(app: Application): MountedDocs {
  return mountDocs(app, { security: securitySchemes });
}

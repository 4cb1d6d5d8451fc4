/**
 * Paths relative to the servers' URLs. OpenAPI appends a path to the server URL, so a document whose
 * server is `https://api.example.com/api` and whose routes are registered under an `/api` group must say
 * `/tasks`, not `/api/tasks` (which a client would call as `/api/api/tasks`). When every server's URL
 * carries the same path, that path is taken off the routes registered under it; a route outside it keeps
 * its full path and gets a `servers` list of its own (the servers' URLs without that path), since OpenAPI
 * lets a Path Item override the document's servers.
 */
import type { OpenApiDocument } from './types.js';

type Server = { url: string; description?: string };
type PathItem = OpenApiDocument['paths'][string];

/** The path every server URL ends with (`/api`), or `''` when they differ or have none. */
export function serversBasePath(servers: readonly Server[] | undefined): string {
  if (servers === undefined || servers.length === 0) return '';
  const bases = servers.map((server) => pathOf(server.url));
  const first = bases[0] ?? '';
  return bases.every((base) => base === first) ? first : '';
}

/**
 * The document's paths with `base` taken off; a path outside `base` keeps its path and is given the
 * servers without it. `variables` in a server URL (`{version}`) are left as they are.
 */
export function relativePaths(
  paths: OpenApiDocument['paths'],
  servers: readonly Server[],
  base: string,
): OpenApiDocument['paths'] {
  if (base === '') return paths;
  const out: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(paths)) {
    if (path === base || path.startsWith(`${base}/`)) {
      out[path.slice(base.length) || '/'] = item;
      continue;
    }
    const own = servers.map((server) => ({ ...server, url: withoutBase(server.url, base) }));
    // A Path Item's `servers` is a list, where the document's type has operations: the one key that is not.
    out[path] = { servers: own, ...item } as unknown as PathItem;
  }
  return out;
}

/** The path of a server URL, without a trailing `/`: `https://x.test/api/` → `/api`, `/` → `''`. */
function pathOf(url: string): string {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : '');
  return path.replace(/[?#].*$/, '').replace(/\/+$/, '');
}

function withoutBase(url: string, base: string): string {
  const trimmed = url.replace(/\/+$/, '');
  const origin = trimmed.slice(0, trimmed.length - base.length);
  return origin === '' ? '/' : origin;
}

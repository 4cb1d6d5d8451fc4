/**
 * The interactive UI: Swagger UI from the local `swagger-ui-dist` package, never from a CDN.
 *
 * Only two of its files are served (`swagger-ui-bundle.js`, `swagger-ui.css`): the standalone preset and
 * its top bar (a URL box and a link to swagger.io) are left out on purpose. The initializer is our own
 * script file (not inline, so the page works under a CSP without `'unsafe-inline'` scripts): it loads the
 * JSON route by its path, with the validator badge off (`validatorUrl: null`, which would otherwise send
 * the whole document to validator.swagger.io) and `queryConfigEnabled: false` (so `?url=` cannot point the
 * page at another document). Swagger UI has no analytics of its own at run time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml } from './html.js';

const require = createRequire(import.meta.url);

/** The directory of the installed `swagger-ui-dist`. */
export function swaggerUiDir(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The installed Swagger UI version (shown in docs and tests). */
export function swaggerUiVersion(): string {
  return (JSON.parse(readFileSync(join(swaggerUiDir(), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The files the UI page loads, by the name the page asks for, with their media types. */
export const UI_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;
export type UiAsset = keyof typeof UI_ASSETS;

const assetCache = new Map<UiAsset, string>();

/** An asset's text, read once per process. The source-map comment is dropped: the map is not served. */
export function uiAsset(name: UiAsset): string {
  let text = assetCache.get(name);
  if (text === undefined) {
    text = readFileSync(join(swaggerUiDir(), name), 'utf8').replace(
      /\n?\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/,
      '\n',
    );
    assetCache.set(name, text);
  }
  return text;
}

/**
 * The initializer script: the only configuration Swagger UI gets.
 *
 * When the document declares servers and none of them is the page's own origin (a `localhost:3000` in
 * the config while the app runs on another port or host), the UI puts the page's origin first in its
 * server list, so "Try it out" reaches the application that served the page. Only the UI's copy changes;
 * the JSON route serves the document as exported.
 */
export function uiInitializer(jsonPath: string): string {
  const config = {
    url: jsonPath,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    displayRequestDuration: true,
  };
  return `window.addEventListener('load', function () {
  var config = ${JSON.stringify(config)};
  var adjusted = false;
  config.presets = [SwaggerUIBundle.presets.apis];
  config.layout = 'BaseLayout';
  config.onComplete = function () {
    if (adjusted) return;
    adjusted = true;
    var spec = window.ui.specSelectors.specJson().toJS();
    var servers = Array.isArray(spec.servers) ? spec.servers : [];
    var here = window.location.origin;
    var reachable = servers.length === 0 || servers.some(function (s) {
      return typeof s.url === 'string' && (s.url.charAt(0) === '/' || s.url.replace(new RegExp('/+$'), '') === here);
    });
    if (reachable) return;
    spec.servers = [{ url: here, description: 'This server (where this page was loaded from)' }].concat(servers);
    window.ui.specActions.updateJsonSpec(spec);
    // The server list already selected the first declared server at the first render.
    window.ui.oas3Actions.setSelectedServer(here);
  };
  window.ui = SwaggerUIBundle(config);
});
`;
}

/**
 * The Content-Security-Policy of the UI page: everything from this origin only, plus the declared
 * servers for "try it out" requests. A request to any other host is refused by the browser itself.
 */
export function uiContentSecurityPolicy(servers: readonly { url: string }[] = []): string {
  const origins = new Set<string>();
  for (const { url } of servers) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Relative server URLs ("/api") are same-origin already.
    }
  }
  const connect = ["'self'", ...origins].join(' ');
  return `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src ${connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`;
}

/** The UI page; asset and initializer paths are absolute so `/ui` and `/ui/` both work. */
export function uiPage(options: { title: string; assetBase: string }): string {
  const base = escapeHtml(options.assetBase);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} — Swagger UI</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><noscript>This page needs JavaScript. The static documentation does not.</noscript></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/swagger-initializer.js"></script>
</body>
</html>
`;
}

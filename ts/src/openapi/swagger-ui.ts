/**
 * The interactive UI: Swagger UI from local files, never from a CDN.
 *
 * Where the files come from: the published package carries a copy of the two files it serves (with
 * Swagger UI's LICENSE and NOTICE) in `swagger-ui-dist/` beside this module, made by `npm pack`
 * (scripts/prepack.mjs) from the `swagger-ui-dist` devDependency. So a consumer installs no
 * `swagger-ui-dist`, and with it no `@scarf/scarf`, whose install script reports installs to a
 * telemetry service (docs/OPENAPI.md, "Swagger UI's files"). In this repository, where there is no such
 * copy, the files are read from the `swagger-ui-dist` devDependency.
 *
 * Only two of its files are served (`swagger-ui-bundle.js`, `swagger-ui.css`): the standalone preset and
 * its top bar (a URL box and a link to swagger.io) are left out on purpose. The initializer is our own
 * script file (not inline, so the page works under a CSP without `'unsafe-inline'` scripts): it loads the
 * JSON route by its path, with the validator badge off (`validatorUrl: null`, which would otherwise send
 * the whole document to validator.swagger.io) and `queryConfigEnabled: false` (so `?url=` cannot point the
 * page at another document). Swagger UI has no analytics of its own at run time.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fs, nodeModule } from '../builtins.js';
import { escapeHtml } from './html.js';

/** The copy `npm pack` puts beside the compiled module (absent from the sources). Reached through
 * `../openapi/`: the package runs this module bundled one directory beside `openapi/` (scripts/bundle.mjs). */
// A Worker's bundled modules have no URL (and no files to serve): any path will do there.
export const VENDORED_DIR = join(
  dirname(fileURLToPath((import.meta as { url?: string }).url ?? 'file:///')),
  '..',
  'openapi',
  'swagger-ui-dist',
);

let resolvedDir: string | undefined;

/** The directory holding Swagger UI's files: the packaged copy, else the installed `swagger-ui-dist`. */
export function swaggerUiDir(): string {
  if (resolvedDir !== undefined) return resolvedDir;
  if (fs.existsSync(join(VENDORED_DIR, 'package.json'))) {
    resolvedDir = VENDORED_DIR;
    return resolvedDir;
  }
  try {
    resolvedDir = dirname(nodeModule.createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch (error) {
    throw new Error(
      `Swagger UI's files are missing: neither ${VENDORED_DIR} (made by npm pack) nor the swagger-ui-dist package was found`,
      { cause: error },
    );
  }
  return resolvedDir;
}

/** The Swagger UI version served (shown in docs and tests). */
export function swaggerUiVersion(): string {
  return (JSON.parse(fs.readFileSync(join(swaggerUiDir(), 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The files the UI page loads, by the name the page asks for, with their media types. */
export const UI_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const;
export type UiAsset = keyof typeof UI_ASSETS;

/** Drops a trailing source-map comment: the maps are not served (nor packaged). */
export function withoutSourceMap(text: string): string {
  return text.replace(/\n?\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/, '\n');
}

const assetCache = new Map<UiAsset, string>();

/** An asset's text, read once per process. */
export function uiAsset(name: UiAsset): string {
  let text = assetCache.get(name);
  if (text === undefined) {
    text = withoutSourceMap(fs.readFileSync(join(swaggerUiDir(), name), 'utf8'));
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

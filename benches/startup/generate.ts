/**
 * The benchmark's subject: an application with N routes (default 10,000) written out as plain JavaScript
 * importing the compiled framework (`dist/`), so neither start pays for a TypeScript loader.
 *
 * The mix, by route index modulo 10: 4 static, 3 with parameters, 2 with constraints (int, uuid, date,
 * a custom regex, several parameters in one segment), 1 with an optional parameter or a wildcard tail.
 * Every other route carries an annotation block and a name, as a documented API would.
 */

export interface Probe {
  method: string;
  path: string;
  status: number;
}

function pattern(i: number): { pattern: string; request: string } {
  const p = `/r${i}`;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
    case 3:
      return { pattern: `${p}/items/list`, request: `${p}/items/list` };
    case 4:
    case 5:
      return { pattern: `${p}/users/:user/posts/:post`, request: `${p}/users/ada/posts/7` };
    case 6:
      return { pattern: `${p}/orgs/:org/repos/:repo/issues`, request: `${p}/orgs/acme/repos/web/issues` };
    case 7:
      return { pattern: `${p}/:id<int>/at/:day<date>`, request: `${p}/42/at/2024-05-01` };
    case 8:
      return {
        pattern: `${p}/files/:name<[a-z0-9-]+>.:ext<jpg|png>/:v<v\\d+>`,
        request: `${p}/files/my-image.jpg/v2`,
      };
    default:
      return i % 20 === 9
        ? { pattern: `${p}/search/:q/:page?`, request: `${p}/search/router` }
        : { pattern: `${p}/assets/*`, request: `${p}/assets/css/site.css` };
  }
}

function annotation(i: number, path: string): string {
  const params = [...path.matchAll(/:(\w+)/g)].map(
    (m) => `   * @param {string} ${m[1]}.path.required - Part ${m[1]} of the path`,
  );
  return [
    '  /**',
    `   * @summary Operation number ${i}`,
    `   * @description Generated route ${i} for the start-up benchmark.`,
    ...params,
    '   * @produces application/json',
    '   * @response 200 {Thing} The thing',
    '   * @response 404 {Error} Not found',
    `   * @tags Group${i % 25}`,
    '   */',
  ].join('\n');
}

/** The application module's source, importing the framework from `framework` (a file: the package's
 * bundle for the timed starts, the compiled modules for the instrumented ones), and the requests the
 * benchmark sends (one per kind of route). */
export function applicationSource(framework: string, routes: number): { source: string; probes: Probe[] } {
  const lines = [
    `import { Application } from ${JSON.stringify(framework)};`,
    '',
    '/**',
    ' * @schema Thing',
    ' * @property {integer} id - The id',
    ' * @property {string} name - The name',
    ' */',
    '/**',
    ' * @schema Error',
    ' * @property {string} error - What went wrong',
    ' */',
    "export const app = new Application({ openapi: { info: { title: 'Start-up benchmark', version: '1.0.0' } } });",
    'const ok = (req, res) => res.json({ ok: true });',
  ];
  // 100 routes per function, as route files and controllers split them (and because V8 finds a call
  // site's line by walking its function's position table: one 10,000-statement function would make
  // every registration's stack capture slower than any real application's).
  const chunks: string[] = [];
  for (let i = 0; i < routes; i++) {
    if (i % 100 === 0) {
      if (i > 0) lines.push('}');
      chunks.push(`register${i / 100}`);
      lines.push(`function register${i / 100}(app) {`);
    }
    const { pattern: path } = pattern(i);
    const documented = i % 2 === 0;
    if (documented) lines.push(annotation(i, path));
    lines.push(`  app.get(${JSON.stringify(path)}, ok)${documented ? `.name('route.${i}')` : ''};`);
  }
  lines.push('}', ...chunks.map((name) => `${name}(app);`), '');
  const probes = [0, 4, 6, 7, 8, 9, 19]
    .map((k) => routes - 20 + k)
    .map((i) => ({ method: 'GET', path: pattern(i).request, status: 200 }));
  return { source: lines.join('\n'), probes };
}

/**
 * The children's client: node:http's, which the server has loaded already. `fetch` would load undici
 * into the process on its first call (~60 ms of CPU on these machines), a cost of the benchmark's client
 * that a server answering a real client never pays; it used to be counted in both modes. For the same
 * reason it is taken with `process.getBuiltinModule`, as Arbor takes it: `import … from 'node:http'`
 * builds the module's ESM namespace, whose lazy `WebSocket` exports load undici too (~20 ms of a start).
 */
export const HTTP_GET = `const { get: httpGet } = process.getBuiltinModule('node:http');
const get = (port, path) => new Promise((resolve, reject) => {
  httpGet({ host: '127.0.0.1', port, path }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode)).on('error', reject);
  }).on('error', reject);
});`;

/** The child: start the application, serve one request over HTTP, report times (ms since process start) and memory. */
export function startSource(probes: readonly Probe[]): string {
  return `import { once } from 'node:events';
${HTTP_GET}
const { app } = await import('./app.mjs');
const imported = performance.now();
const server = app.run();
if (!server.listening) await once(server, 'listening');
const { port } = server.address();
const first = ${JSON.stringify(probes[0])};
const status = await get(port, first.path);
const ttfr = performance.now();
const memory = process.memoryUsage();
let wrong = status === first.status ? null : first.path + ' answered ' + status;
for (const probe of ${JSON.stringify(probes.slice(1))}) {
  const answered = await get(port, probe.path);
  if (answered !== probe.status) wrong ??= probe.path + ' answered ' + answered;
}
console.log(JSON.stringify({ imported, ttfr, rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external, wrong }));
process.exit(0);
`;
}

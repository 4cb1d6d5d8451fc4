/**
 * The package as a user gets it: packed from this checkout, installed from the tarball into an empty
 * project outside the repository, then used from there — ESM imports, a request over node:http, the CLI on
 * the consumer's own app, a strict type check of the shipped declarations — on the Node running the tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';
import { ConsumerProject, diskUsage, expectSuccess, ROOT, run } from './consumer-project.js';
import { ReadmeApp, readmeBlocks, unexpectedStderr } from './readme-app.js';

const missing = existsSync(join(ROOT, 'ts', 'src', 'engine', 'wasm-pkg', 'arbor_wasm_bg.wasm'))
  ? null
  : 'the wasm build (npm run build), which npm pack ships';

/** Budgets: a change that doubles the package should be a decision, not an accident. */
const MAX_PACKED_BYTES = 1_300_000;
// The security middleware, the contract layer and the optional otel/metrics entries added ~20 declaration
// files and two bundles; the compiled contracts (contracts:export) four declaration files and a chunk.
const MAX_PACKED_FILES = 250;
// ws's type declarations (@types/ws, and through it @types/node and undici-types) are a dependency, as in
// @fastify/websocket: the shipped declarations of app.ws name ws's WebSocket, and a strict TypeScript
// consumer must type-check without installing anything more. They are ~2.8 MB of the budget. The kept
// libraries behind files, compression, negotiation, cookies and uploads are ~0.9 MB more (mime-db alone
// ~0.2 MB); each loads only when its feature is first used. jose (JWT), helmet (secure headers), ajv-formats
// and secure-json-parse are the security and contract layers' share.
const MAX_NODE_MODULES_BYTES = 11_000_000;

let project: ConsumerProject;
let entries: string[] = [];

describe.skipIf(skipWhenMissing(missing))(
  titled(`the npm package on Node ${process.version}`, missing),
  () => {
    beforeAll(async () => {
      assertPresent(missing);
      project = new ConsumerProject();
      const tarball = await project.pack();
      entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
      await project.install();
    }, 300_000);
    afterAll(() => project?.remove());

    it('the tarball holds the build, the types, the .wasm, the CLI and the docs, and nothing else', () => {
      const files = entries.map((entry) => entry.replace(/^package\//, ''));
      for (const wanted of [
        'package.json',
        'README.md',
        'LICENSE',
        'docs/ROUTING.md',
        'docs/framework/routes.md',
        'dist/ts/src/bundle/index.js',
        'dist/ts/src/index.d.ts',
        'dist/ts/src/bundle/redis-store.js',
        'dist/ts/src/stores/redis-store.d.ts',
        'dist/ts/src/bundle/cli.js',
        'dist/ts/src/bundle/workerd.js',
        'dist/ts/src/engine/wasm-pkg/arbor_wasm_bg.wasm',
        'dist/ts/src/openapi/swagger-ui-dist/swagger-ui-bundle.js',
        'dist/ts/src/openapi/swagger-ui-dist/swagger-ui.css',
        'dist/ts/src/openapi/swagger-ui-dist/LICENSE',
        'dist/ts/src/openapi/swagger-ui-dist/NOTICE',
      ]) {
        expect(files, wanted).toContain(wanted);
      }
      const unwanted = files.filter(
        (file) =>
          /^(tests|benches|crates|scripts|ts|target|\.[^/]+)\//.test(file) ||
          /\.map$|\.tsbuildinfo$|build\.fingerprint$|^Cargo\./.test(file) ||
          (file.endsWith('.ts') && !file.endsWith('.d.ts')) ||
          file.startsWith('dist/ts/examples/') ||
          // The runtime is the bundles (the wasm-bindgen glue is bundled too): a compiled module shipped
          // beside them would be a second copy.
          (file.endsWith('.js') && !/^dist\/ts\/src\/(bundle|openapi\/swagger-ui-dist)\//.test(file)),
      );
      expect(unwanted).toEqual([]);
      // No compiled file links to a source map the package does not carry.
      const installed = join(project.dir, 'node_modules', 'arbor-router', 'dist');
      const linked = readdirSync(installed, { recursive: true, encoding: 'utf8' }).filter(
        (file) =>
          file.endsWith('.js') &&
          /^\/\/# sourceMappingURL=/m.test(readFileSync(join(installed, file), 'utf8')),
      );
      expect(linked).toEqual([]);
      expect(files.length).toBeLessThanOrEqual(MAX_PACKED_FILES);
      const bytes = statSync(project.tarball).size;
      expect(bytes).toBeLessThanOrEqual(MAX_PACKED_BYTES);
      console.log(`[consumer] tarball: ${bytes} bytes, ${files.length} files`);
    });

    it('installs only the runtime dependencies, none with an install script', () => {
      const installed = project.installed();
      const names = Object.keys(installed)
        .filter((path) => path.startsWith('node_modules/'))
        .map((path) => path.replace(/^(?:.*\/)?node_modules\//, ''))
        .sort();
      expect(names).toEqual(
        [
          // ajv (request validation) brings its four small dependencies.
          ...['ajv', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'require-from-string'],
          ...['@types/node', '@types/ws', 'undici-types', 'ws'], // WebSocket routes (see above)
          ...['arbor-router', 'commander', 'encodeurl', 'yaml'],
          // Files (res.sendFile, serveStatic): @fastify/send and what it brings.
          ...['@fastify/send', '@lukeed/ms', 'escape-html', 'fast-decode-uri-component', 'mime'],
          ...['http-errors', 'depd', 'inherits', 'setprototypeof', 'statuses', 'toidentifier'],
          // compress() and req.accepts(): negotiation and the types worth compressing.
          ...['accepts', 'compressible', 'content-type', 'mime-db', 'mime-types', 'negotiator'],
          // Conditional GET, cookies, multipart uploads.
          ...['etag', 'fresh', 'cookie', 'busboy', 'streamsearch'],
          // Security middleware: secure headers (helmet), JWT verification (jose).
          ...['helmet', 'jose'],
          // The contract layer: Standard Schema's types, ajv's formats, and a JSON parse without prototype keys.
          ...['@standard-schema/spec', 'ajv-formats', 'secure-json-parse'],
        ].sort(),
      );
      const withScripts = Object.entries(installed).filter(([, entry]) => entry.hasInstallScript === true);
      expect(withScripts).toEqual([]);
      const usage = diskUsage(join(project.dir, 'node_modules'));
      expect(usage.bytes).toBeLessThanOrEqual(MAX_NODE_MODULES_BYTES);
      console.log(`[consumer] node_modules: ${usage.bytes} bytes, ${usage.files} files`);
    });

    it('importing the package prints nothing (no warning, no V8 flag error)', async () => {
      const result = expectSuccess(await project.node(['silent.mjs']), 'node silent.mjs');
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('');
    });

    it('Router and Application from the ESM entry serve requests over node:http', async () => {
      const result = expectSuccess(await project.node(['serve.mjs']), 'node serve.mjs');
      expect(result.stderr).toBe('');
      const report = JSON.parse(result.stdout);
      expect(report.router).toEqual({
        value: 'user',
        params: { id: '42' },
        image: { name: 'a.b', ext: 'png' },
      });
      expect(report.hello).toEqual({ status: 200, body: { hello: 'world' } });
      expect(report.missing).toBe(404);
      // The packaged copy of Swagger UI, compressed and revalidated.
      expect(report.bundle.status).toBe(200);
      expect(report.bundle.encoding).toBe('br');
      expect(report.bundle.length).toBeGreaterThan(100_000);
      expect(report.revalidated).toBe(304);
      expect(report.ui).toEqual({ status: 200, loadsBundle: true });
    });

    it('the CLI lists the routes of the consumer app and exports its OpenAPI document', async () => {
      const list = expectSuccess(await project.arbor(['route:list', '--app', 'app.mjs']), 'arbor route:list');
      expect(list.stdout).toContain('/hello/:name');
      expect(list.stdout).toContain('items.show');
      const json = expectSuccess(
        await project.arbor(['route:list', '--app', 'app.mjs', '--json']),
        'arbor route:list --json',
      );
      const patterns = (JSON.parse(json.stdout) as { pattern: string }[]).map((route) => route.pattern);
      expect(patterns).toEqual(expect.arrayContaining(['/hello/:name', '/items/:id<int>']));
      const exported = expectSuccess(
        await project.arbor(['openapi:export', '--app', 'app.mjs']),
        'arbor openapi:export',
      );
      const document = JSON.parse(exported.stdout);
      expect(document.info).toMatchObject({ title: 'Consumer app', version: '1.2.3' });
      expect(document.paths['/hello/{name}'].get.summary).toBe('Greet someone');
      expect(document.paths['/items/{id}'].get.parameters[0].schema).toEqual({ type: 'integer' });
      expect(document.components.schemas.Greeting.properties.hello.type).toBe('string');
      // YAML goes through the `yaml` dependency: it must resolve from the installed package.
      const yaml = expectSuccess(
        await project.arbor(['openapi:export', '--app', 'app.mjs', '--format', 'yaml']),
        'arbor openapi:export --format yaml',
      );
      expect(yaml.stdout).toMatch(/^openapi: 3\.1\.0$/m);
      expect(yaml.stdout).toContain('/hello/{name}:');
    });

    it('without ioredis, arbor-router/redis says what to install', async () => {
      const result = expectSuccess(await project.node(['redis-missing.mjs']), 'node redis-missing.mjs');
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({
        rejected: true,
        name: 'MissingPeerDependencyError',
        code: 'MISSING_PEER_DEPENDENCY',
      });
      expect(report.message).toContain('npm install ioredis');
    });

    it('a strict TypeScript consumer type-checks against the shipped declarations (skipLibCheck off)', async () => {
      writeFileSync(
        join(project.dir, 'tsconfig.json'),
        `${JSON.stringify(
          {
            compilerOptions: {
              target: 'ES2023',
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              lib: ['ES2023'],
              strict: true,
              noUncheckedIndexedAccess: true,
              exactOptionalPropertyTypes: true,
              verbatimModuleSyntax: true,
              skipLibCheck: false,
              noEmit: true,
              // The consumer's own @types/node would come from its devDependencies; the repository's
              // copy stands in for it so the test needs no further install.
              typeRoots: [join(ROOT, 'node_modules', '@types')],
              types: ['node'],
            },
            files: ['consumer.mts'],
          },
          null,
          2,
        )}\n`,
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project.dir);
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.code).toBe(0);
      // The check is real: consumer.mts holds a `@ts-expect-error` line, which is itself an error if the
      // package's types ever stop rejecting it (say, a declaration that degrades to `any`).
    });

    // A newcomer's first hour: the README's examples, in a project of their own, as the README gives them.
    describe('the README, followed as written', () => {
      let readme: ReadmeApp;
      beforeAll(async () => {
        readme = new ReadmeApp();
        await readme.install(project.tarball);
      }, 120_000);
      afterAll(() => readme?.remove());

      it('the first application (strict TypeScript) type-checks with its tsconfig and runs with its commands', async () => {
        const [source, tsconfig, commands, ...more] = readmeBlocks('A first application (strict TypeScript)');
        expect([source?.lang, tsconfig?.lang, commands?.lang, more.length]).toEqual(['ts', 'json', 'sh', 0]);
        readme.write('app.ts', source?.body ?? '');
        readme.write('tsconfig.json', tsconfig?.body ?? '');
        const answers: { status: number; body: unknown }[] = [];
        for (const line of (commands?.body ?? '').split('\n')) {
          const result = await readme.shell(line); // a command that fails throws with its output
          if (result instanceof Response) answers.push({ status: result.status, body: await result.json() });
        }
        expect(answers).toEqual([{ status: 200, body: { hello: 'world', id: expect.any(String) } }]);
        expect(unexpectedStderr(readme.served?.stderr() ?? '')).toEqual([]);
        await readme.stop();
      }, 120_000);

      it('the router on its own type-checks under the same tsconfig and answers over node:http', async () => {
        const [source, ...more] = readmeBlocks('The router on its own');
        expect([source?.lang, more.length]).toEqual(['ts', 0]);
        readme.write('router.ts', source?.body ?? '');
        await readme.shell('npx tsc'); // app.ts and router.ts, strict
        const served = await readme.start('router.ts');
        const get = async (path: string, method = 'GET') => {
          const answer = await fetch(`http://localhost:${served.port}${path}`, { method });
          return { status: answer.status, body: method === 'HEAD' ? null : await answer.json() };
        };
        try {
          expect(await get('/users/42?tab=1')).toEqual({
            status: 200,
            body: { route: 'user', params: { id: '42' } },
          });
          expect(await get('/files/a-b.png')).toEqual({
            status: 200,
            body: { route: 'image', params: { name: 'a-b', ext: 'png' } },
          });
          expect(await get('/files/a-b.png', 'HEAD')).toEqual({ status: 200, body: null });
          expect(await get('/users/abc')).toEqual({ status: 404, body: { error: 'Not Found' } });
          expect((await get('/files/a.gif')).status).toBe(404);
          expect(unexpectedStderr(served.stderr())).toEqual([]);
        } finally {
          await served.stop();
        }
      }, 60_000);
    });
  },
);

/**
 * The CLI tests' subject: a temporary copy of the reference demo (tasks + products) in its own project
 * directory (with a `package.json`, so the default cache is `<copy>/.arbor/routes.cache`), whose imports
 * point at this repository's sources. Every command and every start runs as a spawned process.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

export const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'ts', 'src');
const NODE = process.execPath;
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
export const COMPILED_CLI = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'cli.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a spawned process: the test runner's, without Arbor's own variables, no colours. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('ARBOR_') && key !== 'FORCE_COLOR') env[key] = value;
  env.NO_COLOR = '1';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function spawnNode(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      NODE,
      args,
      { cwd: options.cwd, env: cleanEnv(options.env ?? {}), maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** `arbor …` from the TypeScript sources (through tsx), or the compiled CLI with `compiled: true`. */
export function arbor(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; compiled?: boolean },
): Promise<Run> {
  const cli = options.compiled ? [COMPILED_CLI] : ['--import', TSX, join(SRC, 'cli', 'main.ts')];
  return spawnNode([...cli, ...args], options);
}

export const compiledCliAvailable = (): boolean => existsSync(COMPILED_CLI);

/** The built package's index, as an application imports it. */
export const PACKAGE = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'index.js');

/**
 * What a deployment build does to the application in `dir/entry`: one minified file, `dir/dist/app.mjs`,
 * its comments and whitespace gone, the package left an import.
 */
export async function bundleLikeADeployment(dir: string, entry: string): Promise<void> {
  await build({
    entryPoints: [join(dir, entry)],
    outfile: join(dir, 'dist', 'app.mjs'),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    external: [PACKAGE],
    logLevel: 'silent',
  });
}

export interface Probe {
  /** True when the application started from the route cache. */
  cached: boolean;
  routes: number;
  responses: { method: string; path: string; status: number; body: string }[];
}

/** A throwaway copy of the demo application. */
export class DemoCopy {
  readonly dir: string;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'arbor-cli-'));
    cpSync(join(ROOT, 'ts', 'examples'), this.dir, { recursive: true });
    for (const file of readdirSync(this.dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const path = join(this.dir, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/(['"])(?:\.\.\/)+src\//g, `$1${SRC}/`));
    }
    writeFileSync(
      join(this.dir, 'package.json'),
      '{ "name": "arbor-cli-subject", "private": true, "type": "module" }\n',
    );
    // The export options the app passes to mountDocs; `openapi:export` reads this export of the entry.
    this.edit('server.ts', (text) => {
      const mounted = /mount(Reference)?Docs\(/.test(text);
      const security = `{ bearerAuth: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' } }`;
      const mount = mounted
        ? ''
        : `(await import('${SRC}/openapi/index.js')).mountDocs(app, openapiOptions);\n`;
      const out = text.replace(
        'app.run();',
        `export const openapiOptions = { security: ${security} };\n${mount}app.run();`,
      );
      return out;
    });
    writeFileSync(
      join(this.dir, 'probe.ts'),
      `// Starts the application (nothing listens) and answers the requests given as JSON in argv[2].
process.env.ARBOR_NO_LISTEN = '1';
const { app } = await import('./server.ts');
const out = [];
for (const [method, path] of JSON.parse(process.argv[2] ?? '[]')) {
  const response = await app.fetch(new Request('http://localhost' + path, { method }));
  out.push({ method, path, status: response.status, body: await response.text() });
}
console.log(JSON.stringify({ cached: app.cachedAnnotations() !== null, routes: app.routeTable().length, responses: out }));
`,
    );
  }

  get cacheFile(): string {
    return join(this.dir, '.arbor', 'routes.cache');
  }

  path(file: string): string {
    return join(this.dir, file);
  }

  edit(file: string, change: (text: string) => string): void {
    const path = join(this.dir, file);
    writeFileSync(path, change(readFileSync(path, 'utf8')));
  }

  arbor(
    args: string[],
    options: { env?: Record<string, string | undefined>; compiled?: boolean } = {},
  ): Promise<Run> {
    return arbor(args, { cwd: this.dir, ...options });
  }

  /** Starts the app in a fresh process and sends the requests; fails the test if the process fails. */
  async probe(
    requests: [string, string][],
    env: Record<string, string | undefined> = {},
  ): Promise<Probe & { stderr: string }> {
    const run = await spawnNode(['--import', TSX, join(this.dir, 'probe.ts'), JSON.stringify(requests)], {
      cwd: this.dir,
      env,
    });
    if (run.code !== 0) throw new Error(`probe failed (${run.code}):\n${run.stderr}`);
    return { ...(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as Probe), stderr: run.stderr };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Occurrences of a warning code in a process's stderr. */
export const countWarnings = (stderr: string, code: string): number => stderr.split(`[${code}]`).length - 1;

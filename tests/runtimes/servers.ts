/**
 * Starts tests/runtimes/app.mjs on Bun, Deno and workerd, each binary from its npm package (devDependencies,
 * installed by `npm test`'s own install): a real server on loopback, answered through `app.fetch`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleTasksApp } from './tasks-bundle.mjs';
import { bundleWorker } from './workerd-bundle.mjs';

export const ROOT = join(import.meta.dirname, '..', '..');

/** A runtime under test, and where its binary is installed. */
export const RUNTIMES = {
  bun: join(ROOT, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun'),
  deno: join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno'),
  workerd: join(ROOT, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd'),
} as const;
export type RuntimeName = keyof typeof RUNTIMES;

/**
 * The Workers settings the test runs with, those docs/RUNTIMES.md asks for: `nodejs_compat` and a
 * compatibility date recent enough for its Node modules (`node:stream`, `Buffer`, `process`).
 */
export const WORKERS_COMPATIBILITY = { date: '2026-11-01', flags: ['nodejs_compat'] };

/** A running server: its origin, what it printed, and how to stop it. */
export interface RuntimeServer {
  origin: string;
  output: () => string;
  close: () => Promise<void>;
}

/** The built package's index, as Node loads it. */
const PACKAGE = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'index.js');

/**
 * What a runtime serves, with the compiled contracts at `contracts`: the test application (app.mjs), or
 * with `tasks` the tasks reference application, bundled for Bun and Deno (importing the built package by
 * its path) and for the Worker (importing `arbor-router`).
 */
export interface ServedApp {
  contracts: string;
  tasks?: { bundle: string; workerBundle: string };
}

/**
 * Writes the compiled contracts of the application an entry module (`source`, named `name` in `dir`)
 * creates, with the package's own CLI (`arbor contracts:export`, reading the doc comments on Node);
 * returns the module's path.
 */
function exportContractsOf(dir: string, name: string, source: string): string {
  const entry = join(dir, name);
  writeFileSync(entry, source);
  const output = join(dir, `${name.replace(/\.[a-z]+$/, '')}.contracts.js`);
  const cli = join(ROOT, 'dist', 'ts', 'src', 'bundle', 'cli.js');
  execFileSync(process.execPath, [cli, 'contracts:export', '--app', entry, '--output', output], { cwd: dir });
  return output;
}

/** The test application (app.mjs), its compiled contracts written into `dir`. */
export function runtimeApp(dir: string): ServedApp {
  const contracts = exportContractsOf(
    dir,
    'node-app.mjs',
    `import * as arbor from ${JSON.stringify(PACKAGE)};
import { createRuntimeApp } from ${JSON.stringify(join(ROOT, 'tests', 'runtimes', 'app.mjs'))};
export const app = createRuntimeApp(arbor);
`,
  );
  return { contracts };
}

/** The tasks reference application: its two bundles and its compiled contracts, written into `dir`. */
export async function tasksApp(dir: string): Promise<ServedApp> {
  const contracts = exportContractsOf(
    dir,
    'tasks-app.ts',
    `import { createTasksApp } from ${JSON.stringify(join(ROOT, 'ts', 'examples', 'tasks', 'app.ts'))};
export const app = createTasksApp();
`,
  );
  const bundle = await bundleTasksApp(join(dir, 'tasks-app.bundle.mjs'), PACKAGE);
  const workerBundle = await bundleTasksApp(join(dir, 'tasks-app.worker.mjs'), 'arbor-router');
  return { contracts, tasks: { bundle, workerBundle } };
}

/** Starts `runtime` serving `served`; resolves once it answers. */
export async function startRuntime(runtime: RuntimeName, served: ServedApp): Promise<RuntimeServer> {
  if (runtime === 'workerd') return startWorkerd(served);
  const prefix = served.tasks === undefined ? '' : 'tasks-';
  const script = join(ROOT, 'tests', 'runtimes', `${prefix}${runtime}-server.mjs`);
  const args = runtime === 'deno' ? ['run', '--allow-all', '--no-lock', script] : [script];
  const child = spawn(RUNTIMES[runtime], args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ARBOR_CONTRACTS: served.contracts,
      ARBOR_TASKS_APP: served.tasks?.bundle ?? '',
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${runtime} did not start:\n${output()}`)), 20_000);
    child.stdout?.on('data', () => {
      const match = /\{"port":(\d+)\}/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${runtime} exited (${code}):\n${output()}`));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, output, close: () => stop(child) };
}

async function startWorkerd(served: ServedApp): Promise<RuntimeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-workerd-'));
  await bundleWorker(
    dir,
    served.tasks === undefined ? 'worker.mjs' : 'tasks-worker.mjs',
    served.tasks === undefined
      ? { 'arbor-test-contracts': served.contracts }
      : { 'arbor-test-contracts': served.contracts, 'arbor-test-tasks-app': served.tasks.workerBundle },
  );
  copyFileSync(
    join(ROOT, 'dist', 'ts', 'src', 'engine', 'wasm-pkg', 'arbor_wasm_bg.wasm'),
    join(dir, 'arbor_wasm_bg.wasm'),
  );
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "arbor_wasm_bg.wasm", wasm = embed "arbor_wasm_bg.wasm"),
  ],
  compatibilityDate = "${WORKERS_COMPATIBILITY.date}",
  compatibilityFlags = [${WORKERS_COMPATIBILITY.flags.map((f) => `"${f}"`).join(', ')}],
  bindings = [(name = "GREETING", text = "hello from env")],
);
`,
  );
  const child = spawn(RUNTIMES.workerd, ['serve', join(dir, 'config.capnp'), '--verbose'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const origin = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() - started > 20_000) throw new Error(`workerd did not answer:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    output,
    close: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether every runtime's binary is installed (missing: the name of the first that is not). */
export function missingRuntime(): string | null {
  for (const [name, bin] of Object.entries(RUNTIMES)) if (!existsSync(bin)) return `${name} (npm install)`;
  return null;
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

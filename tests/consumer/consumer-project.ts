/**
 * A consumer project outside the repository: `npm pack` of this checkout (its prepack builds dist/ only
 * when stale), then `npm install <tarball>` into an empty project under the system's temporary directory,
 * so nothing can resolve back into the checkout's node_modules. Every process runs on the Node that runs
 * the tests (its directory first on PATH), so the Node-version runs exercise the package on each line.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(import.meta.dirname, 'fixtures');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The test runner's environment without npm's lifecycle variables (`npm test` sets `npm_config_*`, which
 * would reconfigure the nested npm) or Arbor's own, with this Node first on PATH.
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key.startsWith('ARBOR_') || key === 'FORCE_COLOR' || key === 'NODE_OPTIONS')
      continue;
    env[key] = value;
  }
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  env.NO_COLOR = '1';
  return env;
}

export function run(command: string, args: string[], cwd: string, timeoutMs = 180_000): Promise<Run> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, env: cleanEnv(), maxBuffer: 64 << 20, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Fails with everything the command printed. */
export function expectSuccess(result: Run, what: string): Run {
  if (result.code !== 0)
    throw new Error(
      `${what} exited with ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  return result;
}

/** Bytes and files under `dir` (symbolic links not followed). */
export function diskUsage(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files += 1;
  }
  return { bytes, files };
}

export class ConsumerProject {
  readonly dir: string;
  tarball = '';

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'arbor-consumer-'));
  }

  /** `npm pack` of the checkout into the project's directory; returns the tarball's path. */
  async pack(): Promise<string> {
    const packed = expectSuccess(
      await run('npm', ['pack', '--pack-destination', this.dir, '--no-fund'], ROOT),
      'npm pack',
    );
    const name = readdirSync(this.dir).find((file) => file.endsWith('.tgz'));
    if (name === undefined) throw new Error(`npm pack left no tarball\n${packed.stdout}\n${packed.stderr}`);
    this.tarball = join(this.dir, name);
    return this.tarball;
  }

  /** An empty ESM project with the tarball installed and the fixtures copied in. */
  async install(): Promise<Run> {
    writeFileSync(
      join(this.dir, 'package.json'),
      `${JSON.stringify({ name: 'arbor-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    cpSync(FIXTURES, this.dir, { recursive: true });
    return expectSuccess(
      await run('npm', ['install', this.tarball, '--no-audit', '--no-fund', '--prefer-offline'], this.dir),
      'npm install <tarball>',
    );
  }

  /** `node <file> …` in the project, on the Node running the tests. */
  node(args: string[]): Promise<Run> {
    return run(process.execPath, args, this.dir);
  }

  /** The installed CLI, through the `arbor` link npm made in node_modules/.bin. */
  arbor(args: string[]): Promise<Run> {
    return run(join(this.dir, 'node_modules', '.bin', 'arbor'), args, this.dir);
  }

  /** The packages npm installed (node_modules/.package-lock.json), keyed by their path. */
  installed(): Record<string, { version?: string; hasInstallScript?: boolean; dev?: boolean }> {
    const lock = JSON.parse(readFileSync(join(this.dir, 'node_modules', '.package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
    };
    return lock.packages;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The README's examples, followed as a newcomer follows them: a project of its own (`my-app`) that
 * installs the packed tarball (the README's Install step), the example files written as the README gives
 * them, and the README's own shell lines run in order. A line this module does not know how to run fails
 * the test, so that a changed README example is checked rather than skipped.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cleanEnv, expectSuccess, ROOT, type Run, run } from './consumer-project.js';

export interface CodeBlock {
  lang: string;
  body: string;
}

/** The fenced code blocks of the README section under `## {heading}`, in order. */
export function readmeBlocks(heading: string): CodeBlock[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({
    lang: lang ?? '',
    body: body ?? '',
  }));
}

/** The README's port: a server started here listens on a free one instead (see {@link ReadmeApp.start}). */
const README_PORT = 3000;

/** Loaded before an example: a server told to listen on the README's port takes a free one, and says which. */
const ANY_PORT = `import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args[0] === ${README_PORT}) args[0] = 0;
  this.once('listening', () => process.stderr.write(\`[any-port] \${this.address().port}\\n\`));
  return listen.apply(this, args);
};
`;

export interface Served {
  port: number;
  /** What the process printed so far. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

/** A warning about the test's own set-up, not the example: Node 22's note that type stripping is new. */
const TYPE_STRIPPING_NOTE = /ExperimentalWarning: Type Stripping|--trace-warnings/;

/** What a process printed on stderr beyond the port line and Node's type-stripping note. */
export function unexpectedStderr(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter(
      (line) => line.trim() !== '' && !line.startsWith('[any-port]') && !TYPE_STRIPPING_NOTE.test(line),
    );
}

export class ReadmeApp {
  readonly dir: string;

  /** Under the system's temporary directory, outside any other project (npm would install into one). */
  constructor() {
    this.dir = join(mkdtempSync(join(tmpdir(), 'arbor-readme-')), 'my-app');
    mkdirSync(this.dir);
    writeFileSync(join(this.dir, '.any-port.mjs'), ANY_PORT);
  }

  /** A new project (`npm init -y`), then the README's Install step: `npm install <tarball>`. */
  async install(tarball: string): Promise<void> {
    expectSuccess(await run('npm', ['init', '-y'], this.dir), 'npm init -y');
    expectSuccess(
      await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], this.dir),
      'npm install <tarball>',
    );
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(dirname(this.dir), { recursive: true, force: true });
  }

  write(file: string, text: string): void {
    writeFileSync(join(this.dir, file), text);
  }

  /** The server the last `node <file>` line started, if any. */
  served: Served | null = null;

  /**
   * One line of a README shell block (its comment dropped): a command run in the project, `node <file>`
   * started as a server ({@link served}), `curl <url>` a request to it (its answer returned).
   * `npm install -D typescript` links the repository's TypeScript instead of fetching it, as the package
   * test stands the repository's `@types` in for the consumer's.
   */
  async shell(line: string): Promise<Run | Response | null> {
    const command = line.replace(/\s+#.*$/, '').trim();
    if (command === '') return null;
    const [program, ...args] = command.split(/\s+/);
    if (command === 'npm install -D typescript') {
      symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(this.dir, 'node_modules', 'typescript'));
      symlinkSync('../typescript/bin/tsc', join(this.dir, 'node_modules', '.bin', 'tsc'));
      return null;
    }
    if (program === 'node' && args.length === 1) {
      this.served = await this.start(args[0] as string);
      return null;
    }
    if (program === 'curl' && args.length === 1) {
      if (this.served === null) throw new Error(`README: ${command} before a server runs`);
      const url = new URL(`http://${args[0]}`);
      if (url.port !== String(README_PORT))
        throw new Error(`README: ${command} is not on port ${README_PORT}`);
      url.port = String(this.served.port);
      return fetch(url);
    }
    if (program === 'npm' || program === 'npx')
      return expectSuccess(await run(program, args, this.dir), command);
    throw new Error(
      `README: the test does not know how to run "${command}"; teach tests/consumer/readme-app.ts`,
    );
  }

  async stop(): Promise<void> {
    await this.served?.stop();
    this.served = null;
  }

  /** `node <file>` (on Node 22 with `--experimental-strip-types`, as the README says), on a free port. */
  start(file: string): Promise<Served> {
    const flags = process.versions.node.startsWith('22.') ? ['--experimental-strip-types'] : [];
    const child = spawn(process.execPath, [...flags, '--import', './.any-port.mjs', file], {
      cwd: this.dir,
      env: { ...cleanEnv(), PORT: undefined },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    return new Promise((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`node ${file} did not listen\n${stdout}\n${stderr}`)),
        20_000,
      );
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`node ${file} exited with ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const port = /\[any-port\] (\d+)/.exec(stderr)?.[1];
        if (port === undefined) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        done({
          port: Number(port),
          stdout: () => stdout,
          stderr: () => stderr,
          stop: () =>
            new Promise((stopped) => {
              if (child.exitCode !== null) return stopped();
              child.once('exit', () => stopped());
              child.kill('SIGTERM');
            }),
        });
      });
    });
  }
}

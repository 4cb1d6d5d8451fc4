/**
 * The stream server fixture (fixtures/stream-server.ts) in a process of its own, so that its memory is
 * its own, and the growth of its resident size while a client works against it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { testServer } from './engine.js';

export class MemoryServer {
  readonly port: number;
  readonly #child: ChildProcess;

  private constructor(child: ChildProcess, port: number) {
    this.#child = child;
    this.port = port;
  }

  /** Starts the fixture on the suite's server kind; `nodeFlags` and `env` go to its process. */
  static async start(nodeFlags: string[] = [], env: Record<string, string> = {}): Promise<MemoryServer> {
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'stream-server.ts');
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', fixture], {
      env: { ...process.env, ARBOR_TEST_SERVER: testServer, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout?.once('data', (line: Buffer) => resolve(Number(line.toString().trim())));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    return new MemoryServer(child, port);
  }

  /** The process's resident set size, in bytes. */
  async rss(): Promise<number> {
    const response = await fetch(`http://127.0.0.1:${this.port}/memory`);
    return ((await response.json()) as { rss: number }).rss;
  }

  /**
   * Runs `work` while sampling the resident size every 100 ms; resolves to the growth of its peak over
   * the size before (MiB), which it also logs, once `work` is done.
   */
  async growthDuring(work: () => Promise<void>): Promise<number> {
    const idle = await this.rss();
    let peak = idle;
    const sampler = setInterval(() => {
      this.rss().then(
        (value) => {
          peak = Math.max(peak, value);
        },
        () => undefined,
      );
    }, 100);
    try {
      await work();
    } finally {
      clearInterval(sampler);
    }
    const growthMiB = (peak - idle) / 2 ** 20;
    console.log(`server RSS: idle ${(idle / 2 ** 20).toFixed(1)} MiB, peak +${growthMiB.toFixed(1)} MiB`);
    return growthMiB;
  }

  stop(): void {
    this.#child.kill('SIGTERM');
  }
}

/**
 * `run({ workers })`'s supervision, with real processes (fixtures/workers-app.ts, whose every log record
 * is a JSON line with its time and writer): a SIGTERM that arrives while a dead worker's replacement is
 * waiting cancels the replacement, closes the live workers and lets the primary exit, leaving no process
 * behind; replacements wait longer and longer (100 ms, doubling); and workers that keep failing at start
 * make the primary give up, close the healthy ones and exit 1.
 *
 * Waits are on the processes' lines and exits, each with a generous cap. The supervision does not depend
 * on the server kind: the file is skipped in the `arbor-server` project.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const FIXTURE = join(import.meta.dirname, 'fixtures', 'workers-app.ts');

/** One line of the fixture's output. */
interface Line {
  t: number;
  /** The process that wrote it. */
  from: number;
  level?: string;
  msg?: string;
  event?: string;
  /** node:cluster's id of the worker that wrote a `worker-start` line. */
  id?: number;
  pid?: number;
  delayMs?: number;
  cancelledRestarts?: number;
  startFailures?: number;
}

/** The primary process, its children's lines, and waits on them. */
class Primary {
  readonly child: ChildProcess;
  readonly lines: Line[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  #checks = new Set<() => void>();
  #exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let partial = '';
    this.child.stdout?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) if (line.startsWith('{')) this.lines.push(JSON.parse(line) as Line);
      for (const check of this.#checks) check();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        for (const check of this.#checks) check();
        resolve({ code, signal });
      }),
    );
  }

  /** Resolves with `find`'s first answer that is not `undefined`, checked on every line that arrives. */
  until<T>(what: string, find: (lines: Line[]) => T | undefined, capMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const cap = setTimeout(() => done(new Error(`no ${what} within ${capMs} ms`)), capMs);
      const done = (error: Error | null, value?: T) => {
        clearTimeout(cap);
        this.#checks.delete(check);
        if (error === null) resolve(value as T);
        else reject(new Error(`${error.message}; the processes wrote:\n${this.output()}`));
      };
      const check = () => {
        const found = find(this.lines);
        if (found !== undefined) done(null, found);
        else if (this.#exit !== null) done(new Error(`no ${what}: the primary exited (${this.#exit.code})`));
      };
      this.#checks.add(check);
      check();
    });
  }

  /** The primary's exit, or a rejection after `capMs` (the defect: a primary that never exits). */
  exit(capMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.until('exit of the primary', () => this.#exit ?? undefined, capMs).catch((error) => {
      if (this.#exit !== null) return this.#exit;
      throw error;
    });
  }

  /** Pids of every worker that started. */
  workers(): number[] {
    return this.lines.filter((line) => line.event === 'worker-start').map((line) => line.from);
  }

  output(): string {
    return `${this.lines.map((line) => JSON.stringify(line)).join('\n')}\n${this.#stderr}`;
  }
}

const started: Primary[] = [];
afterEach(() => {
  // Whatever a failed test left running.
  for (const primary of started.splice(0)) {
    for (const pid of [primary.child.pid ?? 0, ...primary.workers()])
      if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

function start(env: Record<string, string>): Primary {
  const primary = new Primary(env);
  started.push(primary);
  return primary;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const listeningBanner = (line: Line) => line.msg?.startsWith('Arbor listening on ') === true;

describe.skipIf(process.env.ARBOR_TEST_SERVER === 'arbor')('run({ workers }) supervision', () => {
  test('SIGTERM while a replacement is pending: none is started, every worker closes, the primary exits 0', async () => {
    // The surviving worker takes 3 s to close: longer than the pending replacement's wait, which must
    // therefore be cancelled, not merely outlived.
    const primary = start({ WORKERS: '2', CLOSE_DELAY_MS: '3000' });
    const first = await primary.until('two workers listening', (lines) => {
      const pids = lines.filter(listeningBanner).map((line) => line.from);
      return pids.length >= 2 ? pids : undefined;
    });
    const survivor = first[1] as number;
    // Kill one place's worker five times in a row, so that its fifth replacement waits 1.6 s: time for the
    // SIGTERM to land while it is pending. The fifth victim is killed as soon as it starts, before it
    // listens (a replacement that is itself still starting is the case a pending restart must not miss).
    let victim = first[0] as number;
    for (let kill = 1; ; kill++) {
      process.kill(victim, 'SIGKILL');
      const exited = await primary.until(`the primary's record of ${victim}'s exit`, (lines) =>
        lines.find((line) => line.from === primary.child.pid && line.pid === victim),
      );
      expect(exited.msg).toMatch(new RegExp(`^worker ${victim} exited with signal SIGKILL`));
      if (kill === 5) break;
      victim = await primary.until('the replacement', (lines) => {
        const after = lines.slice(lines.indexOf(exited));
        const next = after.find((line) => line.event === 'worker-start');
        if (next === undefined) return undefined;
        if (kill === 4 || after.some((line) => line.from === next.from && listeningBanner(line)))
          return next.from;
        return undefined;
      });
    }
    primary.child.kill('SIGTERM');

    const { code } = await primary.exit(20_000);
    expect(code).toBe(0);
    const stop = primary.lines.find((line) => line.msg?.includes('SIGTERM; closing') === true);
    expect(stop?.cancelledRestarts).toBe(1);
    const afterStop = primary.lines.slice(primary.lines.indexOf(stop as Line));
    expect(afterStop.filter((line) => line.event === 'worker-start')).toEqual([]);
    expect(afterStop.filter((line) => line.event === 'worker-closed').map((line) => line.from)).toEqual([
      survivor,
    ]);
    expect(primary.workers().filter(alive)).toEqual([]);
  });

  test('workers that throw at start: replacements wait 100, 200, 400, 800 ms, then the primary gives up and exits 1', async () => {
    // Worker 1's place fails at every start; worker 2 (the other place) serves.
    const primary = start({ WORKERS: '2', HEALTHY_WORKER_ID: '2' });
    const { code } = await primary.exit(60_000);
    expect(code).toBe(1);

    const pid = primary.child.pid;
    const exits = primary.lines.filter((line) => line.from === pid && line.delayMs !== undefined);
    expect(exits.map((line) => line.delayMs)).toEqual([100, 200, 400, 800]);
    for (const exit of exits) {
      expect(exit.msg).toMatch(/exited with code 1 before it listened; starting another in \d+ ms$/);
      // The replacement's first line comes no sooner than the announced wait (one clock: one machine).
      const next = primary.lines.find(
        (line) =>
          line.event === 'worker-start' && line.id !== 2 && line.t >= exit.t && line.from !== exit.pid,
      );
      expect((next?.t ?? 0) - exit.t).toBeGreaterThanOrEqual((exit.delayMs ?? 0) - 2);
    }
    const giveUp = primary.lines.find((line) => line.level === 'error' && line.startFailures !== undefined);
    expect(giveUp?.startFailures).toBe(5);
    expect(giveUp?.msg).toMatch(/the program cannot start; giving up/);
    expect(primary.workers()).toHaveLength(6); // five failures, one healthy worker

    // The healthy worker had long been serving; it was closed gracefully, and nothing is left running.
    const healthy = primary.lines.find(listeningBanner)?.from;
    expect(primary.lines.indexOf(primary.lines.find(listeningBanner) as Line)).toBeLessThan(
      primary.lines.indexOf(giveUp as Line),
    );
    expect(primary.lines.filter((line) => line.event === 'worker-closed').map((line) => line.from)).toEqual([
      healthy,
    ]);
    expect(primary.workers().filter(alive)).toEqual([]);
  });
});

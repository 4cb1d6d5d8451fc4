/**
 * `run({ workers })`: one process per worker with node:cluster, all serving on the port the first one
 * binds (the primary hands connections out). The primary serves nothing itself: it starts the workers,
 * starts a new one when one dies, and on SIGTERM or SIGINT asks each to close gracefully (each runs its
 * own `run()` signal handling: the server closes, the `onClose` hooks run) and exits once all have.
 *
 * State that must hold across workers (rate limits) needs a shared store: `RedisRateLimitStore`.
 */
import type { Cluster, Worker } from 'node:cluster';
import type { Logger } from './logger.js';

export interface RunOptions {
  /** Worker processes to serve with (node:cluster). A number ≥ 1; `os.availableParallelism()` is typical. */
  workers?: number;
}

/** A worker that dies sooner than this after it started is crashing at start: the next one waits. */
const CRASH_WINDOW_MS = 1_000;
/** The wait before a worker that crashed at start is replaced, so a broken start cannot spin the CPU. */
const RESTART_DELAY_MS = 1_000;

/**
 * In the primary process: starts `count` workers and supervises them; returns `true` (the caller must not
 * serve). In a worker: returns `false` (the caller serves).
 */
export function superviseWorkers(count: number, logger: Pick<Logger, 'info' | 'error'>): boolean {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`run({ workers }) takes a whole number of at least 1, not ${String(count)}`);
  // The CommonJS module is the cluster object itself (the ESM namespace calls it `default`).
  const cluster = process.getBuiltinModule('node:cluster') as unknown as Cluster;
  if (!cluster.isPrimary) return false;

  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0;
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(0);
      return;
    }
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    const early = Date.now() - since < CRASH_WINDOW_MS;
    logger.error(
      { pid: worker.process.pid, code, signal },
      `worker ${worker.process.pid} exited with ${how}; starting another${early ? ` in ${RESTART_DELAY_MS} ms` : ''}`,
    );
    if (early) setTimeout(fork, RESTART_DELAY_MS);
    else fork();
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (started.size === 0) process.exit(0);
    // SIGTERM runs each worker's own graceful close (its `run()` listens for it).
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  for (let i = 0; i < count; i++) fork();
  logger.info(
    { pid: process.pid, workers: count },
    `Arbor primary ${process.pid}: ${count} worker${count === 1 ? '' : 's'}`,
  );
  return true;
}

/**
 * `run({ workers })`: one process per worker with node:cluster, all serving on the port the first one
 * binds (the primary hands connections out). The primary serves nothing itself: it starts the workers,
 * replaces one that exits, and on SIGTERM or SIGINT asks each to close gracefully (each runs its own
 * `run()` signal handling: the server closes, the `onClose` hooks run) and exits once all have.
 *
 * Each of the `count` places has its own restart history. A replacement waits
 * {@link FIRST_RESTART_DELAY_MS}, doubled for each further exit in a row, up to {@link MAX_RESTART_DELAY_MS};
 * a worker that served {@link STABLE_AFTER_MS} before it exited starts the doubling over. Workers that
 * exit before they ever listened, {@link MAX_START_FAILURES} in a row in one place, mean the program cannot
 * start (a missing setting, a port taken): the primary says so, closes the other workers and exits 1,
 * for the service manager above it (systemd, Kubernetes) to see and act on.
 *
 * Once shutdown has begun nothing is started: pending restarts are cancelled, every live worker gets
 * SIGTERM, including one still starting, and the primary exits when the last one has.
 *
 * State that must hold across workers (rate limits) needs a shared store: `RedisRateLimitStore`.
 */
import type { Cluster, Worker } from 'node:cluster';
import { nodeBuiltin } from '../builtins.js';
import type { Logger } from '../core/logger.js';

export interface RunOptions {
  /** Worker processes to serve with (node:cluster). A number ≥ 1; `os.availableParallelism()` is typical. */
  workers?: number;
}

/** The wait before the first replacement in a row: at once, to a person; never a tight loop. */
const FIRST_RESTART_DELAY_MS = 100;
/** The longest wait between replacements (the doubling stops here: 100 ms × 2⁸ is past it). */
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that has listened this long before it exits proves its start: its place's doubling starts over. */
const STABLE_AFTER_MS = 30_000;
/**
 * Workers in a row, in one place, that exit before they listened, after which the primary gives up. Five,
 * systemd's default start limit: with the doubling, about 1.5 s of waits plus five starts, soon enough to
 * report a program that cannot start, late enough to ride out a dependency that is a moment late.
 */
const MAX_START_FAILURES = 5;

/** One of the `count` worker places: its current worker's start, and the place's restart history. */
interface Place {
  /** When the current worker first listened, `null` before. */
  listenedAt: number | null;
  /** Exits in a row since a worker here last served {@link STABLE_AFTER_MS}: sets the next delay. */
  exits: number;
  /** Workers in a row here that exited before they listened. */
  startFailures: number;
  /** A replacement waiting for its delay. */
  restart: NodeJS.Timeout | null;
}

/** The wait before the replacement after `exits` exits in a row (1, 2, 3, …): 100, 200, 400 ms, … 30 s. */
function restartDelay(exits: number): number {
  return Math.min(FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, exits - 1), MAX_RESTART_DELAY_MS);
}

/**
 * In the primary process: starts `count` workers and supervises them; returns `true` (the caller must not
 * serve). In a worker: returns `false` (the caller serves).
 */
export function superviseWorkers(count: number, logger: Pick<Logger, 'info' | 'error'>): boolean {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`run({ workers }) takes a whole number of at least 1, not ${String(count)}`);
  // The CommonJS module is the cluster object itself (the ESM namespace calls it `default`).
  const cluster = nodeBuiltin<Cluster>('node:cluster');
  if (!cluster.isPrimary) return false;

  /** The exit code once shutdown has begun, `null` before. */
  let exitCode: number | null = null;
  const places: Place[] = Array.from({ length: count }, () => ({
    listenedAt: null,
    exits: 0,
    startFailures: 0,
    restart: null,
  }));
  const placeOf = new Map<Worker, Place>();

  const start = (place: Place) => {
    place.restart = null;
    if (exitCode !== null) return;
    place.listenedAt = null;
    placeOf.set(cluster.fork(), place);
  };
  const exitWhenAllGone = () => {
    if (exitCode !== null && placeOf.size === 0) process.exit(exitCode);
  };
  const stop = (code: number, reason: string) => {
    if (exitCode !== null) return;
    exitCode = code;
    let cancelled = 0;
    for (const place of places) {
      if (place.restart === null) continue;
      clearTimeout(place.restart);
      place.restart = null;
      cancelled++;
    }
    const live = [...placeOf.keys()];
    logger.info(
      { pid: process.pid, workers: live.length, cancelledRestarts: cancelled },
      `Arbor primary ${process.pid}: ${reason}; closing ${live.length} worker${live.length === 1 ? '' : 's'}` +
        (cancelled === 0 ? '' : `, ${cancelled} pending restart${cancelled === 1 ? '' : 's'} cancelled`),
    );
    // SIGTERM runs each worker's own graceful close (its `run()` listens for it); a worker still starting
    // has no handler yet and simply ends.
    for (const worker of live) worker.process.kill('SIGTERM');
    exitWhenAllGone();
  };

  cluster.on('listening', (worker) => {
    const place = placeOf.get(worker);
    if (place === undefined || place.listenedAt !== null) return;
    place.listenedAt = Date.now();
    place.startFailures = 0;
  });
  cluster.on('exit', (worker, code, signal) => {
    const place = placeOf.get(worker);
    if (place === undefined) return;
    placeOf.delete(worker);
    if (exitCode !== null) {
      exitWhenAllGone();
      return;
    }
    const pid = worker.process.pid;
    const how = `${signal === null ? `code ${code}` : `signal ${signal}`}${place.listenedAt === null ? ' before it listened' : ''}`;
    if (place.listenedAt !== null && Date.now() - place.listenedAt >= STABLE_AFTER_MS) place.exits = 0;
    place.exits++;
    if (place.listenedAt === null) place.startFailures++;
    if (place.startFailures >= MAX_START_FAILURES) {
      logger.error(
        { pid, code, signal, startFailures: place.startFailures },
        `worker ${pid} exited with ${how}, the ${MAX_START_FAILURES}th in a row to fail at start: ` +
          'the program cannot start; giving up (closing the other workers, then exiting with code 1)',
      );
      stop(1, 'workers fail at start');
      return;
    }
    const delayMs = restartDelay(place.exits);
    logger.error(
      { pid, code, signal, delayMs },
      `worker ${pid} exited with ${how}; starting another in ${delayMs} ms`,
    );
    place.restart = setTimeout(() => start(place), delayMs);
  });
  process.once('SIGTERM', () => stop(0, 'SIGTERM'));
  process.once('SIGINT', () => stop(0, 'SIGINT'));
  for (const place of places) start(place);
  logger.info(
    { pid: process.pid, workers: count },
    `Arbor primary ${process.pid}: ${count} worker${count === 1 ? '' : 's'}`,
  );
  return true;
}

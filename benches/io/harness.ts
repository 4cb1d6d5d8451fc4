/**
 * The I/O benchmarks' machinery: who competes, how a server is started in its own child process and
 * stopped, and what is read from /proc about it (CPU time, resident memory). Linux only, as cost.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { IoCase } from './servers/setup.js';

export const root = join(import.meta.dirname, '..', '..');

export interface Contender {
  /** Stable key (`arbor`, `arbor-own`, `fastify`, `hono`). */
  name: string;
  label: string;
  /** Its server file under `servers/`. */
  file: string;
  /** The anchor of a case: the one every Arbor row is divided by. */
  anchor: boolean;
  /** npm package whose version the report gives (null: Arbor). */
  pkg: string | null;
  env: Record<string, string>;
}

const ARBOR_ROWS: Contender[] = [
  { name: 'arbor', label: 'Arbor (node:http)', file: 'arbor.ts', anchor: false, pkg: null, env: {} },
  {
    name: 'arbor-own',
    label: 'Arbor (own server)',
    file: 'arbor.ts',
    anchor: false,
    pkg: null,
    env: { ARBOR_IO_SERVER: 'arbor' },
  },
];

/** Each case's rows: Arbor on both of its servers, then the anchor. */
export function contendersOf(kase: IoCase): Contender[] {
  const fastify = (label: string, pkg: string, file = 'fastify.ts'): Contender => ({
    name: 'fastify',
    label,
    file,
    anchor: true,
    pkg,
    env: {},
  });
  // The cases that read what a request brings have servers of their own (servers/*-requests.ts).
  const arborReading = ARBOR_ROWS.map((row) => ({ ...row, file: 'arbor-requests.ts' }));
  switch (kase) {
    case 'static':
      return [...ARBOR_ROWS, fastify('Fastify + @fastify/static', '@fastify/static')];
    case 'stream':
      return [...ARBOR_ROWS, fastify('Fastify reply.send(stream)', 'fastify')];
    case 'compress':
      return [...ARBOR_ROWS, fastify('Fastify + @fastify/compress', '@fastify/compress')];
    case 'upload':
      return [
        ...arborReading,
        fastify('Fastify + @fastify/multipart', '@fastify/multipart', 'fastify-requests.ts'),
      ];
    case 'upload-stream':
      return [
        ...arborReading,
        fastify('Fastify + @fastify/multipart request.parts()', '@fastify/multipart', 'fastify-requests.ts'),
      ];
    case 'cookies':
      return [
        ...arborReading,
        fastify('Fastify + @fastify/cookie', '@fastify/cookie', 'fastify-requests.ts'),
      ];
    case 'security':
      return [
        ...arborReading,
        fastify('Fastify + @fastify/helmet, cors, session', '@fastify/session', 'fastify-requests.ts'),
      ];
    case 'sse':
      return [
        ...ARBOR_ROWS,
        { name: 'hono', label: 'Hono streamSSE', file: 'hono.ts', anchor: true, pkg: 'hono', env: {} },
      ];
  }
}

export const log = (message: string): void => console.log(`[bench:io] ${message}`);

/** Newest modification time of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Where Arbor is loaded from, as in benches/http/run.ts: the bundle in dist/ (as users run it) when it is
 * at least as new as every source file — `npm run bench:io` builds first, so it is — else the sources
 * through tsx.
 */
export function arborFrom(choice: string): 'dist' | 'src' {
  if (choice === 'dist' || choice === 'src') return choice;
  if (choice !== 'auto') throw new Error('--arbor-from must be auto, dist or src');
  const entry = join(root, 'dist', 'ts', 'src', 'bundle', 'index.js');
  if (!existsSync(entry)) return 'src';
  return statSync(entry).mtimeMs >= newestMtime(join(root, 'ts', 'src')) - 1000 ? 'dist' : 'src';
}

export interface Launch {
  /** The Node that runs the servers. */
  node: string;
  arborSource: 'dist' | 'src';
}

export interface Running {
  contender: Contender;
  child: ChildProcess;
  pid: number;
  url: string;
}

/** A server that could not serve the case: the feature is missing from this checkout. */
export class Unavailable extends Error {}

/**
 * Starts `contender`'s server for `kase` in a child process and waits for its port. Rejects with
 * {@link Unavailable} when the server says it cannot serve the case.
 */
export function startServer(
  contender: Contender,
  kase: IoCase,
  launch: Launch,
  env: Record<string, string>,
): Promise<Running> {
  const child = spawn(
    launch.node,
    ['--import', 'tsx', join(import.meta.dirname, 'servers', contender.file)],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ARBOR_BENCH_FROM: launch.arborSource,
        IO_CASE: kase,
        ...env,
        ...contender.env,
      },
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${contender.label}: not listening after 60 s`));
    }, 60_000);
    child.on('message', (message: { type?: string; port?: number; reason?: string }) => {
      if (message.type === 'unavailable') {
        clearTimeout(timer);
        reject(new Unavailable(message.reason ?? 'unavailable'));
      } else if (message.type === 'listening' && message.port !== undefined) {
        clearTimeout(timer);
        resolve({ contender, child, pid: child.pid as number, url: `http://127.0.0.1:${message.port}` });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${contender.label} exited (${code ?? signal}) before listening`));
    });
  });
}

export function stopServer(server: Running): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGINT');
  });
}

/** A process's CPU time (user + system) in µs, from /proc (clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident memory now (`VmRSS`) and its peak over the process's life (`VmHWM`), in bytes. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/** Round `round`'s order: rotated by one each round, so that no server always runs first (or right after
 * another) on a machine whose speed drifts. */
export function orderOf<T>(items: readonly T[], round: number): T[] {
  return items.map((_, i) => items[(i + round) % items.length] as T);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

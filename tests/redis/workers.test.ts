/**
 * `run({ workers: 2 })`: two node:cluster workers serve one port, share one rate limit through Redis
 * (`throttle:10,1` allows ten requests in all, whichever worker answers), a worker killed with SIGKILL is
 * replaced, and SIGTERM to the primary closes every worker gracefully (each one's `onClose` hook runs)
 * before the primary exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { REDIS_SETUP_TIMEOUT, type RedisInstance, root, startRedis } from './redis-server.js';

vi.setConfig({ testTimeout: 120_000 });

let redis: RedisInstance;
let primary: ChildProcess | undefined;
/** What the primary and its workers wrote (they share its stdout and stderr). */
let output = '';
const dir = mkdtempSync(join(tmpdir(), 'arbor-workers-'));

beforeAll(async () => {
  redis = await startRedis();
}, REDIS_SETUP_TIMEOUT);

afterAll(async () => {
  if (primary !== undefined && primary.exitCode === null && primary.signalCode === null)
    primary.kill('SIGKILL');
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** GET `path` on a fresh connection (so the cluster hands each one to a worker in turn). */
function get(port: number, path: string): Promise<{ status: number; pid: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () => {
        const body = JSON.parse(text) as { pid?: number };
        resolve({ status: res.statusCode ?? 0, pid: body.pid ?? 0 });
      });
    });
    req.on('error', reject);
    // A connection handed to a worker as it is killed is never answered: give up on it.
    req.setTimeout(2_000, () => req.destroy(new Error('no answer in 2 s')));
    req.end();
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}; the processes wrote:\n${output}`);
}

test('two workers: one port, one shared limit, a dead worker replaced, SIGTERM closes all gracefully', async () => {
  const closeLog = join(dir, 'closed.log');
  primary = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests', 'redis', 'clustered-app.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      REDIS_URL: redis.url,
      RATE_PREFIX: `workers-${process.pid}:`,
      CLOSE_LOG: closeLog,
    },
  });
  primary.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  primary.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => primary?.once('exit', (code) => resolve(code)));

  // Each worker logs its banner; the cluster gives every worker the same port for `port: 0`.
  const ports = await until('two workers listening', async () => {
    const found = [...output.matchAll(/Arbor listening on http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    return found.length >= 2 ? found : undefined;
  });
  expect(new Set(ports).size).toBe(1);
  const port = ports[0] as number;

  const answers = [];
  for (let i = 0; i < 20; i++) answers.push(await get(port, '/limited'));
  expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
  expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
  const pids = new Set(answers.filter((a) => a.status === 200).map((a) => a.pid));
  expect(pids.size).toBe(2);

  const victim = [...pids][0] as number;
  process.kill(victim, 'SIGKILL');
  const replacement = await until('a new worker', async () => {
    const answer = await get(port, '/open').catch(() => undefined);
    return answer === undefined || pids.has(answer.pid) ? undefined : answer.pid;
  });
  expect(replacement).not.toBe(victim);
  expect(output).toMatch(new RegExp(`worker ${victim} exited with signal SIGKILL; starting another`));

  primary.kill('SIGTERM');
  expect(await exited).toBe(0);
  const closed = readFileSync(closeLog, 'utf8').trim().split('\n').sort();
  const survivor = [...pids].find((pid) => pid !== victim) as number;
  expect(closed).toEqual([`closed ${replacement}`, `closed ${survivor}`].sort());
});

// Two application PROCESSES (as node:cluster workers or two hosts would be) behind one Redis enforce one
// limit: `throttle:10,1` allows ten requests per client per minute in total, not ten per process.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_SETUP_TIMEOUT, type RedisInstance, root, startRedis } from './redis-server.js';

// Each test starts two application processes (tsx): generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });

interface AppProcess {
  child: ChildProcess;
  base: string;
}

let redis: RedisInstance;
const apps: AppProcess[] = [];
let prefixSerial = 0;

function startApp(name: string, prefix: string): Promise<AppProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'tests', 'redis', 'throttled-app.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, REDIS_URL: redis.url, RATE_PREFIX: prefix, PROCESS_NAME: name },
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code})`)));
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type !== 'listening') return;
      clearTimeout(timer);
      resolve({ child, base: `http://127.0.0.1:${message.port}` });
    });
  });
}

async function startPair(): Promise<[AppProcess, AppProcess]> {
  // A fresh prefix per test: each test starts with no counters, whatever ran before.
  const prefix = `pair-${process.pid}-${++prefixSerial}:`;
  const pair = await Promise.all([startApp('A', prefix), startApp('B', prefix)]);
  apps.push(...pair);
  return pair;
}

beforeAll(async () => {
  redis = await startRedis();
}, REDIS_SETUP_TIMEOUT);

afterAll(async () => {
  await Promise.all(
    apps.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.disconnect();
        }),
    ),
  );
  await redis?.stop();
});

describe('throttle with the Redis store across two processes', () => {
  it('shares one budget: alternating requests get 10 × 200 in total, then 429 from both', async () => {
    const [a, b] = await startPair();
    const answers: { status: number; remaining: string | null; servedBy?: string }[] = [];
    for (let i = 0; i < 14; i++) {
      const base = i % 2 === 0 ? a.base : b.base;
      const response = await fetch(`${base}/limited`);
      const body = (await response.json()) as { servedBy?: string };
      answers.push({
        status: response.status,
        remaining: response.headers.get('x-ratelimit-remaining'),
        ...(body.servedBy === undefined ? {} : { servedBy: body.servedBy }),
      });
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      }
    }
    expect(answers.map((x) => x.status)).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
    // The remaining count falls by one per request whichever process answered.
    expect(answers.slice(0, 10).map((x) => x.remaining)).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    expect(new Set(answers.slice(0, 10).map((x) => x.servedBy))).toEqual(new Set(['A', 'B']));
    // An unthrottled route of the same processes is unaffected.
    expect((await fetch(`${a.base}/open`)).status).toBe(200);
  });

  it('lets exactly 10 through when 40 requests hit both processes at once', async () => {
    const [a, b] = await startPair();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const response = await fetch(`${i % 2 === 0 ? a.base : b.base}/limited`);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});

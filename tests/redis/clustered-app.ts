/**
 * The application of `workers.test.ts`: `run({ workers: 2 })` with node:cluster, rate limits counted in
 * Redis. Every process runs this file; the primary only supervises. Each worker's `onClose` hook appends
 * a line to `CLOSE_LOG` (the test reads it after SIGTERM: every worker closed gracefully).
 */
import { appendFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Application } from '../../ts/src/app/index.js';
import { RedisRateLimitStore } from '../../ts/src/stores/redis-store.js';

const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
const store = new RedisRateLimitStore({ client, prefix: process.env.RATE_PREFIX ?? 'test:' });

const app = new Application({ port: 0, host: '127.0.0.1', rateLimitStore: store });
app.get('/limited', (_req, res) => res.json({ pid: process.pid })).middleware('throttle:10,1');
app.get('/open', (_req, res) => res.json({ pid: process.pid }));
app.onClose(async () => {
  await client.quit().catch(() => {});
  appendFileSync(process.env.CLOSE_LOG ?? '/dev/null', `closed ${process.pid}\n`);
});

app.run({ workers: 2 });

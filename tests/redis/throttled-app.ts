/**
 * One of the application processes of the two-process test: an `Application` whose built-in `throttle`
 * alias counts in Redis. Started by `two-processes.test.ts` with `REDIS_URL`, `RATE_PREFIX` and
 * `PROCESS_NAME`; tells its port over IPC and exits when the test disconnects.
 */
import { Redis } from 'ioredis';
import { Application, consoleLogger } from '../../ts/src/app/index.js';
import { RedisRateLimitStore } from '../../ts/src/stores/redis-store.js';

const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const store = new RedisRateLimitStore({ client, prefix: process.env.RATE_PREFIX ?? 'test:' });
const name = process.env.PROCESS_NAME ?? String(process.pid);

const app = new Application({
  port: 0,
  host: '127.0.0.1',
  rateLimitStore: store,
  logger: { ...consoleLogger, info: () => {} },
});
app.get('/limited', (_req, res) => res.json({ servedBy: name })).middleware('throttle:10,1');
app.get('/open', (_req, res) => res.json({ servedBy: name }));

const server = app.run();
server.once('listening', () => {
  const address = server.address();
  process.send?.({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => {
  void app
    .close()
    .then(() => client.quit())
    .finally(() => process.exit(0));
});

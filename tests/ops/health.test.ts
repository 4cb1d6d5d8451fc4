/**
 * Health and load shedding (ts/src/middleware/health.ts, under-pressure.ts). A real process served by
 * `run()` (fixtures/health-app.ts): at SIGTERM readiness turns 503 at once while liveness stays 200 and a
 * request in flight finishes, then the process exits 0. In process, on the server under test: readiness
 * follows `close()` and the application's own check; a blocked event loop makes `underPressure()` answer
 * 503 with `Retry-After` until the loop has recovered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  Application,
  type ArborServer,
  health,
  memoryLogger,
  underPressure,
} from '../../ts/src/app/index.js';
import { testServer, withEngine } from '../app/support/engine.js';
import { listen } from '../app/support/transport.js';

const servers: ArborServer[] = [];
let child: ChildProcess | null = null;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.closeGracefully(1000)));
  if (child !== null && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = null;
});

/** A GET on a connection of its own: status and body. */
function fresh(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe(`graceful shutdown and readiness (${testServer} server, a real process)`, () => {
  test('at SIGTERM readiness is 503 at once, liveness 200, the request in flight finishes, the process exits 0', async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'health-app.ts')],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, PORT: String(port), SHUTDOWN_DELAY_MS: '1000', SLOW_MS: '1500' },
      },
    );
    const events: string[] = [];
    const waiters: [string, () => void][] = [];
    child.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.startsWith('{')) continue;
        const { event } = JSON.parse(line) as { event: string };
        events.push(event);
        for (const [name, resolve] of waiters) if (name === event) resolve();
      }
    });
    const seen = (event: string) =>
      events.includes(event)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push([event, resolve]));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));

    await seen('listening');
    expect(await fresh(port, '/health/ready')).toEqual({ status: 200, text: '{"status":"ready"}' });
    const slow = fresh(port, '/slow');
    await seen('slow-started');
    child.kill('SIGTERM');
    // Within the shutdown delay the server still accepts: the probe sees the shutdown.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await fresh(port, '/health/ready')).toEqual({ status: 503, text: '{"status":"shutting down"}' });
    expect((await fresh(port, '/health/live')).status).toBe(200);
    expect(events).not.toContain('closed');
    expect(await slow).toEqual({ status: 200, text: 'slow done' });
    expect(await exited).toBe(0);
    expect(events).toContain('closed');
  });
});

describe(`health routes and underPressure (${testServer} server)`, () => {
  test("readiness follows close() and the application's check; liveness stays 200", async () => {
    let dependencyUp = false;
    const app = new Application(withEngine({ logger: memoryLogger() }));
    const probes = health(app, { ready: () => dependencyUp });
    app.get('/live', probes.live);
    app.get('/ready', probes.ready);
    const { server, base } = await listen(app);
    servers.push(server);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'not ready' });
    dependencyUp = true;
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    expect(app.shutdown.began).toBe(false);
    // close() on an application run() did not start closes no server; it marks the shutdown begun.
    await app.close();
    expect(app.shutdown.began).toBe(true);
    expect(await (await fetch(`${base}/ready`)).json()).toEqual({ status: 'shutting down' });
    expect((await fetch(`${base}/live`)).status).toBe(200);
  });

  test('a blocked event loop: 503 with Retry-After until the loop has recovered', async () => {
    const app = new Application(withEngine({ logger: memoryLogger() }));
    app.middleware(underPressure(app, { maxEventLoopDelay: 50, retryAfter: 7, sampleIntervalMs: 100 }));
    app.get('/work', (_req, res) => res.send('ok'));
    app.get('/block', (_req, res) => {
      const until = performance.now() + 400;
      while (performance.now() < until);
      return res.send('blocked');
    });
    const { server, base } = await listen(app);
    servers.push(server);
    // Let a sample or two pass on an idle loop first.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await fetch(`${base}/work`)).status).toBe(200);
    expect(await (await fetch(`${base}/block`)).text()).toBe('blocked');
    const statuses: number[] = [];
    let refused: { retryAfter: string | null; text: string } | null = null;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const reply = await fetch(`${base}/work`);
      statuses.push(reply.status);
      const text = await reply.text();
      if (reply.status === 503) refused ??= { retryAfter: reply.headers.get('retry-after'), text };
      if (refused !== null && reply.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refused?.retryAfter).toBe('7');
    expect(JSON.parse(refused?.text ?? '{}').error).toMatch(/under pressure \(event loop delay\)/);
    // Recovered: the last answer is a 200 again.
    expect(statuses.at(-1), statuses.join(' ')).toBe(200);
    expect(statuses).toContain(503);
  });

  test('the sampling stops when the application closes', async () => {
    // A heap threshold every process is past: each sample finds pressure.
    const sampled = new Application(withEngine({ logger: memoryLogger() }));
    sampled.middleware(underPressure(sampled, { maxHeapUsedBytes: 1, sampleIntervalMs: 20 }));
    sampled.get('/work', (_req, res) => res.send('ok'));
    const closed = new Application(withEngine({ logger: memoryLogger() }));
    closed.middleware(underPressure(closed, { maxHeapUsedBytes: 1, sampleIntervalMs: 20 }));
    closed.get('/work', (_req, res) => res.send('ok'));
    await closed.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The open application's sampler ran and refuses; the closed one's never ran after close().
    expect((await sampled.request('/work')).status).toBe(503);
    expect((await closed.request('/work')).status).toBe(200);
    await sampled.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    // Closing also clears what the last sample found.
    expect((await sampled.request('/work')).status).toBe(200);
  });
});

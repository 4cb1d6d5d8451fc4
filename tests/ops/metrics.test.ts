/**
 * `arbor-router/metrics` (ts/src/ops/metrics.ts), scraped over real HTTP on the server under test and read
 * with a Prometheus text-format parser (parse-prometheus-text-format, prom2json's shape): counts and
 * histogram buckets per route pattern after a known set of requests, the in-flight gauge, the default
 * process metrics, unmatched paths sharing one series; and under `run({ workers: 2 })`, real processes,
 * a scrape reports every worker's requests whichever worker answers it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, test } from 'vitest';
import { Application, type ArborServer, memoryLogger } from '../../ts/src/app/index.js';
import { metrics } from '../../ts/src/ops/metrics.js';
import { testServer, withEngine } from '../app/support/engine.js';
import { listen } from '../app/support/transport.js';

/** One sample line of the text format: `name{label="value",…} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples and the declared types of an exposition in Prometheus's text format. Written here, small:
 * parse-prometheus-text-format, the kept parser, drops a labelled histogram's labels, count and sum.
 */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) types.set(type[1] as string, type[2] as string);
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[name as string] = (value as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The samples named `name` whose labels are exactly `labels` (`le` aside, for histogram buckets). */
function find(samples: Sample[], name: string, labels: Record<string, string>): Sample[] {
  return samples.filter((sample) => {
    if (sample.name !== name) return false;
    const own = Object.entries(sample.labels).filter(([key]) => key !== 'le');
    return own.length === Object.keys(labels).length && own.every(([key, value]) => labels[key] === value);
  });
}

/** The one value of `name` with exactly `labels`. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = find(samples, name, labels);
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return found[0]?.value;
}

/** A histogram's buckets (by `le`), count and sum for `labels`. */
function histogram(samples: Sample[], name: string, labels: Record<string, string>) {
  const buckets: Record<string, number> = {};
  for (const bucket of find(samples, `${name}_bucket`, labels))
    buckets[bucket.labels.le as string] = bucket.value;
  return {
    buckets,
    count: value(samples, `${name}_count`, labels),
    sum: value(samples, `${name}_sum`, labels),
  };
}

const servers: ArborServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.closeGracefully(1000)));
});

async function scrape(base: string): Promise<ReturnType<typeof parse>> {
  const reply = await fetch(`${base}/metrics`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await reply.text());
}

describe(`Prometheus metrics (${testServer} server)`, () => {
  test('counts and histogram buckets per route pattern, method and status class; unmatched paths share one series', async () => {
    const m = metrics({ registry: new Registry() });
    const app = new Application(withEngine({ logger: memoryLogger() }));
    app.middleware(m.middleware);
    app.get('/tasks/:id', (req, res) => res.json({ id: req.param('id') }));
    app.post('/tasks', (_req, res) => res.status(201).json({ id: 1 }));
    app.get('/slow', async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return res.send('slow');
    });
    app.get('/boom', () => {
      throw new Error('boom');
    });
    app.get('/metrics', m.handler);
    const { server, base } = await listen(app);
    servers.push(server);

    const send = async (path: string, method = 'GET') => (await fetch(base + path, { method })).text();
    for (const id of [1, 2, 3]) await send(`/tasks/${id}`);
    await send('/tasks', 'POST');
    await send('/slow');
    await send('/slow');
    await send('/boom');
    await send(`/random/${crypto.randomUUID()}`);

    const first = await scrape(base);
    const total = 'http_requests_total';
    expect(first.types.get(total)).toBe('counter');
    expect(value(first.samples, total, { method: 'GET', route: '/tasks/:id', status: '2xx' })).toBe(3);
    expect(value(first.samples, total, { method: 'POST', route: '/tasks', status: '2xx' })).toBe(1);
    expect(value(first.samples, total, { method: 'GET', route: '/slow', status: '2xx' })).toBe(2);
    expect(value(first.samples, total, { method: 'GET', route: '/boom', status: '5xx' })).toBe(1);
    expect(value(first.samples, total, { method: 'GET', route: '', status: '4xx' })).toBe(1);
    // The scrape itself is counted once it is answered: five series so far.
    expect(first.samples.filter((sample) => sample.name === total)).toHaveLength(5);

    const duration = 'http_request_duration_seconds';
    expect(first.types.get(duration)).toBe('histogram');
    const slow = histogram(first.samples, duration, { method: 'GET', route: '/slow', status: '2xx' });
    // 40 ms handlers: none within 25 ms, both by 10 s.
    expect(slow.buckets['0.025']).toBe(0);
    expect(slow.buckets['10']).toBe(2);
    expect(slow.buckets['+Inf']).toBe(2);
    expect(slow.count).toBe(2);
    expect(slow.sum).toBeGreaterThanOrEqual(0.075);
    const tasks = histogram(first.samples, duration, { method: 'GET', route: '/tasks/:id', status: '2xx' });
    expect(tasks.count).toBe(3);
    expect(Object.keys(tasks.buckets).sort()).toEqual(
      [
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.075',
        '0.1',
        '0.25',
        '0.5',
        '0.75',
        '1',
        '2.5',
        '5',
        '7.5',
        '10',
        '+Inf',
      ].sort(),
    );
    expect(tasks.buckets['+Inf']).toBe(3);

    // The scrape being answered is the one request in flight.
    expect(value(first.samples, 'http_requests_in_flight')).toBe(1);
    // prom-client's default process metrics.
    expect(first.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(first.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');

    // More unmatched paths (and a WebDAV method, outside the label's list): no new series, the one count grows.
    await send(`/random/${crypto.randomUUID()}`);
    await send(`/other/${crypto.randomUUID()}/x`);
    await send('/tasks/1', 'PROPFIND');
    const second = await scrape(base);
    expect(value(second.samples, total, { method: 'GET', route: '', status: '4xx' })).toBe(3);
    expect(value(second.samples, total, { method: '_OTHER', route: '', status: '4xx' })).toBe(1);
    expect(value(second.samples, total, { method: 'GET', route: '/metrics', status: '2xx' })).toBe(1);
    expect(second.samples.filter((sample) => sample.name === total)).toHaveLength(7);
    for (const sample of second.samples) expect(sample.labels.route ?? '').not.toMatch(/random|other/);
  });
});

describe('Prometheus metrics under run({ workers: 2 })', () => {
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    child = null;
  });

  test('a scrape reports the requests of every worker, whichever worker answers it', {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'metrics-workers-app.ts')],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, PORT: String(port) },
      },
    );
    let listening = 0;
    await new Promise<void>((resolve, reject) => {
      const cap = setTimeout(() => reject(new Error('the workers did not listen within 30 s')), 30_000);
      child?.stdout?.on('data', (chunk: Buffer) => {
        listening += chunk
          .toString()
          .split('\n')
          .filter((line) => line.includes('"listening"')).length;
        if (listening >= 2) {
          clearTimeout(cap);
          resolve();
        }
      });
    });
    // A new connection per request: the primary hands connections to the workers in turn.
    const pids = new Set<number>();
    for (let i = 0; i < 20; i++) pids.add((JSON.parse(await fresh(port, '/work')) as { pid: number }).pid);
    expect(pids.size).toBe(2);
    const labels = { method: 'GET', route: '/work', status: '2xx' };
    for (let i = 0; i < 4; i++) {
      const { samples } = parse(await fresh(port, '/metrics'));
      expect(value(samples, 'http_requests_total', labels)).toBe(20);
      expect(histogram(samples, 'http_request_duration_seconds', labels).count).toBe(20);
    }
  });
});

/** A GET on a connection of its own. */
function fresh(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve(text));
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

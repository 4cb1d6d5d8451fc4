/**
 * WebSocket echo benchmark: Arbor's `app.ws` on the default server (node:http) and on its own server,
 * against `@fastify/websocket`, in the same run. Each server runs in its own child process; the client
 * (client.ts) runs here. Rounds alternate the servers' order; the report gives each server's median
 * messages/s and its ratio to Fastify's.
 *
 *   node_modules/.bin/node --import tsx benches/ws/echo.ts [--quick] [--rounds 5] [--seconds 10] [--connections 50]
 *                                            [--window 8] [--size 32]
 *
 * Writes benches/results/ws.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeEnvironment } from '../http/environment.js';
import { load } from './client.js';
import { renderReport, type Summary } from './report.js';

const root = join(import.meta.dirname, '..', '..');
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    window: { type: 'string' },
    size: { type: 'string' },
  },
});
const quick = args.quick === true;
const settings = {
  rounds: Number(args.rounds ?? (quick ? 1 : 5)),
  seconds: Number(args.seconds ?? (quick ? 2 : 10)),
  warmup: quick ? 0.5 : 2,
  connections: Number(args.connections ?? (quick ? 10 : 50)),
  window: Number(args.window ?? 8),
  size: Number(args.size ?? 32),
  quick,
};

interface Contender {
  name: string;
  label: string;
  file: string;
  env: Record<string, string>;
  pkg: string | null;
}

const CONTENDERS: Contender[] = [
  {
    name: 'arbor',
    label: 'Arbor app.ws (node:http)',
    file: 'arbor.ts',
    env: { ARBOR_WS_SERVER: 'node' },
    pkg: null,
  },
  {
    name: 'arbor-own',
    label: 'Arbor app.ws (own server)',
    file: 'arbor.ts',
    env: { ARBOR_WS_SERVER: 'arbor' },
    pkg: null,
  },
  { name: 'fastify', label: '@fastify/websocket', file: 'fastify.ts', env: {}, pkg: '@fastify/websocket' },
];

const log = (message: string) => console.log(`[bench:ws] ${message}`);

function start(contender: Contender): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'servers', contender.file)],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, NODE_ENV: 'production', ...contender.env },
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${contender.label}: not listening after 60 s`)), 60_000);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type !== 'listening' || message.port === undefined) return;
      clearTimeout(timer);
      resolve({ child, port: message.port });
    });
    child.once('exit', (code) => reject(new Error(`${contender.label} exited (${code}) before listening`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** A process's CPU time (user + system) in µs, from /proc (Linux): the server's own, not the client's. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100;
}

const runs = new Map<string, number[]>(CONTENDERS.map((c) => [c.name, []]));
/** Server CPU µs per echoed message, per round: steadier than throughput on a shared machine. */
const costs = new Map<string, number[]>(CONTENDERS.map((c) => [c.name, []]));
for (let round = 0; round < settings.rounds; round++) {
  // Alternate the order, so that no server always runs first (or last) on a machine that drifts.
  const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
  for (const contender of order) {
    const { child, port } = await start(contender);
    try {
      const pid = child.pid as number;
      let cpu = 0;
      const result = await load({
        url: `ws://127.0.0.1:${port}/echo`,
        ...settings,
        timed: { start: () => (cpu = -cpuMicros(pid)), end: () => (cpu += cpuMicros(pid)) },
      });
      runs.get(contender.name)?.push(result.perSecond);
      costs.get(contender.name)?.push(cpu / result.messages);
      log(
        `round ${round + 1}/${settings.rounds} ${contender.label}: ${Math.round(result.perSecond)} messages/s, ` +
          `${(cpu / result.messages).toFixed(2)} µs server CPU per message`,
      );
    } finally {
      await stop(child);
    }
  }
}

const summaries: Summary[] = CONTENDERS.map((c) => ({
  name: c.name,
  label: c.label,
  runs: runs.get(c.name) ?? [],
  costs: costs.get(c.name) ?? [],
}));
const environment = describeEnvironment(root, process.execPath, CONTENDERS, 'benches/ws/client.ts (ws)');
environment.versions.ws = JSON.parse(
  readFileSync(join(root, 'node_modules/ws/package.json'), 'utf8'),
).version;
environment.versions.fastify = JSON.parse(
  readFileSync(join(root, 'node_modules/fastify/package.json'), 'utf8'),
).version;
const out = join(root, 'benches', 'results', 'ws.md');
writeFileSync(out, renderReport(summaries, environment, settings));
log(`wrote ${out}`);

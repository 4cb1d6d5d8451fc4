/**
 * Server CPU time per request: each server of `run.ts` in its own process under autocannon load, its CPU
 * time read from /proc before and after a timed run (Linux only). On a shared machine this is steadier
 * than throughput — a server that gets half a core serves half the requests at about the same cost each —
 * and it says where a server stands against the bare node:http one in microseconds. Runs are interleaved
 * as in run.ts. Not a replacement for `npm run bench:http`, whose throughput figures are the benchmark.
 * The load comes from autocannon, not run.ts's wrk: it holds a fixed request rate (`--rate`), and a cost per
 * request does not depend on whether the generator outruns the server.
 *
 *   node --import tsx benches/http/cost.ts [--mix by-id] [--only arbor,fastify,bare] [--rounds 3] [--duration 5]
 *   --rate N: N requests per second in all instead of as many as the server takes, so that every server
 *     does the same work per event-loop turn and a busy machine starves none of them (steadiest figures)
 *   --only arbor-reference: Arbor on the TypeScript reference engine (run.ts's --arbor-engine reference)
 *   --prof DIR: the servers run with --cpu-prof and write their profiles to DIR when they exit
 *   --mix post --size BYTES: the write path with the body of that size (200, 2048 or 65536; default 200)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildMix, MIXES, type MixName, postMix } from './mix.js';
import { BODY_SIZES } from './orders.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const { values: args } = parseArgs({
  options: {
    mix: { type: 'string', default: 'by-id' },
    size: { type: 'string', default: '200' },
    only: { type: 'string', default: 'arbor,fastify,bare' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '100' },
    rate: { type: 'string' },
    prof: { type: 'string' },
  },
});
const mix = args.mix as MixName;
if (!MIXES.includes(mix)) throw new Error(`--mix must be one of ${MIXES.join(', ')}`);

/** Server files by contender name, as in run.ts (the github mix has its own servers). */
const FILES: Record<string, { file: string; github?: string; env?: Record<string, string> }> = {
  arbor: { file: 'arbor.ts', github: 'github-arbor.ts' },
  'arbor-validated': { file: 'arbor.ts', env: { ARBOR_BENCH_VALIDATE: '1' } },
  // The TypeScript reference engine in place of the wasm one: the engine's share of a request.
  'arbor-reference': {
    file: 'arbor.ts',
    github: 'github-arbor.ts',
    env: { ARBOR_BENCH_ENGINE: 'reference' },
  },
  'arbor-own': { file: 'arbor.ts', github: 'github-arbor.ts', env: { ARBOR_BENCH_SERVER: 'arbor' } },
  fastify: { file: 'fastify.ts', github: 'github-fastify.ts' },
  hono: { file: 'hono.ts', github: 'github-hono.ts' },
  express: { file: 'express.ts', github: 'github-express.ts' },
  bare: { file: 'bare.ts' },
};

/** User + system CPU time of a process, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
}

async function start(name: string): Promise<Server> {
  const entry = FILES[name];
  const file = mix === 'github' ? entry?.github : entry?.file;
  if (entry === undefined || file === undefined) throw new Error(`no ${name} server for the ${mix} mix`);
  const flags = args.prof ? ['--cpu-prof', `--cpu-prof-dir=${args.prof}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', join(here, 'servers', file)], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production', ARBOR_BENCH_FROM: 'dist', ...entry.env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'listening') resolve(message.port as number);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

const bodySize = BODY_SIZES.find((size) => String(size.bytes) === args.size);
if (bodySize === undefined)
  throw new Error(`--size takes ${BODY_SIZES.map((size) => size.bytes).join(', ')}`);
const requests = mix === 'post' ? postMix(bodySize) : buildMix(mix);
const load = (url: string, duration: number) =>
  autocannon({
    url,
    connections: Number(args.connections),
    duration,
    requests,
    ...(args.rate === undefined ? {} : { overallRate: Number(args.rate) }),
  });
const servers: Server[] = [];
for (const name of args.only.split(',')) servers.push(await start(name.trim()));
const costs = new Map<string, number[]>(servers.map((s) => [s.name, []]));
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    for (let i = 0; i < servers.length; i++) {
      const server = servers[(i + round) % servers.length] as Server;
      const pid = server.child.pid as number;
      await load(server.url, Number(args.warmup));
      const before = cpuMicros(pid);
      const result = await load(server.url, Number(args.duration));
      const used = cpuMicros(pid) - before;
      const cost = used / result.requests.total;
      costs.get(server.name)?.push(cost);
      console.log(
        `round ${round + 1} ${server.name.padEnd(16)} ${cost.toFixed(1).padStart(6)} µs/request  ` +
          `${Math.round(result.requests.average).toString().padStart(6)} req/s  ` +
          `server CPU ${Math.round(used / 1e4 / Number(args.duration))} %  non-2xx ${result.non2xx}`,
      );
    }
  }
} finally {
  for (const server of servers) server.child.kill('SIGINT');
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
console.log(
  `\nmedian µs of server CPU per request (${mix} mix${mix === 'post' ? `, ${bodySize.name}` : ''}):`,
);
for (const [name, values] of costs) console.log(`  ${name.padEnd(16)} ${median(values).toFixed(1)}`);

/**
 * What Arbor's V8 tiering flags (`ts/src/engine/v8-tiering.ts`, `ARBOR_V8_TIERING=on`) buy a server:
 * the same application started fresh with the flags and without them, interleaved (on, off; off, on; …),
 * each start timed on its first requests and then at steady state. Writes `benches/results/v8-tiering.md`
 * (Node 24) or `benches/results/node<major>/v8-tiering.md`.
 *
 *   node --import tsx benches/http/v8-tiering.ts [--node 24|26|PATH] [--mix mixed,github] [--runs 4]
 *        [--requests 10000] [--connections 100] [--warmup 2] [--duration 5] [--out file]
 *
 * Servers and mixes are the HTTP benchmark's (`servers/arbor.ts`, the tasks API, for `mixed`;
 * `servers/github-arbor.ts`, 516 routes, for `github`), loaded from dist/ as users run the package.
 * For each start:
 * - **first requests**: from the moment the server says it listens, `--requests` requests over
 *   `--connections` keep-alive connections from a node:http client in this process (its code warmed on a
 *   server of its own first), every answer checked for a 2xx; wall time, and the server's CPU time
 *   (all its threads, V8's compilers included: `/proc/<pid>/stat`) from its start to the last answer;
 * - **steady state**: the same server then answers wrk (`wrk.ts`) for `--warmup` + `--duration` seconds.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWrk } from '../../scripts/ensure-wrk.mjs';
import { tieringFlags } from '../../ts/src/engine/v8-tiering.js';
import { cpuModel } from '../router/system.js';
import { buildMix, type LoadRequest, type MixName } from './mix.js';
import { runWrk, writeMixScript } from './wrk.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

const { values: args } = parseArgs({
  options: {
    node: { type: 'string' },
    mix: { type: 'string', default: 'mixed,github' },
    runs: { type: 'string', default: '4' },
    requests: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});
const runs = Number(args.runs);
const requests = Number(args.requests);
const connections = Number(args.connections);
const mixes = (args.mix ?? '').split(',') as MixName[];
for (const mix of mixes)
  if (mix !== 'mixed' && mix !== 'github') throw new Error(`--mix takes mixed and github, not ${mix}`);

async function serversNode(choice: string | undefined): Promise<string> {
  if (choice === undefined) return process.execPath;
  if (!/^\d+$/.test(choice)) return choice;
  const binaries = '../../scripts/node-binaries.mjs';
  const { nodeBinary } = (await import(binaries)) as { nodeBinary(line: string): { binary: string } };
  return nodeBinary(choice).binary;
}
const node = await serversNode(args.node);
const nodeVersion = spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim();
const v8Version = spawnSync(node, ['-p', 'process.versions.v8'], { encoding: 'utf8' }).stdout.trim();
const major = nodeVersion.slice(1).split('.')[0];
const out =
  args.out ?? join(root, 'benches', 'results', ...(major === '24' ? [] : [`node${major}`]), 'v8-tiering.md');

type Mode = 'on' | 'off';
interface Sample {
  listenMs: number;
  firstMs: number;
  cpuMs: number;
  rps: number;
  p99: number;
}

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
/** CPU time (user + system, every thread) a process has used so far, from `/proc/<pid>/stat`. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function startServer(mix: MixName, mode: Mode): Promise<{ child: ChildProcess; port: number }> {
  const file = join(here, 'servers', mix === 'github' ? 'github-arbor.ts' : 'arbor.ts');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', ARBOR_BENCH_FROM: 'dist' };
  for (const key of Object.keys(env))
    if (key === 'NODE_OPTIONS' || key.startsWith('ARBOR_V8')) delete env[key];
  env.ARBOR_V8_TIERING = mode;
  const child = spawn(node, ['--import', 'tsx', file], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}) before listening`)));
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'listening') resolve({ child, port: message.port as number });
    });
  });
}

/** `count` requests of `mix` in turn over `connections` keep-alive connections; throws on a non-2xx. */
async function firstRequests(port: number, mix: LoadRequest[], count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const one = (r: LoadRequest) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, agent, method: r.method, path: r.path, headers: r.headers },
        (response) => {
          response.resume();
          response.once('end', () =>
            (response.statusCode ?? 0) < 300
              ? resolve()
              : reject(new Error(`${r.method} ${r.path}: ${response.statusCode}`)),
          );
        },
      );
      request.once('error', reject);
      request.end(r.body);
    });
  const worker = async () => {
    while (next < count) await one(mix[next++ % mix.length] as LoadRequest);
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
}

/** Runs the client's own code hot before the first timed start, on a server in this process. */
async function warmClient(mix: LoadRequest[]): Promise<void> {
  const server = http.createServer((req, res) => req.resume().once('end', () => res.end('{}')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await firstRequests((server.address() as AddressInfo).port, mix, requests);
  await new Promise((resolve) => server.close(resolve));
}

async function sample(mix: MixName, mode: Mode, script: string): Promise<Sample> {
  const started = performance.now();
  const { child, port } = await startServer(mix, mode);
  const listening = performance.now();
  try {
    await firstRequests(port, buildMix(mix), requests);
    const firstMs = performance.now() - listening;
    const cpuMs = cpuOf(child.pid as number);
    const load = { connections, pipelining: 1 };
    await runWrk(`http://127.0.0.1:${port}`, script, load, Number(args.warmup));
    const steady = await runWrk(`http://127.0.0.1:${port}`, script, load, Number(args.duration));
    if (steady.errors + steady.timeouts + steady.non2xx > 0)
      throw new Error(`${mix} ${mode}: failed answers`);
    return { listenMs: listening - started, firstMs, cpuMs, rps: steady.rps, p99: steady.latencyP99 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const cell = (values: number[], unit: string, digits = 0) =>
  `${median(values).toFixed(digits)} ${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

const wrkVersion = ensureWrk();
const rows: string[] = [];
for (const mix of mixes) {
  await warmClient(buildMix(mix));
  const script = writeMixScript(buildMix(mix), 1);
  const samples: Record<Mode, Sample[]> = { on: [], off: [] };
  for (let run = 0; run < runs; run++) {
    for (const mode of run % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const s = await sample(mix, mode, script);
      samples[mode].push(s);
      console.log(
        `[v8-tiering] ${nodeVersion} ${mix} run ${run + 1}/${runs} flags ${mode.padEnd(3)}: listening ` +
          `${s.listenMs.toFixed(0)} ms, first ${requests} ${s.firstMs.toFixed(0)} ms (server CPU ` +
          `${s.cpuMs.toFixed(0)} ms), steady ${s.rps.toFixed(0)} req/s, p99 ${s.p99} ms`,
      );
    }
  }
  // Above 1: the flags help (a shorter time, a higher rate).
  const gain = (pick: (s: Sample) => number, unit: string) => {
    const ratio = median(samples.off.map(pick)) / median(samples.on.map(pick));
    return `${(unit === 'req/s' ? 1 / ratio : ratio).toFixed(2)}×`;
  };
  const measures: [string, (s: Sample) => number, string][] = [
    ['start to listening', (s) => s.listenMs, 'ms'],
    [`first ${requests.toLocaleString('en')} requests (wall)`, (s) => s.firstMs, 'ms'],
    [`server CPU, start to ${requests.toLocaleString('en')}th answer`, (s) => s.cpuMs, 'ms'],
    ['steady state', (s) => s.rps, 'req/s'],
    ['steady state p99 latency', (s) => s.p99, 'ms'],
  ];
  for (const [label, pick, unit] of measures) {
    const digits = unit === 'ms' && label.includes('p99') ? 2 : 0;
    rows.push(
      `| ${mix} | ${label} | ${cell(samples.on.map(pick), unit, digits)} | ${cell(samples.off.map(pick), unit, digits)} | ${gain(pick, unit)} |`,
    );
  }
}

const markdown = `# V8 tiering flags: what they buy a server

Generated by \`benches/http/v8-tiering.ts\`. Reproduce:
\`node --import tsx benches/http/v8-tiering.ts --node ${major} --mix ${mixes.join(',')} --runs ${runs}\`.

**on**: \`ARBOR_V8_TIERING=on\`, Arbor sets V8's flags at import (\`ts/src/engine/v8-tiering.ts\`; on this
V8: ${tieringFlags(v8Version)
  .map((f) => `\`${f}\``)
  .join(', ')}).
**off**: V8's defaults. Each start is a fresh server process (the HTTP benchmark's: \`mixed\` is the tasks API
with its request mix, \`github\` the 516-route GitHub table with every route's URL in turn), loaded from
dist/; the modes alternate, ${runs} starts each. *First requests*: from the server's "listening" to the
last of ${requests.toLocaleString('en')} answers, over ${connections} keep-alive connections from a node:http
client; the server's CPU time counts every thread (V8's compilers too) from its start. *Steady state*: then
wrk, ${connections} connections, ${args.warmup} s warm-up and ${args.duration} s measured. Medians, the range
in parentheses; the last column is what the flags gain: off ÷ on for a time, on ÷ off for req/s (above 1:
the flags help; below 1: they hurt).

| app | measure | flags on | flags off | gain |
|---|---|---:|---:|---:|
${rows.join('\n')}

Machine: ${cpuModel()}, ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores, ${process.platform} ${process.arch}, Node ${nodeVersion} (V8 ${v8Version}), wrk ${wrkVersion}.
`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, markdown);
console.log(`[v8-tiering] wrote ${out}`);

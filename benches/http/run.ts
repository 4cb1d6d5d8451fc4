/**
 * HTTP benchmark: the tasks API on Arbor, Express 5, Fastify 5, Hono (@hono/node-server) and a bare
 * node:http server, each in its own child process, driven by wrk from another process on loopback
 * (`wrk.ts`: installed with apt-get when missing; why not autocannon).
 * `--mix github` serves GitHub's REST API instead (516 routes, `github.ts`), cycling through every route's
 * real URL: routing a large table under HTTP load. The bare server has no router, so it sits that one out.
 * Runs are interleaved (A B C D E, B C D E A, …) so that drift in the machine's load spreads over every
 * server instead of favouring whichever ran in a quiet minute. Every server is checked for correct
 * answers before anything is timed.
 *
 *   npm run bench:http                         5 rounds × 10 s (3 s warm-up each), 100 connections
 *   node --import tsx benches/http/run.ts --smoke        1 round × 2 s: checks the machinery, not a benchmark
 *   `--mix post` times the write path instead: `POST /orders/:shop` with a JSON body of ~200 B, ~2 KiB and
 *   ~64 KiB (`orders.ts`), each size a workload of its own inside every round, on Arbor (both servers),
 *   Fastify, Hono and the bare node:http ceiling; the report is http.post.md.
 *   `--mix validate` times the same route validated (a 10-field body, 3 query values) and not: Arbor with a
 *   doc-comment contract and with zod, Fastify with JSON Schema on ajv, Hono with @hono/zod-validator, each
 *   beside itself unvalidated; the report is http.validate.md.
 *   options: --rounds N --duration S --warmup S --connections N --pipelining N
 *            --mix mixed|read|by-id|github|post|validate
 *            --only arbor,arbor-validated --node 22|24|26|PATH (servers' Node; reports of a Node other than 24
 *            go to benches/results/node<major>/) --out DIR (default benches/results)
 *            --arbor-engine wasm|reference (reference: the TypeScript engine of the differential tests)
 *            --arbor-from auto|dist|src (auto: dist/ when it is up to date, else the sources through tsx)
 *   The report goes to http.md and http.svg for the default mix (mixed), http.<mix>.md and .svg for others:
 *     node --import tsx benches/http/run.ts --mix by-id --rounds 3 --duration 8    → http.by-id.md
 *     node --import tsx benches/http/run.ts --mix github --rounds 3 --duration 8   → http.github.md
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWrk } from '../../scripts/ensure-wrk.mjs';
import { checkConformance } from './conformance.js';
import { describeEnvironment, type Environment } from './environment.js';
import { checkGithubConformance } from './github.js';
import { MIX_DESCRIPTIONS, MIXES, type MixName, workloadsOf } from './mix.js';
import { checkOrdersConformance } from './orders-check.js';
import { renderPostReport } from './post-report.js';
import { renderReport, type ServerSummary } from './report.js';
import { checkValidatedOrders } from './validate-check.js';
import { renderValidateReport } from './validate-report.js';
import { type RunResult, runWrk, writeMixScript } from './wrk.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

interface Contender {
  name: string;
  label: string;
  file: string;
  /** npm package whose version is reported (null: Node itself). */
  pkg: string | null;
  /** Extra environment for the server process. */
  env?: Record<string, string>;
  /** Its server for the `github` mix; absent: not in that mix. */
  github?: string;
  /** Its server answers `POST /orders/:shop` (the `post` mix); absent: not in that mix. */
  post?: boolean;
  /** In the `validate` mix only: whether it checks the order against its contract (the conformance differs). */
  validating?: boolean;
}

/**
 * The `validate` mix: each framework with the order's contract and without it, so that each pair measures
 * what its validation costs; `orders-*.ts` serve `POST /orders/:shop` alone.
 */
const VALIDATE_CONTENDERS: Contender[] = [
  {
    name: 'arbor-doc',
    label: 'Arbor + doc-comment contract',
    file: 'orders-arbor.ts',
    pkg: null,
    env: { ARBOR_BENCH_CONTRACT: 'doc' },
    validating: true,
  },
  {
    name: 'arbor-zod',
    label: 'Arbor + zod schema',
    file: 'orders-arbor.ts',
    pkg: 'zod',
    env: { ARBOR_BENCH_CONTRACT: 'zod' },
    validating: true,
  },
  {
    name: 'arbor',
    label: 'Arbor, unvalidated',
    file: 'orders-arbor.ts',
    pkg: null,
    env: { ARBOR_BENCH_CONTRACT: 'none' },
    validating: false,
  },
  {
    name: 'fastify-ajv',
    label: 'Fastify + JSON Schema (ajv)',
    file: 'orders-fastify.ts',
    pkg: 'fastify',
    env: { FASTIFY_BENCH_VALIDATE: '1' },
    validating: true,
  },
  {
    name: 'fastify',
    label: 'Fastify, unvalidated',
    file: 'orders-fastify.ts',
    pkg: 'fastify',
    validating: false,
  },
  {
    name: 'hono-zod',
    label: 'Hono + @hono/zod-validator',
    file: 'orders-hono.ts',
    pkg: '@hono/zod-validator',
    env: { HONO_BENCH_VALIDATE: '1' },
    validating: true,
  },
  { name: 'hono', label: 'Hono, unvalidated', file: 'orders-hono.ts', pkg: 'hono', validating: false },
];

/** Arbor first; the bare server is the ceiling and Fastify the bar to clear. */
const CONTENDERS: Contender[] = [
  {
    name: 'arbor',
    label: 'Arbor (node:http)',
    file: 'arbor.ts',
    pkg: null,
    github: 'github-arbor.ts',
    post: true,
  },
  // The same server validating every request against its annotations: the pair measures what it costs.
  {
    name: 'arbor-validated',
    label: 'Arbor + validation',
    file: 'arbor.ts',
    pkg: null,
    env: { ARBOR_BENCH_VALIDATE: '1' },
  },
  // The same application on Arbor's own HTTP/1.1 server (`server: 'arbor'`) instead of node:http.
  {
    name: 'arbor-own',
    label: 'Arbor (own server)',
    file: 'arbor.ts',
    pkg: null,
    github: 'github-arbor.ts',
    env: { ARBOR_BENCH_SERVER: 'arbor' },
    post: true,
  },
  {
    name: 'fastify',
    label: 'Fastify 5',
    file: 'fastify.ts',
    pkg: 'fastify',
    github: 'github-fastify.ts',
    post: true,
  },
  {
    name: 'hono',
    label: 'Hono (node-server)',
    file: 'hono.ts',
    pkg: 'hono',
    github: 'github-hono.ts',
    post: true,
  },
  { name: 'express', label: 'Express 5', file: 'express.ts', pkg: 'express', github: 'github-express.ts' },
  { name: 'bare', label: 'bare node:http', file: 'bare.ts', pkg: null, post: true },
];

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    pipelining: { type: 'string', default: '1' },
    mix: { type: 'string', default: 'mixed' },
    only: { type: 'string' },
    node: { type: 'string' },
    out: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    'arbor-engine': { type: 'string', default: 'wasm' },
    'arbor-from': { type: 'string', default: 'auto' },
  },
});

const positive = (name: string, text: string | undefined, allowZero = false): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${text}`);
  }
  return value;
};
/** The servers' Node: a supported line by its major (scripts/node-binaries.mjs installs 22 and 26 once per
 * machine), a path, or this process's. */
async function serversNode(choice: string | undefined): Promise<string> {
  if (choice === undefined) return process.execPath;
  if (!/^\d+$/.test(choice)) return choice;
  const binaries = '../../scripts/node-binaries.mjs';
  const { nodeBinary } = (await import(binaries)) as { nodeBinary(line: string): { binary: string } };
  return nodeBinary(choice).binary;
}
const node = await serversNode(args.node);
const nodeMajor = spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim().slice(1).split('.')[0];
const outDir =
  args.out ?? join(root, 'benches', 'results', ...(nodeMajor === '24' ? [] : [`node${nodeMajor}`]));

const settings = {
  rounds: args.smoke ? 1 : positive('rounds', args.rounds),
  duration: args.smoke ? 2 : positive('duration', args.duration),
  warmup: args.smoke ? 1 : positive('warmup', args.warmup, true),
  connections: positive('connections', args.connections),
  pipelining: positive('pipelining', args.pipelining),
  mix: args.mix as MixName,
  node,
  arborEngine: args['arbor-engine'],
};
if (settings.arborEngine !== 'wasm' && settings.arborEngine !== 'reference') {
  throw new Error('--arbor-engine must be wasm or reference');
}

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
 * Where the Arbor server loads the framework from: tsc's output in dist/ (as users run it) when it is at
 * least as new as every source file — `npm run bench:http` builds first, so it is — else the sources
 * through tsx.
 */
function arborFrom(choice: string | undefined): 'dist' | 'src' {
  if (choice === 'dist' || choice === 'src') return choice;
  if (choice !== 'auto') throw new Error('--arbor-from must be auto, dist or src');
  const entry = join(root, 'dist', 'ts', 'src', 'bundle', 'index.js');
  if (!existsSync(entry)) return 'src';
  return statSync(entry).mtimeMs >= newestMtime(join(root, 'ts', 'src')) - 1000 ? 'dist' : 'src';
}
const arborSource = arborFrom(args['arbor-from']);
if (!MIXES.includes(settings.mix)) throw new Error(`--mix must be one of ${MIXES.join(', ')}`);
if (settings.arborEngine === 'reference') {
  const arbor = CONTENDERS.find((c) => c.name === 'arbor');
  if (arbor) arbor.label = 'Arbor (TS reference engine)';
}
const only = args.only?.split(',').map((s) => s.trim());
const github = settings.mix === 'github';
const posting = settings.mix === 'post';
const validating = settings.mix === 'validate';
const contenders = (validating ? VALIDATE_CONTENDERS : CONTENDERS).filter(
  (c) =>
    (!only || only.includes(c.name)) && (!github || c.github !== undefined) && (!posting || c.post === true),
);
if (contenders.length === 0)
  throw new Error(`--only matched no server; known: ${CONTENDERS.map((c) => c.name)}`);

const log = (message: string) => console.log(`[bench:http] ${message}`);

interface Running {
  contender: Contender;
  child: ChildProcess;
  url: string;
  exited: boolean;
}

function startChild(file: string, node: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(node, ['--import', 'tsx', file], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ARBOR_BENCH_ENGINE: settings.arborEngine,
      ARBOR_BENCH_FROM: arborSource,
      ...env,
    },
  });
}

function waitForMessage<T>(child: ChildProcess, type: string, timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`${what}: no '${type}' message after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message: { type?: string }) => {
      if (message?.type === type) done(null, message as T);
      else if (message?.type === 'error')
        done(new Error(`${what}: ${(message as { message?: string }).message}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      done(new Error(`${what} exited (${code ?? signal}) before '${type}'`));
    function done(error: Error | null, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function startServer(contender: Contender): Promise<Running> {
  const file = github ? (contender.github as string) : contender.file;
  const child = startChild(join(here, 'servers', file), settings.node, contender.env);
  const { port } = await waitForMessage<{ port: number }>(child, 'listening', 60_000, contender.label);
  const running: Running = { contender, child, url: `http://127.0.0.1:${port}`, exited: false };
  child.once('exit', () => {
    running.exited = true;
  });
  return running;
}

async function main(): Promise<void> {
  const wrkVersion = ensureWrk();
  const workloads = workloadsOf(settings.mix).map((w) => ({
    name: w.name,
    script: writeMixScript(w.requests, settings.pipelining),
  }));
  const environment: Environment = describeEnvironment(
    root,
    settings.node,
    contenders,
    `wrk ${wrkVersion}, one thread`,
  );
  log(
    `${environment.cpu} × ${environment.cores}, ${environment.serverNode}, load average ${environment.loadAverage}`,
  );
  if (args.smoke) log('smoke run: checks the machinery only; the figures are not a benchmark');
  log(
    `Arbor loaded from ${arborSource === 'dist' ? 'dist/ (tsc output)' : 'ts/src through tsx (dist/ missing or stale)'}`,
  );

  const check = (url: string, contender: Contender) =>
    validating
      ? checkValidatedOrders(url, contender.validating === true)
      : github
        ? checkGithubConformance(url)
        : posting
          ? checkOrdersConformance(url)
          : checkConformance(url);
  const servers: Running[] = [];
  const failures = new Map<string, string[]>();
  try {
    for (const contender of contenders) {
      const server = await startServer(contender);
      servers.push(server);
      const problems = await check(server.url, contender);
      failures.set(contender.name, problems);
      log(
        `${contender.label}: ${server.url} ${problems.length === 0 ? 'answers correctly' : 'FAILS CHECKS'}`,
      );
      for (const problem of problems) log(`  ${problem}`);
    }

    // Runs by workload, then by server.
    const results = new Map(
      workloads.map((w) => [
        w.name,
        new Map<string, RunResult[]>(servers.map((s) => [s.contender.name, []])),
      ]),
    );
    for (let round = 0; round < settings.rounds; round++) {
      // Rotate the starting server each round: no server always runs first (or right after another).
      const order = servers.map((_, i) => servers[(i + round) % servers.length] as Running);
      for (const workload of workloads) {
        for (const server of order) {
          if (server.exited) {
            log(`round ${round + 1}: ${server.contender.label} has exited; skipped`);
            continue;
          }
          const load = { connections: settings.connections, pipelining: settings.pipelining };
          if (settings.warmup > 0) await runWrk(server.url, workload.script, load, settings.warmup);
          const result = await runWrk(server.url, workload.script, load, settings.duration);
          results.get(workload.name)?.get(server.contender.name)?.push(result);
          const bad = result.errors + result.timeouts + result.non2xx;
          log(
            `round ${round + 1}/${settings.rounds} ${workloads.length > 1 ? `${workload.name.padEnd(7)} ` : ''}` +
              `${server.contender.label.padEnd(20)} ` +
              `${Math.round(result.rps).toString().padStart(7)} req/s  p99 ${result.latencyP99} ms` +
              (bad > 0
                ? `  (${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx)`
                : ''),
          );
        }
      }
    }

    const summariesOf = (workload: string): ServerSummary[] =>
      servers.map((server) => ({
        name: server.contender.name,
        label: server.contender.label,
        runs: results.get(workload)?.get(server.contender.name) ?? [],
        failures: failures.get(server.contender.name) ?? [],
        crashed: server.exited,
      }));
    const reportSettings = {
      ...settings,
      arborSource,
      mixDescription: MIX_DESCRIPTIONS[settings.mix],
      smoke: args.smoke,
    };
    const { markdown, svg } = validating
      ? renderValidateReport({
          workloads: workloads.map((w) => ({ name: w.name, summaries: summariesOf(w.name) })),
          environment,
          settings: reportSettings,
        })
      : posting
        ? renderPostReport({
            workloads: workloads.map((w) => ({ name: w.name, summaries: summariesOf(w.name) })),
            environment,
            settings: reportSettings,
          })
        : renderReport({
            summaries: summariesOf((workloads[0] as { name: string }).name),
            environment,
            settings: reportSettings,
          });
    mkdirSync(outDir, { recursive: true });
    const stem = settings.mix === 'mixed' ? 'http' : `http.${settings.mix}`;
    writeFileSync(join(outDir, `${stem}.md`), markdown);
    writeFileSync(join(outDir, `${stem}.svg`), svg);
    log(`wrote ${join(outDir, `${stem}.md`)} and ${stem}.svg`);
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(`[bench:http] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

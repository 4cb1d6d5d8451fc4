/**
 * Load, soak and graceful shutdown of the reference server (`ts/examples/server.ts`, started with
 * `run()` in its own process by `server.ts` beside this file).
 *
 * 1. Soak: for `--duration` seconds (default 60), `--concurrency` workers send a weighted mix of good and
 *    bad requests over thousands of distinct paths (`scenario.ts`); every answer is checked against the
 *    statuses it may have. RSS and heap are sampled every second; the heap is also measured after a forced
 *    GC at the end of the warm-up and at the end, to tell a plateau from a leak.
 * 2. Graceful shutdown under load: slow requests are put in flight, the fast workers keep going, and the
 *    server's `close()` is called. Every request the server had received must be answered; requests that
 *    never reached it (refused connections, the keep-alive close race) are counted apart.
 *
 *   node --import tsx benches/load/soak.ts [--duration 60] [--concurrency 32] [--warmup 10]
 *        [--slow 16] [--slow-ms 1500] [--gc-every 15] [--no-shutdown] [--seed 1] [--out benches/results]
 *        [--node PATH] [--server arbor|node]
 *   --server arbor: the same application on Arbor's own HTTP/1.1 server (`server: 'arbor'`) instead of
 *   node:http (the default).
 *
 * Writes `soak.md` and `soak.svg` to `--out`; exits with 1 when any check fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeEnvironment } from '../http/environment.js';
import { type Outcome, send, type Target } from './client.js';
import type { MemorySample } from './memory-chart.js';
import { WorkerScenario } from './scenario.js';
import {
  analyseMemory,
  type Checkpoint,
  renderSoakReport,
  type ShutdownResult,
  type SoakResult,
} from './soak-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const log = (message: string) => console.log(`[soak] ${message}`);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '32' },
    warmup: { type: 'string' },
    slow: { type: 'string', default: '16' },
    'slow-ms': { type: 'string', default: '1500' },
    'gc-every': { type: 'string', default: '15' },
    'no-shutdown': { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: join(root, 'benches', 'results') },
    node: { type: 'string', default: process.execPath },
    server: { type: 'string', default: 'node' },
  },
});
const number = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`--${name} must be a positive number, got ${text}`);
  return value;
};
const settings = {
  duration: number('duration', args.duration),
  concurrency: Math.floor(number('concurrency', args.concurrency)),
  warmup:
    args.warmup === undefined
      ? Math.min(10, number('duration', args.duration) / 4)
      : number('warmup', args.warmup),
  slow: Math.floor(number('slow', args.slow)),
  slowMs: number('slow-ms', args['slow-ms']),
  gcEvery: number('gc-every', args['gc-every']),
  shutdown: !args['no-shutdown'],
  seed: Math.floor(number('seed', args.seed)),
  server: args.server === 'node' ? ('node' as const) : ('arbor' as const),
};
if (args.server !== 'arbor' && args.server !== 'node')
  throw new Error(`--server must be arbor or node, got ${args.server}`);

/** Request/response over the IPC channel, one at a time (replies are matched by type). */
class ServerHandle {
  readonly child: ChildProcess;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(child: ChildProcess) {
    this.child = child;
  }

  waitFor<T>(type: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`server: no '${type}' after ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onMessage = (message: { type?: string; message?: string }) => {
        if (message?.type === type) finish(null, message as T);
        else if (message?.type === 'error') finish(new Error(`server: ${message.message}`));
      };
      const onExit = (code: number | null) =>
        finish(new Error(`server exited (${code}) while waiting for '${type}'`));
      const finish = (error: Error | null, value?: T) => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        if (error) reject(error);
        else resolve(value as T);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  ask<T>(type: string, reply: string, timeoutMs = 10_000): Promise<T> {
    const next = this.#queue.then(() => {
      const answer = this.waitFor<T>(reply, timeoutMs);
      this.child.send({ type });
      return answer;
    });
    this.#queue = next.catch(() => {});
    return next;
  }
}

interface MemoryReply {
  usage: NodeJS.MemoryUsage;
}

interface Tally {
  byKind: Map<string, { sent: number; ok: number; wrong: Map<number, number> }>;
  errors: Map<string, number>;
  latencies: number[];
  answered: number;
}

function newTally(): Tally {
  return { byKind: new Map(), errors: new Map(), latencies: [], answered: 0 };
}

function record(tally: Tally, kind: string, outcome: Outcome): void {
  let entry = tally.byKind.get(kind);
  if (entry === undefined) {
    entry = { sent: 0, ok: 0, wrong: new Map() };
    tally.byKind.set(kind, entry);
  }
  entry.sent++;
  if (outcome.status > 0) tally.answered++;
  if (outcome.ok) {
    entry.ok++;
    tally.latencies.push(outcome.ms);
  } else if (!('code' in outcome)) {
    const key = outcome.reason === 'truncated-body' ? -outcome.status : outcome.status;
    entry.wrong.set(key, (entry.wrong.get(key) ?? 0) + 1);
  } else {
    const key = `${outcome.reason} (${outcome.code}) on ${kind}`;
    tally.errors.set(key, (tally.errors.get(key) ?? 0) + 1);
  }
}

async function soakPhase(server: ServerHandle, target: Target) {
  const tally = newTally();
  const samples: MemorySample[] = [];
  let stop = false;
  let nextId = 1;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;

  const worker = async (index: number) => {
    const scenario = new WorkerScenario(settings.seed * 7919 + index);
    while (!stop) {
      const plan = scenario.next();
      record(tally, plan.kind, await send(target, plan, nextId++));
    }
  };

  let lastAnswered = 0;
  const sampler = setInterval(() => {
    const t = elapsed();
    server.ask<MemoryReply>('memory', 'memory').then(
      ({ usage }) => {
        samples.push({
          t: Math.round(t * 10) / 10,
          rss: usage.rss,
          heapUsed: usage.heapUsed,
          external: usage.external,
          rps: tally.answered - lastAnswered,
        });
        lastAnswered = tally.answered;
      },
      () => {},
    );
  }, 1000);

  // Memory retained after a full GC, at the end of the warm-up and then every `--gc-every` seconds:
  // the JS heap and `external` (where the WebAssembly memory is counted) must stay flat.
  const checkpoints: Checkpoint[] = [];
  const checkpoint = async () => {
    const t = elapsed();
    const { usage } = await server.ask<MemoryReply>('gc', 'memory');
    checkpoints.push({ t, rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external });
    log(
      `${t.toFixed(0)} s, after GC: heap ${mib(usage.heapUsed)}, external ${mib(usage.external)}, RSS ${mib(usage.rss)}`,
    );
  };
  let checkpointTimer: NodeJS.Timeout | undefined;
  const warmupTimer = setTimeout(() => {
    checkpoint().catch(() => {});
    checkpointTimer = setInterval(() => checkpoint().catch(() => {}), settings.gcEvery * 1000);
  }, settings.warmup * 1000);
  const progress = setInterval(() => {
    const wrong = [...tally.byKind.values()].reduce((a, e) => a + (e.sent - e.ok), 0);
    log(`${elapsed().toFixed(0)} s: ${tally.answered} answered, ${wrong} not as expected`);
  }, 10_000);

  const workers = Array.from({ length: settings.concurrency }, (_, i) => worker(i));
  await new Promise((resolve) => setTimeout(resolve, settings.duration * 1000));
  stop = true;
  await Promise.all(workers);
  const seconds = elapsed();
  clearInterval(sampler);
  clearInterval(progress);
  clearTimeout(warmupTimer);
  clearInterval(checkpointTimer);
  await checkpoint();
  const counters = await server.ask<{ loggedErrors: number; aborted: number | null }>('counters', 'counters');
  const result: SoakResult = {
    seconds,
    byKind: tally.byKind,
    errors: tally.errors,
    latencies: tally.latencies,
    answered: tally.answered,
    samples,
    memory: analyseMemory(samples, checkpoints, settings.warmup, seconds),
    loggedErrors: counters.loggedErrors,
    abortedResponses: counters.aborted,
  };
  return { result, nextId };
}

async function shutdownPhase(server: ServerHandle, port: number, firstId: number): Promise<ShutdownResult> {
  await server.ask('track', 'tracking');
  const slowTarget: Target = {
    host: '127.0.0.1',
    port,
    agent: new Agent({ keepAlive: true, maxSockets: settings.slow }),
  };
  const fastTarget: Target = {
    host: '127.0.0.1',
    port,
    agent: new Agent({ keepAlive: true, maxSockets: settings.concurrency }),
  };
  let nextId = firstId;
  const outcomes = new Map<number, { kind: string; outcome: Outcome }>();
  const slowIds: number[] = [];
  const slowPlan = {
    kind: 'slow',
    method: 'GET',
    path: `/__load/slow?ms=${settings.slowMs}`,
    expect: [200],
  } as const;
  const slow = Array.from({ length: settings.slow }, () => {
    const id = nextId++;
    slowIds.push(id);
    return send(slowTarget, { ...slowPlan, expect: [...slowPlan.expect] }, id, 60_000).then((outcome) => {
      outcomes.set(id, { kind: 'slow', outcome });
    });
  });
  let stopFast = false;
  const fast = Array.from({ length: settings.concurrency }, async (_, index) => {
    const scenario = new WorkerScenario(settings.seed * 104729 + index);
    while (!stopFast) {
      const plan = scenario.next();
      const id = nextId++;
      const outcome = await send(fastTarget, plan, id, 30_000);
      outcomes.set(id, { kind: plan.kind, outcome });
      if (!outcome.ok && outcome.reason === 'refused') return; // the listener is gone: nothing more to try
    }
  });

  // Close only once every slow request is certainly inside a handler.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const counters = await server.ask<{ slowInFlight: number }>('counters', 'counters');
    if (counters.slowInFlight >= settings.slow) break;
    if (Date.now() > deadline)
      throw new Error(`only ${counters.slowInFlight} of ${settings.slow} slow requests arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    server.child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  log(`${settings.slow} slow requests in flight; calling close()`);
  const closeStarted = performance.now();
  server.child.send({ type: 'close' });
  const closed = await server.waitFor<{
    ms: number;
    inFlightAtClose: number;
    receivedIds: number[];
    answeredIds: number[];
  }>('closed', settings.slowMs + 30_000);
  const closeMs = performance.now() - closeStarted;
  await Promise.all(slow);
  stopFast = true;
  await Promise.all(fast);
  const exitTimer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  const exit = await exited;
  clearTimeout(exitTimer);

  const received = new Set(closed.receivedIds);
  const answeredByServer = new Set(closed.answeredIds);
  const result: ShutdownResult = {
    slowSent: settings.slow,
    slowOk: slowIds.filter((id) => outcomes.get(id)?.outcome.ok).length,
    closeMs,
    serverCloseMs: closed.ms,
    inFlightAtClose: closed.inFlightAtClose,
    sent: outcomes.size,
    ok: 0,
    wrongAnswers: new Map(),
    lost: [],
    neverReached: new Map(),
    receivedButUnanswered: closed.receivedIds.filter((id) => !answeredByServer.has(id)).length,
    exit,
    exitedByItself: exit.signal !== 'SIGKILL',
  };
  for (const [id, { kind, outcome }] of outcomes) {
    if (outcome.ok) {
      result.ok++;
    } else if (!('code' in outcome)) {
      const key = `${kind}: ${outcome.status} (${outcome.reason})`;
      result.wrongAnswers.set(key, (result.wrongAnswers.get(key) ?? 0) + 1);
    } else if (received.has(id)) {
      result.lost.push(
        `${kind} #${id}: ${outcome.reason} (${outcome.code})${answeredByServer.has(id) ? ', answered by the server' : ''}`,
      );
    } else {
      const key = `${outcome.reason} (${outcome.code})`;
      result.neverReached.set(key, (result.neverReached.get(key) ?? 0) + 1);
    }
  }
  slowTarget.agent.destroy();
  fastTarget.agent.destroy();
  return result;
}

async function main(): Promise<void> {
  if (settings.duration < 60)
    log(`warning: --duration ${settings.duration} s is below the 60 s of a real soak run`);
  const environment = describeEnvironment(
    root,
    args.node,
    [],
    `node:http clients in the runner, Node ${process.version}`,
  );
  const child = spawn(args.node, ['--expose-gc', '--import', 'tsx', join(here, 'server.ts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production', ARBOR_LOAD_SERVER: args.server },
  });
  const server = new ServerHandle(child);
  try {
    const { port } = await server.waitFor<{ port: number }>('listening', 60_000);
    log(
      `reference server on http://127.0.0.1:${port}; soak for ${settings.duration} s with ${settings.concurrency} workers`,
    );
    const target: Target = {
      host: '127.0.0.1',
      port,
      agent: new Agent({ keepAlive: true, maxSockets: settings.concurrency }),
    };
    const { result: soak, nextId } = await soakPhase(server, target);
    target.agent.destroy();
    log(
      `soak done: ${soak.answered} answered in ${soak.seconds.toFixed(1)} s; memory: ${soak.memory.verdict}`,
    );
    let shutdown: ShutdownResult | null = null;
    if (settings.shutdown) {
      shutdown = await shutdownPhase(server, port, nextId);
      log(
        `shutdown: close() took ${shutdown.closeMs.toFixed(0)} ms, ${shutdown.slowOk}/${shutdown.slowSent} slow requests answered, ` +
          `${shutdown.lost.length} lost, server exit ${shutdown.exit.code ?? shutdown.exit.signal}`,
      );
    }
    const { markdown, svg, passed, inconclusive } = renderSoakReport({
      settings,
      environment,
      soak,
      shutdown,
    });
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, 'soak.md'), markdown);
    writeFileSync(join(args.out, 'soak.svg'), svg);
    log(
      `wrote ${join(args.out, 'soak.md')} and soak.svg: ` +
        (passed
          ? inconclusive
            ? 'no check failed, some inconclusive'
            : 'all checks passed'
          : 'SOME CHECKS FAILED'),
    );
    if (!passed) process.exitCode = 1;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

main().catch((error: unknown) => {
  console.error(`[soak] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

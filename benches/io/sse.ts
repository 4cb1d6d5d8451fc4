/**
 * Server-Sent Events: many long-lived, slow streams. Arbor's `res.sse(source, { heartbeatMs })` and its
 * push form against Fastify's `@fastify/sse` (the anchor) and Hono's `streamSSE` on `@hono/node-server`,
 * each client's source the same async generator (an event every 100 ms). The clients (sse-client.ts) run
 * in a process of their own; each server runs in a fresh process per round. Reports server CPU time per
 * client-second and RSS growth per client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { fetchAnswer } from './fetch.js';
import {
  type Contender,
  cpuMicros,
  log,
  memory,
  orderOf,
  type Running,
  root,
  sleep,
  startServer,
  stopServer,
  Unavailable,
} from './harness.js';
import {
  type Checked,
  Footnotes,
  MiB,
  pairedRatio,
  ratio,
  renderChecks,
  renderHeader,
  spread,
} from './report.js';
import { CHECK_EVENTS, sseEvent } from './servers/payloads.js';
import type { MemoryAnswer } from './servers/sse-memory.js';
import type { ClientOrder, ClientReport } from './sse-client.js';
import { EventStreamReader } from './sse-parse.js';

export interface SseSettings {
  rounds: number;
  clients: number;
  /** Events per stream. */
  events: number;
  intervalMs: number;
  /** Arbor's `heartbeatMs` and `@fastify/sse`'s `heartbeatInterval` (Hono's `streamSSE` has none). */
  heartbeatMs: number;
}

/** The peer every ratio is also given against, besides the anchor. */
const PEER = 'hono';

/**
 * The case's rows: Arbor's iterable form on both servers, its push form, then `@fastify/sse` (the
 * anchor) and Hono's `streamSSE`. The anchor and the peer always run (`--only` picks among Arbor's).
 */
function sseRows(context: CaseContext): Contender[] {
  const arbor = rowsOf('sse', context).filter((c) => c.name.startsWith('arbor'));
  const row = (name: string, label: string, file: string, pkg: string | null, anchor = false): Contender => ({
    name,
    label,
    file,
    anchor,
    pkg,
    env: name === 'arbor-push' ? { IO_SSE_FORM: 'push' } : {},
  });
  const push = row('arbor-push', 'Arbor push form (node:http)', 'arbor.ts', null);
  return [
    ...arbor,
    ...(context.only === null || context.only.has(push.name) ? [push] : []),
    row('fastify', 'Fastify + @fastify/sse', 'fastify.ts', '@fastify/sse', true),
    row(PEER, 'Hono streamSSE', 'hono.ts', 'hono'),
  ];
}

/** Connections opened at once while the clients connect, and the pause between batches. */
const BATCH = 100;
const BATCH_GAP_MS = 100;
/** After the last client's head, the wait before the server's memory is probed (streams in full flow). */
const SETTLE_MS = 2000;

/**
 * The server's memory after a full collection (servers/sse-memory.ts), and the CPU time that collection
 * took, which the round's CPU figure leaves out.
 */
function probeMemory(server: Running): Promise<MemoryAnswer & { cpu: number }> {
  const before = cpuMicros(server.pid);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${server.contender.label}: no memory answer`)), 30_000);
    const listener = (message: { type?: string }) => {
      if (message.type !== 'memory') return;
      clearTimeout(timer);
      server.child.off('message', listener);
      resolve({ ...(message as MemoryAnswer), cpu: cpuMicros(server.pid) - before });
    };
    server.child.on('message', listener);
    server.child.send({ type: 'memory' });
  });
}

async function check(server: Running): Promise<Checked> {
  const answer = await fetchAnswer(`${server.url}/sse/check`);
  const problems: string[] = [];
  const type = String(answer.headers['content-type'] ?? 'no type');
  if (answer.status !== 200) problems.push(`status ${answer.status}`);
  if (!type.startsWith('text/event-stream')) problems.push(`Content-Type ${type}`);
  const events = new EventStreamReader().feed(answer.body.toString('utf8'));
  for (let n = 0; n < CHECK_EVENTS; n++) {
    const want = sseEvent(n);
    const got = events[n];
    if (got?.event !== want.event || got.id !== want.id || got.data !== JSON.stringify(want.data))
      problems.push(`event ${n}: ${got === undefined ? 'missing' : JSON.stringify(got)}`);
  }
  if (events.length > CHECK_EVENTS) problems.push(`${events.length - CHECK_EVENTS} events too many`);
  const cache = answer.headers['cache-control'];
  const seen = `${answer.status}, ${type}${cache === undefined ? '' : `, Cache-Control: ${cache}`}, ${events.length} events`;
  return { contender: server.contender, unavailable: null, problems, seen };
}

function startClients(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'sse-client.ts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the SSE clients exited (${code}) before starting`)));
  });
}

interface Round {
  /** Server CPU µs per client-second (one client connected for one second, 1,000 / interval events). */
  cpuPerClientSecond: number;
  /** Peak sampled RSS minus RSS before the clients came, per client, in KiB. */
  rssPerClient: number;
  /** Live heap after a full collection, all streams open, minus the same before the clients came, per client, in KiB. */
  heapPerClient: number;
  idleRss: number;
  peakRss: number;
  events: number;
  comments: number;
  short: number;
}

async function measure(server: Running, settings: SseSettings, problems: string[]): Promise<Round> {
  const clients = await startClients();
  try {
    await sleep(500);
    const idle = await probeMemory(server);
    const idleRss = memory(server.pid).rss;
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, memory(server.pid).rss);
    }, 250);
    const cpuBefore = cpuMicros(server.pid);
    const order: ClientOrder = {
      url: `${server.url}/sse`,
      clients: settings.clients,
      events: settings.events,
      batch: BATCH,
      batchGapMs: BATCH_GAP_MS,
      deadlineMs: settings.events * settings.intervalMs * 2 + 30_000,
    };
    let busy: Promise<MemoryAnswer & { cpu: number }> | null = null;
    const report = await new Promise<ClientReport>((resolve, reject) => {
      clients.on('message', (message: { type?: string }) => {
        if (message.type === 'connected') busy = sleep(SETTLE_MS).then(() => probeMemory(server));
        if (message.type === 'done') resolve(message as ClientReport);
      });
      clients.once('exit', (code) => reject(new Error(`the SSE clients exited (${code}) before reporting`)));
      clients.send(order);
    });
    const probed = await (busy as Promise<MemoryAnswer & { cpu: number }> | null);
    if (probed === null) throw new Error(`${server.contender.label}: the clients never all connected`);
    const cpu = cpuMicros(server.pid) - cpuBefore - probed.cpu;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, memory(server.pid).rss);
    problems.push(...report.problems);
    return {
      cpuPerClientSecond: cpu / report.clientSeconds,
      rssPerClient: (peakRss - idleRss) / settings.clients / 1024,
      heapPerClient: (probed.heapUsed - idle.heapUsed) / settings.clients / 1024,
      idleRss,
      peakRss,
      events: report.events,
      comments: report.comments,
      short: report.short,
    };
  } finally {
    clients.kill('SIGTERM');
  }
}

/** The target: each Arbor row at most @fastify/sse's CPU per client-second and RSS per client (medians). */
function renderTarget(
  rows: Contender[],
  labels: Map<string, string>,
  figures: (name: string) => { cpu: number[]; rss: number[]; heap: number[] },
  anchor: { cpu: number[]; rss: number[]; heap: number[] },
): string[] {
  const lines = ['## Target: at most @fastify/sse’s CPU per client-second and RSS per client', ''];
  for (const c of rows.filter((r) => r.name.startsWith('arbor'))) {
    const { cpu, rss, heap } = figures(c.name);
    if (cpu.length === 0) continue;
    const cpuRatio = median(cpu) / median(anchor.cpu);
    const rssRatio = median(rss) / median(anchor.rss);
    const verdict = cpuRatio <= 1 && rssRatio <= 1 ? 'met' : 'missed';
    lines.push(
      `- ${labels.get(c.name) ?? c.label}: CPU ${cpuRatio.toFixed(2)}×, RSS ${rssRatio.toFixed(2)}× ` +
        `(live heap ${(median(heap) / median(anchor.heap)).toFixed(2)}×): **${verdict}**.`,
    );
  }
  return lines;
}

export async function runSse(context: CaseContext, settings: SseSettings): Promise<string> {
  const rows = sseRows(context);
  const checked = new Map<string, Checked>();
  const rounds = new Map<string, Round[]>(rows.map((c) => [c.name, []]));
  const env = {
    IO_SSE_EVENTS: String(settings.events),
    IO_SSE_INTERVAL_MS: String(settings.intervalMs),
    IO_SSE_HEARTBEAT_MS: String(settings.heartbeatMs),
  };
  const expected = settings.clients * settings.events;
  for (let round = 0; round < settings.rounds; round++) {
    for (const contender of orderOf(rows, round)) {
      if (checked.get(contender.name)?.unavailable) continue;
      let server: Running;
      try {
        server = await startServer(contender, 'sse', context.launch, env);
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.set(contender.name, { contender, unavailable: error.message, problems: [], seen: '' });
        continue;
      }
      try {
        if (!checked.has(contender.name)) {
          checked.set(contender.name, await check(server));
          log(`sse: ${contender.label}: ${checked.get(contender.name)?.problems.join('; ') || 'equivalent'}`);
        }
        const problems: string[] = [];
        const result = await measure(server, settings, problems);
        if (result.events !== expected || problems.length > 0)
          checked
            .get(contender.name)
            ?.problems.push(
              `round ${round + 1}: ${result.events} of ${expected} events, ${result.short} short stream(s)${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`,
            );
        rounds.get(contender.name)?.push(result);
        log(
          `sse round ${round + 1}/${settings.rounds} ${contender.label}: ${result.events}/${expected} events, ` +
            `${result.cpuPerClientSecond.toFixed(0)} µs CPU per client-second, ` +
            `${result.rssPerClient.toFixed(1)} KiB RSS per client (${(result.idleRss / MiB).toFixed(0)} → ${(result.peakRss / MiB).toFixed(0)} MiB), ` +
            `${result.heapPerClient.toFixed(1)} KiB live heap per client`,
        );
      } finally {
        await stopServer(server);
      }
    }
  }

  const notes = new Footnotes();
  const seconds = (settings.events * settings.intervalMs) / 1000;
  const lines = renderHeader({
    title: 'Server-Sent Events: Arbor `res.sse` against `@fastify/sse` and Hono `streamSSE`',
    kase: 'sse',
    quick: context.quick,
    description: [
      `Each client opens one stream and reads ${settings.events} events, one every ${settings.intervalMs} ms (about ${seconds} s);`,
      'every client’s source is the same async generator (`sseSource` in `benches/io/servers/payloads.ts`),',
      'handed whole to `res.sse(source)` and to `reply.sse.send(source)` (@fastify/sse), looped over by the',
      "push form (`await events.send(event)`) and by Hono's `streamSSE` (`await stream.writeSSE(…)`); its",
      'objects JSON-encoded by each framework, by hand for Hono. The clients are plain node:http requests in a',
      `process of their own (\`benches/io/sse-client.ts\`), opened ${BATCH} at a time every ${BATCH_GAP_MS} ms, each checking`,
      'every event (type, id, data) and counting them. Each server runs in a fresh process per round (rounds',
      "rotate the order). The server's CPU time (/proc) runs from just before the first client connects",
      'to the end of the last stream, and is divided by the client-seconds served (each client from its',
      'request to its stream’s end). RSS is sampled every 250 ms: its peak minus the RSS before the clients',
      'came, divided by the clients. The live heap is read after a full collection (each server answers the',
      "same probe, `benches/io/servers/sse-memory.ts`) before the clients come and 2 s after the last one's",
      'head, all streams flowing; the CPU those two collections take is left out of the CPU figure.',
    ],
    settings: [
      `${settings.clients.toLocaleString('en-US')} clients × ${settings.events} events every ${settings.intervalMs} ms; ` +
        `${settings.rounds} round(s). Arbor's \`heartbeatMs\` and @fastify/sse's \`heartbeatInterval\`: ${settings.heartbeatMs} ` +
        "(Hono's `streamSSE` sends none).",
    ],
    environment: environmentOf(context, rows, 'node:http requests in a separate process'),
    arborSource: context.launch.arborSource,
  });
  const { lines: checkLines, labels } = renderChecks(
    rows.map(
      (c) => checked.get(c.name) ?? { contender: c, unavailable: 'never started', problems: [], seen: '' },
    ),
    notes,
  );
  lines.push(...checkLines);
  const anchorName = rows.find((c) => c.anchor)?.name ?? 'fastify';
  const figures = (name: string) => {
    const mine = rounds.get(name) ?? [];
    return {
      cpu: mine.map((r) => r.cpuPerClientSecond),
      rss: mine.map((r) => r.rssPerClient),
      heap: mine.map((r) => r.heapPerClient),
    };
  };
  const anchor = figures(anchorName);
  const peer = figures(PEER);
  lines.push(
    '## Results (median of rounds, range in brackets)',
    '',
    'Lower is better in every column but the first. "× @fastify/sse, per round" is the median of each',
    'round’s ratio (the servers of one round ran back to back).',
    '',
    '| Server | events received (of expected) | server CPU µs per client-second | × @fastify/sse | × @fastify/sse, per round | × Hono | RSS KiB per client | × @fastify/sse | × Hono | live heap KiB per client | × @fastify/sse | × Hono | RSS before → peak, MiB | heartbeats received |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const c of rows) {
    const label = labels.get(c.name) ?? c.label;
    const mine = rounds.get(c.name) ?? [];
    if (mine.length === 0) {
      lines.push(`| ${label} | not run | | | | | | | | | | | | |`);
      continue;
    }
    const { cpu, rss, heap } = figures(c.name);
    lines.push(
      `| ${label} | ${spread(mine.map((r) => r.events))} (${expected.toLocaleString('en-US')}) | ${spread(cpu)} | ` +
        `${ratio(median(cpu), median(anchor.cpu))} | ${pairedRatio(cpu, anchor.cpu)} | ${ratio(median(cpu), median(peer.cpu))} | ` +
        `${spread(rss, 1)} | ${ratio(median(rss), median(anchor.rss))} | ${ratio(median(rss), median(peer.rss))} | ` +
        `${spread(heap, 1)} | ${ratio(median(heap), median(anchor.heap))} | ${ratio(median(heap), median(peer.heap))} | ` +
        `${spread(mine.map((r) => r.idleRss / MiB))} → ${spread(mine.map((r) => r.peakRss / MiB))} | ` +
        `${spread(mine.map((r) => r.comments))} |`,
    );
  }
  lines.push('', ...renderTarget(rows, labels, figures, anchor));
  lines.push(
    '',
    '## Notes',
    '',
    `- A client-second is one client connected for one second: ${1000 / settings.intervalMs} events, their`,
    '  timers and writes. Opening the connections is in the figure too (it is part of serving SSE).',
    '- RSS per client includes garbage not yet collected (its peak depends on when V8 last collected):',
    '  read it as an order of magnitude. The live heap is what the streams hold: the figure the design of',
    '  a stream decides.',
    '- On node:http Arbor hands every streamed body, an event stream included, to `stream.pipeline`',
    '  (`ts/src/http/node-listener.ts`): its end-of-stream watchers, pipe and abort controller are most of',
    '  the live heap per client beyond @fastify/sse’s, which writes to the response itself. The own server',
    '  writes the stream itself (`ts/src/http/wire/stream-pump.ts`).',
    '- Arbor sends a heartbeat only after a quiet `heartbeatMs` (one timer per period for all streams), so',
    '  with an event every few hundred ms its column "heartbeats received" reads 0; @fastify/sse writes one',
    '  every `heartbeatInterval` whatever was sent (a timer per stream), about one per client here.',
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

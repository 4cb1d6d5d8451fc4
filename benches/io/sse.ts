/**
 * Server-Sent Events: many long-lived, slow streams. Arbor's `res.sse(source, { heartbeatMs })` against
 * Hono's `streamSSE` on `@hono/node-server`, each client's source the same async generator (an event
 * every 100 ms). The clients (sse-client.ts) run in a process of their own; each server runs in a fresh
 * process per round. Reports server CPU time per client-second and RSS growth per client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { fetchAnswer } from './fetch.js';
import {
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
import type { ClientOrder, ClientReport } from './sse-client.js';
import { EventStreamReader } from './sse-parse.js';

export interface SseSettings {
  rounds: number;
  clients: number;
  /** Events per stream. */
  events: number;
  intervalMs: number;
  /** Arbor's `heartbeatMs` (Hono's `streamSSE` has none). */
  heartbeatMs: number;
}

/** Connections opened at once while the clients connect, and the pause between batches. */
const BATCH = 100;
const BATCH_GAP_MS = 100;

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
    const report = await new Promise<ClientReport>((resolve, reject) => {
      clients.on('message', (message: { type?: string }) => {
        if (message.type === 'done') resolve(message as ClientReport);
      });
      clients.once('exit', (code) => reject(new Error(`the SSE clients exited (${code}) before reporting`)));
      clients.send(order);
    });
    const cpu = cpuMicros(server.pid) - cpuBefore;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, memory(server.pid).rss);
    problems.push(...report.problems);
    return {
      cpuPerClientSecond: cpu / report.clientSeconds,
      rssPerClient: (peakRss - idleRss) / settings.clients / 1024,
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

export async function runSse(context: CaseContext, settings: SseSettings): Promise<string> {
  const rows = rowsOf('sse', context);
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
            `${result.rssPerClient.toFixed(1)} KiB RSS per client (${(result.idleRss / MiB).toFixed(0)} → ${(result.peakRss / MiB).toFixed(0)} MiB)`,
        );
      } finally {
        await stopServer(server);
      }
    }
  }

  const notes = new Footnotes();
  const seconds = (settings.events * settings.intervalMs) / 1000;
  const lines = renderHeader({
    title: 'Server-Sent Events: Arbor `res.sse` against Hono `streamSSE`',
    kase: 'sse',
    quick: context.quick,
    description: [
      `Each client opens one stream and reads ${settings.events} events, one every ${settings.intervalMs} ms (about ${seconds} s);`,
      'every client’s source is the same async generator (`sseSource` in `benches/io/servers/payloads.ts`),',
      'its objects JSON-encoded by Arbor and by hand for Hono. The clients are plain node:http requests in a',
      `process of their own (\`benches/io/sse-client.ts\`), opened ${BATCH} at a time every ${BATCH_GAP_MS} ms, each checking`,
      'every event (type, id, data) and counting them. Each server runs in a fresh process per round (rounds',
      "rotate the order). The server's CPU time (/proc) runs from just before the first client connects",
      'to the end of the last stream, and is divided by the client-seconds served (each client from its',
      'request to its stream’s end). RSS is sampled every 250 ms: its peak minus the RSS before the clients',
      'came, divided by the clients.',
    ],
    settings: [
      `${settings.clients.toLocaleString('en-US')} clients × ${settings.events} events every ${settings.intervalMs} ms; ` +
        `${settings.rounds} round(s). Arbor's \`heartbeatMs\`: ${settings.heartbeatMs} (Hono's \`streamSSE\` sends none).`,
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
  const anchor = rows.find((c) => c.anchor)?.name ?? 'hono';
  const anchorRounds = rounds.get(anchor) ?? [];
  const anchorCpu = anchorRounds.map((r) => r.cpuPerClientSecond);
  const anchorRss = anchorRounds.map((r) => r.rssPerClient);
  lines.push(
    '## Results (median of rounds, range in brackets)',
    '',
    '| Server | events received (of expected) | server CPU µs per client-second | × anchor (lower is better) | × anchor, per round | RSS KiB per client | × anchor (lower is better) | RSS before → peak, MiB | heartbeats received |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const c of rows) {
    const label = labels.get(c.name) ?? c.label;
    const mine = rounds.get(c.name) ?? [];
    if (mine.length === 0) {
      lines.push(`| ${label} | not run | | | | | | | |`);
      continue;
    }
    const cpu = mine.map((r) => r.cpuPerClientSecond);
    const rss = mine.map((r) => r.rssPerClient);
    lines.push(
      `| ${label} | ${spread(mine.map((r) => r.events))} (${expected.toLocaleString('en-US')}) | ${spread(cpu)} | ` +
        `${ratio(median(cpu), median(anchorCpu))} | ${pairedRatio(cpu, anchorCpu)} | ${spread(rss, 1)} | ` +
        `${ratio(median(rss), median(anchorRss))} | ` +
        `${spread(mine.map((r) => r.idleRss / MiB))} → ${spread(mine.map((r) => r.peakRss / MiB))} | ` +
        `${spread(mine.map((r) => r.comments))} |`,
    );
  }
  lines.push(
    '',
    '## Notes',
    '',
    `- A client-second is one client connected for one second: ${1000 / settings.intervalMs} events, their`,
    '  timers and writes. Opening the connections is in the figure too (it is part of serving SSE).',
    '- RSS per client includes garbage not yet collected (no GC is forced): read it as an order of magnitude.',
    '- Arbor arms a heartbeat timer per stream; with an event every few hundred ms it never fires (it sends',
    '  only after a quiet `heartbeatMs`), so the column "heartbeats received" should read 0.',
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

/**
 * A streamed body: Arbor's `res.send(readable)` against Fastify's `reply.send(stream)`, the same Node
 * Readable behind both (64 KiB chunks of one prebuilt buffer, 100 MiB by default). A node:http client in
 * the runner's process downloads it several times in a row, as fast as it reads; each server runs in a
 * fresh process per round, so that its peak RSS (`VmHWM`) is that round's.
 */
import { createHash } from 'node:crypto';
import { Agent, get } from 'node:http';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import {
  cpuMicros,
  log,
  memory,
  orderOf,
  type Running,
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
import { chunkedStreamHash, STREAM_CHUNK } from './servers/payloads.js';

export interface StreamSettings {
  rounds: number;
  /** Bytes per download. */
  bytes: number;
  /** Sequential downloads timed per round. */
  downloads: number;
}

interface Download {
  status: number;
  bytes: number;
  ms: number;
  framing: string;
  type: string;
  hash: string | null;
}

/** One download, read as fast as the socket delivers; hashed only when asked (the check, not the timing). */
function download(url: string, agent: Agent, hash: boolean): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { agent }, (res) => {
      const digest = hash ? createHash('sha256') : null;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        digest?.update(chunk);
      });
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          ms: performance.now() - started,
          framing: res.headers['content-length'] === undefined ? 'chunked' : 'content-length',
          type: res.headers['content-type'] ?? 'no type',
          hash: digest?.digest('hex') ?? null,
        }),
      );
      res.once('error', reject);
    });
    request.once('error', reject);
  });
}

interface Round {
  mibPerSecond: number;
  /** Peak RSS of the server process over its life (start, check, downloads), bytes. */
  peakRss: number;
  /** RSS right after it started listening, bytes. */
  idleRss: number;
  /** Server CPU µs per MiB sent. */
  cpuPerMib: number;
}

export async function runStream(context: CaseContext, settings: StreamSettings): Promise<string> {
  const rows = rowsOf('stream', context);
  const expectedHash = chunkedStreamHash(settings.bytes);
  const checked = new Map<string, Checked>();
  const rounds = new Map<string, Round[]>(rows.map((c) => [c.name, []]));
  const env = { IO_STREAM_BYTES: String(settings.bytes) };
  for (let round = 0; round < settings.rounds; round++) {
    for (const contender of orderOf(rows, round)) {
      if (checked.get(contender.name)?.unavailable) continue;
      let server: Running;
      try {
        server = await startServer(contender, 'stream', context.launch, env);
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.set(contender.name, { contender, unavailable: error.message, problems: [], seen: '' });
        continue;
      }
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const url = `${server.url}/stream`;
        const idleRss = memory(server.pid).rss;
        if (!checked.has(contender.name)) {
          const first = await download(url, agent, true);
          const problems: string[] = [];
          if (first.status !== 200) problems.push(`status ${first.status}`);
          if (first.bytes !== settings.bytes) problems.push(`${first.bytes} bytes, not ${settings.bytes}`);
          else if (first.hash !== expectedHash) problems.push('the bytes differ from the generator’s');
          const seen = `${first.status}, ${first.bytes.toLocaleString('en-US')} bytes, ${first.framing}, ${first.type}`;
          checked.set(contender.name, { contender, unavailable: null, problems, seen });
          log(`stream: ${contender.label}: ${problems.join('; ') || 'equivalent'}`);
        }
        const cpuBefore = cpuMicros(server.pid);
        let bytes = 0;
        let ms = 0;
        for (let i = 0; i < settings.downloads; i++) {
          const d = await download(url, agent, false);
          if (d.status !== 200 || d.bytes !== settings.bytes)
            checked
              .get(contender.name)
              ?.problems.push(`a timed download: status ${d.status}, ${d.bytes} bytes`);
          bytes += d.bytes;
          ms += d.ms;
        }
        const cpu = cpuMicros(server.pid) - cpuBefore;
        const result: Round = {
          mibPerSecond: bytes / MiB / (ms / 1000),
          peakRss: memory(server.pid).peak,
          idleRss,
          cpuPerMib: cpu / (bytes / MiB),
        };
        rounds.get(contender.name)?.push(result);
        log(
          `stream round ${round + 1}/${settings.rounds} ${contender.label}: ${result.mibPerSecond.toFixed(0)} MiB/s, ` +
            `peak RSS ${(result.peakRss / MiB).toFixed(0)} MiB (idle ${(idleRss / MiB).toFixed(0)}), ` +
            `${result.cpuPerMib.toFixed(0)} µs CPU/MiB`,
        );
      } finally {
        agent.destroy();
        await stopServer(server);
      }
    }
  }

  const notes = new Footnotes();
  const lines = renderHeader({
    title: 'A streamed body: Arbor `res.send(readable)` against Fastify `reply.send(stream)`',
    kase: 'stream',
    quick: context.quick,
    description: [
      'Both servers send the same Node Readable: 64 KiB chunks of one prebuilt buffer, produced on demand',
      "(`benches/io/servers/payloads.ts`), chunked (no Content-Length). A node:http client in the runner's",
      'process downloads it several times in a row on one keep-alive connection, reading as fast as the',
      'socket delivers. Each server runs in a fresh process per round (rounds rotate the order), so its',
      "peak RSS (`VmHWM` in /proc) is that round's: start, the check download of round 1, the timed ones.",
    ],
    settings: [
      `${(settings.bytes / MiB).toLocaleString('en-US')} MiB per download (${STREAM_CHUNK / 1024} KiB chunks), ` +
        `${settings.downloads} timed downloads per round, ${settings.rounds} round(s). MiB = 2²⁰ bytes.`,
    ],
    environment: environmentOf(context, rows, 'node:http get, one keep-alive connection (runner process)'),
    arborSource: context.launch.arborSource,
  });
  const { lines: checkLines, labels } = renderChecks(
    rows.map(
      (c) => checked.get(c.name) ?? { contender: c, unavailable: 'never started', problems: [], seen: '' },
    ),
    notes,
  );
  lines.push(...checkLines);
  const anchor = rows.find((c) => c.anchor)?.name ?? 'fastify';
  const anchorRounds = rounds.get(anchor) ?? [];
  const pick = (rs: Round[], f: (r: Round) => number) => rs.map(f);
  lines.push(
    '## Results (median of rounds, range in brackets)',
    '',
    '| Server | MiB/s | × anchor | × anchor, per round | server peak RSS, MiB | × anchor (lower is better) | RSS at start, MiB | server CPU µs per MiB | CPU × anchor (lower is better) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const c of rows) {
    const label = labels.get(c.name) ?? c.label;
    const mine = rounds.get(c.name) ?? [];
    if (mine.length === 0) {
      lines.push(`| ${label} | not run | | | | | | | |`);
      continue;
    }
    const speed = pick(mine, (r) => r.mibPerSecond);
    const anchorSpeed = pick(anchorRounds, (r) => r.mibPerSecond);
    const peak = pick(mine, (r) => r.peakRss / MiB);
    const cpu = pick(mine, (r) => r.cpuPerMib);
    lines.push(
      `| ${label} | ${spread(speed)} | ${ratio(median(speed), median(anchorSpeed))} | ${pairedRatio(speed, anchorSpeed)} | ` +
        `${spread(peak)} | ${ratio(median(peak), median(pick(anchorRounds, (r) => r.peakRss / MiB)))} | ` +
        `${spread(pick(mine, (r) => r.idleRss / MiB))} | ${spread(cpu)} | ` +
        `${ratio(median(cpu), median(pick(anchorRounds, (r) => r.cpuPerMib)))} |`,
    );
  }
  lines.push(
    '',
    '## Notes',
    '',
    '- The client shares the two cores with the server: MiB/s is the pair’s, CPU per MiB the server’s alone.',
    '- Peak RSS includes what the process holds before any request (the framework, the Node runtime): the',
    '  column "RSS at start" says how much of it that is.',
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

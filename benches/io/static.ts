/**
 * Static files, 1 KiB and 1 MiB: Arbor's `serveStatic(root, { prefix: '/static' })` against Fastify with
 * `@fastify/static`, both on the same directory of generated files, under the same autocannon load.
 * Reports requests/s, MiB/s and server CPU per request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { fetchAnswer, sha256 } from './fetch.js';
import { log, orderOf, type Running, startServer, stopServer, Unavailable } from './harness.js';
import { type LoadRun, type LoadSettings, timedLoad } from './load.js';
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
import { staticFile } from './servers/payloads.js';

export interface StaticSettings extends LoadSettings {
  rounds: number;
  /** File sizes in bytes. */
  sizes: number[];
}

const sizeLabel = (bytes: number) => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / 1024} KiB`);

async function check(server: Running, files: { name: string; body: Buffer }[]): Promise<Checked> {
  const problems: string[] = [];
  const seen: string[] = [];
  for (const file of files) {
    const answer = await fetchAnswer(`${server.url}/static/${file.name}`);
    if (answer.status !== 200) problems.push(`${file.name}: status ${answer.status}`);
    else if (answer.body.length !== file.body.length || sha256(answer.body) !== sha256(file.body))
      problems.push(`${file.name}: ${answer.body.length} bytes, not the file's ${file.body.length}`);
    if (seen.length === 0) {
      const h = answer.headers;
      seen.push(
        `${answer.status}, ${h['content-type'] ?? 'no type'}`,
        ['etag', 'last-modified', 'cache-control', 'accept-ranges']
          .filter((name) => h[name] !== undefined)
          .map((name) => (name === 'cache-control' ? `cache-control: ${h[name]}` : name))
          .join(', ') || 'no validators',
      );
    }
  }
  const missing = await fetchAnswer(`${server.url}/static/missing.txt`);
  if (missing.status !== 404) problems.push(`a missing file answers ${missing.status}, not 404`);
  return { contender: server.contender, unavailable: null, problems, seen: seen.join('; ') };
}

export async function runStatic(context: CaseContext, settings: StaticSettings): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-io-static-'));
  const files = settings.sizes.map(staticFile);
  for (const file of files) writeFileSync(join(dir, file.name), file.body);
  const rows = rowsOf('static', context);
  const servers: Running[] = [];
  const checked: Checked[] = [];
  const runs = new Map<string, LoadRun[]>();
  try {
    for (const contender of rows) {
      try {
        const server = await startServer(contender, 'static', context.launch, { IO_STATIC_ROOT: dir });
        servers.push(server);
        checked.push(await check(server, files));
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.push({ contender, unavailable: error.message, problems: [], seen: '' });
      }
    }
    for (const c of checked)
      log(`static: ${c.contender.label}: ${c.unavailable ?? (c.problems.join('; ') || 'equivalent')}`);
    for (let round = 0; round < settings.rounds; round++) {
      for (const file of files) {
        for (const server of orderOf(servers, round)) {
          const run = await timedLoad(server, `/static/${file.name}`, {}, settings);
          const key = `${server.contender.name}:${file.body.length}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          log(
            `static round ${round + 1}/${settings.rounds} ${sizeLabel(file.body.length)} ${server.contender.label}: ` +
              `${Math.round(run.requestsPerSecond)} req/s, ${(run.bytesPerSecond / MiB).toFixed(1)} MiB/s, ` +
              `${run.cpuPerRequest.toFixed(1)} µs CPU/request${run.failed > 0 ? `, ${run.failed} failed` : ''}`,
          );
        }
      }
    }
  } finally {
    await Promise.all(servers.map(stopServer));
    rmSync(dir, { recursive: true, force: true });
  }

  const notes = new Footnotes();
  const lines = renderHeader({
    title: 'Static files: Arbor `serveStatic` against `@fastify/static`',
    kase: 'static',
    quick: context.quick,
    description: [
      'Each server runs in its own child process and serves the same directory of generated text files',
      "under `/static/`: Arbor with `serveStatic(root, { prefix: '/static' })` (as middleware, on node:http and",
      'on its own server), Fastify with `@fastify/static`, each with its defaults. autocannon loads one file',
      "at a time from the runner's process with the same connections and duration for every server; rounds",
      "rotate the servers' order. The server's CPU time (user + system, /proc) is read over the timed run.",
    ],
    settings: [
      `Files: ${settings.sizes.map(sizeLabel).join(' and ')}.`,
      `${settings.rounds} round(s) × ${settings.duration} s timed after ${settings.warmup} s of warm-up, ` +
        `${settings.connections} connections, no pipelining.`,
    ],
    environment: environmentOf(context, rows, 'autocannon (runner process)'),
    arborSource: context.launch.arborSource,
  });
  const { lines: checkLines, labels } = renderChecks(checked, notes);
  lines.push(...checkLines);
  const anchor = rows.find((c) => c.anchor)?.name ?? 'fastify';
  for (const file of files) {
    const of = (name: string) => runs.get(`${name}:${file.body.length}`) ?? [];
    const anchorRuns = of(anchor);
    const anchorRps = anchorRuns.map((r) => r.requestsPerSecond);
    const anchorCpu = anchorRuns.map((r) => r.cpuPerRequest);
    lines.push(
      `## ${sizeLabel(file.body.length)} file (median of rounds, range in brackets)`,
      '',
      '| Server | req/s | × anchor | × anchor, per round | MiB/s | server CPU µs per request | CPU × anchor (lower is better) | failed requests |',
      '|---|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const c of checked) {
      const label = labels.get(c.contender.name) ?? c.contender.label;
      const mine = of(c.contender.name);
      if (mine.length === 0) {
        lines.push(`| ${label} | not run | | | | | | |`);
        continue;
      }
      const rps = mine.map((r) => r.requestsPerSecond);
      const cpu = mine.map((r) => r.cpuPerRequest);
      lines.push(
        `| ${label} | ${spread(rps)} | ${ratio(median(rps), median(anchorRps))} | ${pairedRatio(rps, anchorRps)} | ` +
          `${spread(
            mine.map((r) => r.bytesPerSecond / MiB),
            1,
          )} | ${spread(cpu, 1)} | ` +
          `${ratio(median(cpu), median(anchorCpu))} | ${mine.reduce((a, r) => a + r.failed, 0)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    '## Notes',
    '',
    '- MiB/s counts what autocannon read: heads and bodies. At 1 KiB the heads are a large share, so',
    '  headers a server adds (validators, `Cache-Control`) show there; the equivalence table lists them.',
    '- The load generator shares the two cores with the server: requests/s also reflects the client, the',
    "  CPU time per request is the server's alone.",
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

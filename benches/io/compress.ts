/**
 * Response compression: Arbor's `compress()` middleware against `@fastify/compress`, each with its
 * defaults, on the same ~100 KiB JSON body, requested with `Accept-Encoding: gzip` and then `br` under
 * the same autocannon load. Reports requests/s, server CPU per request and the bytes each sends.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { fetchAnswer, sha256 } from './fetch.js';
import { log, orderOf, type Running, startServer, stopServer, Unavailable } from './harness.js';
import { type LoadRun, type LoadSettings, timedLoad } from './load.js';
import { type Checked, Footnotes, pairedRatio, ratio, renderChecks, renderHeader, spread } from './report.js';
import { JSON_BODY } from './servers/payloads.js';

export type Encoding = 'gzip' | 'br';

export interface CompressSettings extends LoadSettings {
  rounds: number;
  encodings: Encoding[];
}

const decode: Record<Encoding, (body: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function check(server: Running, encodings: Encoding[]): Promise<Checked> {
  const expected = sha256(JSON_BODY);
  const problems: string[] = [];
  const seen: string[] = [];
  const plain = await fetchAnswer(`${server.url}/data`);
  if (plain.status !== 200 || sha256(plain.body) !== expected)
    problems.push(`without Accept-Encoding: status ${plain.status}, ${plain.body.length} bytes`);
  for (const encoding of encodings) {
    const answer = await fetchAnswer(`${server.url}/data`, { 'accept-encoding': encoding });
    const said = answer.headers['content-encoding'] ?? 'none';
    if (answer.status !== 200 || said !== encoding) {
      problems.push(`${encoding}: status ${answer.status}, Content-Encoding ${said}`);
      continue;
    }
    let body: Buffer;
    try {
      body = decode[encoding](answer.body);
    } catch (error) {
      problems.push(`${encoding}: does not decode (${(error as Error).message})`);
      continue;
    }
    if (sha256(body) !== expected) problems.push(`${encoding}: decodes to ${body.length} other bytes`);
    const framing = answer.headers['content-length'] === undefined ? 'chunked' : 'Content-Length';
    seen.push(`${encoding} ${kib(answer.body.length)} (${framing})`);
  }
  const vary =
    plain.headers.vary ??
    (await fetchAnswer(`${server.url}/data`, { 'accept-encoding': 'gzip' })).headers.vary;
  seen.push(`Vary: ${vary ?? 'none'}`);
  return { contender: server.contender, unavailable: null, problems, seen: seen.join(', ') };
}

export async function runCompress(context: CaseContext, settings: CompressSettings): Promise<string> {
  const rows = rowsOf('compress', context);
  const servers: Running[] = [];
  const checked: Checked[] = [];
  const runs = new Map<string, LoadRun[]>();
  try {
    for (const contender of rows) {
      try {
        const server = await startServer(contender, 'compress', context.launch, {});
        servers.push(server);
        checked.push(await check(server, settings.encodings));
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.push({ contender, unavailable: error.message, problems: [], seen: '' });
      }
    }
    for (const c of checked)
      log(
        `compress: ${c.contender.label}: ${c.unavailable ?? (c.problems.join('; ') || `equivalent; ${c.seen}`)}`,
      );
    for (let round = 0; round < settings.rounds; round++) {
      for (const encoding of settings.encodings) {
        for (const server of orderOf(servers, round)) {
          const run = await timedLoad(server, '/data', { 'accept-encoding': encoding }, settings);
          const key = `${server.contender.name}:${encoding}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          log(
            `compress round ${round + 1}/${settings.rounds} ${encoding} ${server.contender.label}: ` +
              `${Math.round(run.requestsPerSecond)} req/s, ${run.cpuPerRequest.toFixed(0)} µs CPU/request` +
              (run.failed > 0 ? `, ${run.failed} failed` : ''),
          );
        }
      }
    }
  } finally {
    await Promise.all(servers.map(stopServer));
  }

  const notes = new Footnotes();
  const lines = renderHeader({
    title: 'Compression: Arbor `compress()` against `@fastify/compress`',
    kase: 'compress',
    quick: context.quick,
    description: [
      'Each server runs in its own child process and answers `GET /data` with the same ~100 KiB JSON text',
      '(`benches/io/servers/payloads.ts`, a prebuilt string: the benchmark times compression, not',
      '`JSON.stringify`), through Arbor’s `compress()` middleware (on node:http and on its own server) or',
      '`@fastify/compress` registered globally, each with its defaults. autocannon sends every request with',
      "one `Accept-Encoding` from the runner's process, with the same connections and duration for every",
      "server; rounds rotate the servers' order. The server's CPU time (/proc) is read over the timed run.",
    ],
    settings: [
      `Body: ${JSON_BODY.length.toLocaleString('en-US')} bytes of JSON; encodings: ${settings.encodings.join(', ')}.`,
      `${settings.rounds} round(s) × ${settings.duration} s timed after ${settings.warmup} s of warm-up, ` +
        `${settings.connections} connections, no pipelining.`,
    ],
    environment: environmentOf(context, rows, 'autocannon (runner process)'),
    arborSource: context.launch.arborSource,
  });
  const { lines: checkLines, labels } = renderChecks(checked, notes);
  lines.push(...checkLines);
  const anchor = rows.find((c) => c.anchor)?.name ?? 'fastify';
  for (const encoding of settings.encodings) {
    const of = (name: string) => runs.get(`${name}:${encoding}`) ?? [];
    const anchorRps = of(anchor).map((r) => r.requestsPerSecond);
    const anchorCpu = of(anchor).map((r) => r.cpuPerRequest);
    lines.push(
      `## \`Accept-Encoding: ${encoding}\` (median of rounds, range in brackets)`,
      '',
      '| Server | req/s | × anchor | × anchor, per round | server CPU µs per request | CPU × anchor (lower is better) | KiB per answer on the wire | failed requests |',
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
          `${spread(cpu)} | ${ratio(median(cpu), median(anchorCpu))} | ` +
          `${spread(
            mine.map((r) => r.bytesPerSecond / r.requestsPerSecond / 1024),
            1,
          )} | ` +
          `${mine.reduce((a, r) => a + r.failed, 0)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    '## Notes',
    '',
    '- Compression level decides most of the CPU per request: a server that compresses harder spends more',
    '  and sends less. Compare the "KiB per answer" column before reading the ratios as speed.',
    "  `@fastify/compress`'s defaults: zlib's default gzip level, brotli quality 4.",
    "- CPU time is the whole server process's, zlib's thread pool included (bodies above a few KiB are",
    '  compressed there by both). The load generator shares the two cores with the server: requests/s also',
    "  reflects the client, the CPU time per request is the server's alone.",
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

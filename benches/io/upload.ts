/**
 * A file upload: a `multipart/form-data` form (a short text field, then a 50 MiB file by default) that
 * Arbor streams to disk by itself (`uploads: { tmpDir }`, read with `req.file` and `req.body`) against
 * Fastify + `@fastify/multipart`'s `saveRequestFiles`. A node:http client in the runner's process uploads
 * it several times in a row; each server runs in a fresh process per round, so that its peak RSS
 * (`VmHWM`) is that round's. Reports MiB/s, peak RSS and its growth over the RSS at start.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import {
  type Contender,
  cpuMicros,
  log,
  memory,
  orderOf,
  type Running,
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
import { UPLOAD_BODY_LIMIT, UPLOAD_NAME } from './servers/requests.js';
import { type Form, type Uploaded, upload } from './upload-client.js';

export interface UploadSettings {
  rounds: number;
  /** Bytes of the uploaded file. */
  bytes: number;
  /** Sequential uploads timed per round. */
  uploads: number;
  /** The file read by the handler as it arrives (`upload-stream`), rather than saved to disk first. */
  streamed: boolean;
}

interface Round {
  mibPerSecond: number;
  /** Peak RSS of the server process over its life (start, check upload, timed uploads), bytes. */
  peakRss: number;
  /** RSS right after it started listening, bytes. */
  idleRss: number;
  /** Server CPU µs per MiB received. */
  cpuPerMib: number;
}

/** What the report says each variant measures. */
const ON_DISK_HEADER = {
  title: 'A file upload: Arbor `uploads` against Fastify + `@fastify/multipart`',
  kase: 'upload',
  description: [
    'Each server receives the same `multipart/form-data` form, a text field `name` and then a file field',
    '`file`, and answers `{ size, name }`. Arbor (`bodyLimit: 64 MiB, uploads: { tmpDir }`) streams the file',
    'to disk before the handler runs and deletes it once the answer is out; the handler reads',
    "`req.file('file')?.size` and `req.body().name`. Fastify (`bodyLimit: 64 MiB`, which bounds each file)",
    "uses `@fastify/multipart`'s `saveRequestFiles({ tmpdir })`: the file is streamed to a temporary file",
    'that the plugin deletes once the answer is out, its size the bytes busboy counted. Both write to a',
    "folder of their own on the same disk. A node:http client in the runner's process uploads the form",
    'several times in a row on one keep-alive connection, the file written from one prebuilt 64 KiB chunk',
    '(`benches/io/upload-client.ts`). Each server runs in a fresh process per round (rounds rotate the',
    "order); an untimed upload (the check) comes first. Peak RSS is `VmHWM` in /proc: the process's whole",
    'life. MiB/s counts the file bytes, from the first byte sent to the end of the answer.',
  ],
};
const STREAMED_HEADER = {
  title: 'A streamed upload: Arbor `req.parts()` against Fastify + `@fastify/multipart` `request.parts()`',
  kase: 'upload-stream',
  description: [
    'Each server receives the same `multipart/form-data` form, a text field `name` and then a file field',
    '`file`, and answers `{ size, name }`, the handler taking each part as it arrives and counting the',
    "file's bytes as it reads them (what a handler that hashes a file or pipes it to storage does); nothing",
    'is written to disk. Arbor: `bodyLimit: 64 MiB, uploads: { stream: true }`, `for await (const part of',
    "req.parts())`, each file's `part.stream` read to its end. Fastify (`bodyLimit: 64 MiB`): `@fastify/multipart`'s",
    '`request.parts()` (its README\'s "Handle multiple file streams"), each file\'s `part.file` read to its end.',
    "A node:http client in the runner's process uploads the form several times in a row on one keep-alive",
    'connection, the file written from one prebuilt 64 KiB chunk (`benches/io/upload-client.ts`). Each',
    'server runs in a fresh process per round (rounds rotate the order); an untimed upload (the check) comes',
    "first. Peak RSS is `VmHWM` in /proc: the process's whole life. MiB/s counts the file bytes, from the",
    'first byte sent to the end of the answer.',
  ],
};

/** How long a server may take to delete an answered upload's files (both do it after the answer). */
const CLEANUP_MS = 2_000;

/** How `answer` differs from `{ size, name }` of `form`; empty when it does not. */
function differences(answer: Uploaded, form: Form): string[] {
  if (answer.status !== 200) return [`status ${answer.status}: ${answer.body.slice(0, 200)}`];
  let parsed: { size?: unknown; name?: unknown };
  try {
    parsed = JSON.parse(answer.body) as typeof parsed;
  } catch {
    return [`not JSON: ${answer.body.slice(0, 200)}`];
  }
  const problems: string[] = [];
  if (parsed.size !== form.size) problems.push(`size ${String(parsed.size)}, not ${form.size}`);
  if (parsed.name !== form.name) problems.push(`name ${JSON.stringify(parsed.name)}, not "${form.name}"`);
  return problems;
}

/** Adds `problem` to what the check found, once however many rounds find it again. */
function note(check: Checked, problem: string): void {
  if (!check.problems.includes(problem)) check.problems.push(problem);
}

/** Entries still in `dir` once the server had {@link CLEANUP_MS} to delete what it wrote there. */
async function leftovers(dir: string): Promise<number> {
  for (let waited = 0; ; waited += 50) {
    const count = readdirSync(dir).length;
    if (count === 0 || waited >= CLEANUP_MS) return count;
    await sleep(50);
  }
}

/** One round of one server: the checked upload (untimed: a warm-up after round 1), then the timed ones. */
async function measure(
  server: Running,
  dir: string,
  form: Form,
  settings: UploadSettings,
  check: Checked,
): Promise<Round> {
  const url = `${server.url}/upload`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const idleRss = memory(server.pid).rss;
    const first = await upload(url, agent, form);
    for (const problem of differences(first, form)) note(check, problem);
    if (check.seen === '') check.seen = `${first.status}, ${first.body}`;
    const cpuBefore = cpuMicros(server.pid);
    let ms = 0;
    for (let i = 0; i < settings.uploads; i++) {
      const timed = await upload(url, agent, form);
      for (const problem of differences(timed, form)) note(check, `a timed upload: ${problem}`);
      ms += timed.ms;
    }
    const cpu = cpuMicros(server.pid) - cpuBefore;
    const left = await leftovers(dir);
    if (left > 0)
      note(check, `${left} entries left in its upload folder ${CLEANUP_MS / 1000} s after the answers`);
    const mib = (settings.uploads * settings.bytes) / MiB;
    return {
      mibPerSecond: mib / (ms / 1000),
      peakRss: memory(server.pid).peak,
      idleRss,
      cpuPerMib: cpu / mib,
    };
  } finally {
    agent.destroy();
  }
}

export async function runUpload(context: CaseContext, settings: UploadSettings): Promise<string> {
  const kase = settings.streamed ? 'upload-stream' : 'upload';
  const rows = rowsOf(kase, context);
  const form: Form = { name: UPLOAD_NAME, size: settings.bytes };
  const checked = new Map<string, Checked>();
  const rounds = new Map<string, Round[]>(rows.map((c) => [c.name, []]));
  const folder = mkdtempSync(join(tmpdir(), 'arbor-io-upload-'));
  try {
    for (let round = 0; round < settings.rounds; round++) {
      for (const contender of orderOf(rows, round)) {
        if (checked.get(contender.name)?.unavailable) continue;
        // A folder per server: what one leaves behind is not blamed on another.
        const dir = join(folder, contender.name);
        mkdirSync(dir, { recursive: true });
        let server: Running;
        try {
          server = await startServer(contender, kase, context.launch, { IO_UPLOAD_DIR: dir });
        } catch (error) {
          if (!(error instanceof Unavailable)) throw error;
          checked.set(contender.name, { contender, unavailable: error.message, problems: [], seen: '' });
          continue;
        }
        const check = checked.get(contender.name) ?? { contender, unavailable: null, problems: [], seen: '' };
        checked.set(contender.name, check);
        try {
          let result: Round;
          try {
            result = await measure(server, dir, form, settings, check);
          } catch (error) {
            // A server that answers before reading the whole form (a 413) may reset the connection.
            note(check, `an upload failed: ${(error as Error).message}`);
            log(
              `upload round ${round + 1}/${settings.rounds} ${contender.label}: ${(error as Error).message}`,
            );
            continue;
          }
          rounds.get(contender.name)?.push(result);
          log(
            `upload round ${round + 1}/${settings.rounds} ${contender.label}: ${result.mibPerSecond.toFixed(0)} MiB/s, ` +
              `peak RSS ${(result.peakRss / MiB).toFixed(0)} MiB (start ${(result.idleRss / MiB).toFixed(0)}), ` +
              `${result.cpuPerMib.toFixed(0)} µs CPU/MiB` +
              (check.problems.length > 0 ? `; ${check.problems.join('; ')}` : ''),
          );
        } finally {
          await stopServer(server);
        }
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return render(context, settings, rows, checked, rounds);
}

function render(
  context: CaseContext,
  settings: UploadSettings,
  rows: Contender[],
  checked: Map<string, Checked>,
  rounds: Map<string, Round[]>,
): string {
  const notes = new Footnotes();
  const fileMib = settings.bytes / MiB;
  const lines = renderHeader({
    ...(settings.streamed ? STREAMED_HEADER : ON_DISK_HEADER),
    quick: context.quick,
    settings: [
      `${fileMib.toLocaleString('en-US')} MiB file, ${settings.uploads} timed uploads per round, ${settings.rounds} round(s); ` +
        `body limit ${UPLOAD_BODY_LIMIT / MiB} MiB. MiB = 2²⁰ bytes.`,
      `Uploads written to a folder under ${tmpdir()}; after each round, each server's folder must be empty within ${CLEANUP_MS / 1000} s.`,
    ],
    environment: environmentOf(
      context,
      rows,
      'node:http request, one keep-alive connection (runner process)',
    ),
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
  const of = (rs: Round[], f: (r: Round) => number) => rs.map(f);
  const growth = (r: Round) => (r.peakRss - r.idleRss) / MiB;
  lines.push(
    '## Results (median of rounds, range in brackets)',
    '',
    '| Server | MiB/s | × anchor | × anchor, per round | server peak RSS, MiB | × anchor (lower is better) | RSS at start, MiB | peak − start, MiB | × anchor (lower is better) | server CPU µs per MiB | CPU × anchor (lower is better) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  const targets: string[] = [];
  for (const c of rows) {
    const label = labels.get(c.name) ?? c.label;
    const mine = rounds.get(c.name) ?? [];
    if (mine.length === 0) {
      lines.push(`| ${label} | not run | | | | | | | | | |`);
      continue;
    }
    const speed = of(mine, (r) => r.mibPerSecond);
    const anchorSpeed = of(anchorRounds, (r) => r.mibPerSecond);
    const peak = of(mine, (r) => r.peakRss / MiB);
    const grown = of(mine, growth);
    const cpu = of(mine, (r) => r.cpuPerMib);
    const level = pairedRatio(speed, anchorSpeed);
    lines.push(
      `| ${label} | ${spread(speed)} | ${ratio(median(speed), median(anchorSpeed))} | ${level} | ` +
        `${spread(peak)} | ${ratio(median(peak), median(of(anchorRounds, (r) => r.peakRss / MiB)))} | ` +
        `${spread(of(mine, (r) => r.idleRss / MiB))} | ${spread(grown)} | ` +
        `${ratio(median(grown), median(of(anchorRounds, growth)))} | ${spread(cpu)} | ` +
        `${ratio(median(cpu), median(of(anchorRounds, (r) => r.cpuPerMib)))} |`,
    );
    if (!c.anchor) {
      const limit = median(of(anchorRounds, growth)) + fileMib / 2;
      const rss = Number.isNaN(limit)
        ? 'RSS not judged (no anchor figure)'
        : `RSS ${median(grown) < limit ? 'bounded' : 'not bounded'} (peak − start ${median(grown).toFixed(0)} MiB, limit ${limit.toFixed(0)} MiB)`;
      targets.push(
        `- ${label}: speed ${Number(level) >= 1 ? 'met' : 'not met'} (${level} × anchor per round); ${rss}.`,
      );
    }
  }
  lines.push(
    '',
    '## Target',
    '',
    'At least level with the anchor (MiB/s × anchor, median of per-round ratios, 1.00 or more) with RSS',
    `bounded: no file held in memory. The anchor ${settings.streamed ? 'reads the file as it arrives' : 'streams to disk'}, so its "peak − start" is what any Node`,
    'server accumulates between collections (received chunks not yet collected); a server that held the',
    'file would add at least its size on top. Bounded: the median "peak − start" stays below the',
    'anchor’s plus half the file.',
    '',
    ...targets,
    '',
    '## Notes',
    '',
    '- The client shares the two cores with the server: MiB/s is the pair’s, CPU per MiB the server’s alone.',
    settings.streamed
      ? '  Neither writes to disk: the handler counts the bytes as it reads them.'
      : '  Writing to disk is in both: the page cache absorbs it, and is not counted in RSS.',
    '- "peak − start" is what serving uploads added to the process at its worst: buffers in flight, the',
    '  parser, garbage not yet collected (no GC is forced).',
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}

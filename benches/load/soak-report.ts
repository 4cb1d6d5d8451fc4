/** Verdicts and the `soak.md` / `soak.svg` report of the load run. */
import type { Environment } from '../http/environment.js';
import { max, median, slope, thousands } from '../http/stats.js';
import { type MemorySample, renderMemoryChart } from './memory-chart.js';

const MIB = 1024 * 1024;
/** RSS may still creep this much per minute over the second half of the run and count as flat. */
const RSS_SLOPE_LIMIT = 2; // MiB/min
/** The heap after a full GC may end this much above its value after warm-up. */
const HEAP_GROWTH_LIMIT = 5; // MiB

export interface MemoryAnalysis {
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  /** MiB per minute, least squares over the second half of the samples after warm-up. */
  rssSlopeLateMibPerMin: number;
  heapSlopeLateMibPerMin: number;
  heapAfterGcWarmup: number | null;
  heapAfterGcEnd: number;
  plateau: boolean;
  verdict: string;
}

export interface SoakResult {
  seconds: number;
  byKind: Map<string, { sent: number; ok: number; wrong: Map<number, number> }>;
  errors: Map<string, number>;
  latencies: number[];
  answered: number;
  samples: MemorySample[];
  memory: MemoryAnalysis;
  loggedErrors: number;
  abortedResponses: number;
}

export interface ShutdownResult {
  slowSent: number;
  slowOk: number;
  /** From sending `close` to the server's reply (IPC included). */
  closeMs: number;
  serverCloseMs: number;
  inFlightAtClose: number;
  sent: number;
  ok: number;
  wrongAnswers: Map<string, number>;
  /** Requests the server received whose answer never arrived: must be empty. */
  lost: string[];
  /** Requests that never reached the application (refused, or written on a connection being closed). */
  neverReached: Map<string, number>;
  receivedButUnanswered: number;
  exit: { code: number | null; signal: string | null };
  exitedByItself: boolean;
}

export function analyseMemory(
  samples: readonly MemorySample[],
  warmup: number,
  heapAfterGcWarmup: number | null,
  heapAfterGcEnd: number,
): MemoryAnalysis {
  const steady = samples.filter((s) => s.t >= warmup);
  const late = steady.slice(Math.floor(steady.length / 2));
  const perMinute = (pick: (s: MemorySample) => number) =>
    (slope(
      late.map((s) => s.t),
      late.map(pick),
    ) *
      60) /
    MIB;
  const rssSlope = perMinute((s) => s.rss);
  const heapSlope = perMinute((s) => s.heapUsed);
  const heapGrowth = heapAfterGcWarmup === null ? 0 : (heapAfterGcEnd - heapAfterGcWarmup) / MIB;
  const enough = late.length >= 10;
  const plateau = enough && rssSlope <= RSS_SLOPE_LIMIT && heapGrowth <= HEAP_GROWTH_LIMIT;
  const verdict = !enough
    ? 'too few samples after warm-up to judge'
    : plateau
      ? `stops growing (RSS ${rssSlope.toFixed(2)} MiB/min over the second half; heap after GC ${signed(heapGrowth)} MiB since warm-up)`
      : `STILL GROWING (RSS ${rssSlope.toFixed(2)} MiB/min over the second half; heap after GC ${signed(heapGrowth)} MiB since warm-up)`;
  return {
    rssStart: samples[0]?.rss ?? 0,
    rssPeak: max(samples.map((s) => s.rss)),
    rssEnd: samples.at(-1)?.rss ?? 0,
    rssSlopeLateMibPerMin: rssSlope,
    heapSlopeLateMibPerMin: heapSlope,
    heapAfterGcWarmup,
    heapAfterGcEnd,
    plateau,
    verdict,
  };
}

const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export interface SoakReportInput {
  settings: {
    duration: number;
    concurrency: number;
    warmup: number;
    slow: number;
    slowMs: number;
    seed: number;
  };
  environment: Environment;
  soak: SoakResult;
  shutdown: ShutdownResult | null;
}

export function renderSoakReport({ settings, environment, soak, shutdown }: SoakReportInput) {
  const wrong = [...soak.byKind.values()].reduce((a, e) => a + (e.sent - e.ok), 0) - sum(soak.errors);
  const errors = sum(soak.errors);
  const checks: [string, boolean][] = [
    ['every answer had an expected status and a complete body', wrong === 0],
    ['no request failed at the connection level (reset, refused, timeout)', errors === 0],
    ['the application logged no error (no 500, no crash of a handler)', soak.loggedErrors === 0],
    ['memory stops growing', soak.memory.plateau],
  ];
  if (shutdown) {
    checks.push(
      [
        `every slow request in flight at close() was answered (${shutdown.slowOk}/${shutdown.slowSent})`,
        shutdown.slowOk === shutdown.slowSent,
      ],
      [
        'no request the server had received was lost',
        shutdown.lost.length === 0 && shutdown.receivedButUnanswered === 0,
      ],
      ['no wrong answer during shutdown', sum(shutdown.wrongAnswers) === 0],
      [
        'the process exited by itself after close() (no handle left open)',
        shutdown.exitedByItself && shutdown.exit.code === 0,
      ],
    );
  }
  const passed = checks.every(([, ok]) => ok);
  const short = settings.duration < 60;

  const lines: string[] = ['# Load, soak and graceful shutdown of the reference server', ''];
  if (short) {
    lines.push(
      `> **Short run (${settings.duration} s): it checks the machinery.** A soak is at least 60 s; run`,
      '> `node --import tsx benches/load/soak.ts --duration 600` for a slow leak to show.',
      '',
    );
  }
  lines.push(
    `**${passed ? 'All checks passed' : 'SOME CHECKS FAILED'}.**`,
    '',
    '| Check | Result |',
    '|---|---|',
    ...checks.map(([text, ok]) => `| ${text} | ${ok ? 'pass' : '**FAIL**'} |`),
    '',
    '## Set-up',
    '',
    '- Server: the reference server (`ts/examples/server.ts`: tasks + products, logging and CORS middleware)',
    '  built by its own factory and started with `run()` in a child process (`benches/load/server.ts`), plus one',
    '  test route `GET /__load/slow`. Request log lines are discarded.',
    `- Load: ${settings.concurrency} concurrent keep-alive workers in another process for ${soak.seconds.toFixed(1)} s ` +
      `(warm-up ${settings.warmup} s), seed ${settings.seed}; mixed methods over thousands of distinct paths, about a`,
    '  quarter of them bad on purpose (unknown ids and paths, 405, malformed JSON, missing fields, no token,',
    '  bad query, constraint misses, malformed percent-escapes, `%2F`, 414, 413). See `benches/load/scenario.ts`.',
    `- Machine: ${environment.cpu}, ${environment.cores} logical cores, ${environment.memory}, ${environment.os}; ` +
      `load average at start ${environment.loadAverage}.`,
    `- Node ${environment.serverNode}; Arbor ${environment.versions.arbor}. Date ${environment.date}.`,
    '',
    '## Soak',
    '',
    `- ${thousands(soak.answered)} answers, ${thousands(soak.answered / soak.seconds)} per second on average;`,
    `  latency of expected answers p50 ${percentile(soak.latencies, 50).toFixed(1)} ms, p99 ${percentile(soak.latencies, 99).toFixed(1)} ms, ` +
      `max ${max(soak.latencies).toFixed(0)} ms.`,
    `- Not as expected: ${wrong} answers, ${errors} connection-level failures, ${soak.loggedErrors} errors logged by the ` +
      `application, ${soak.abortedResponses} responses closed before they were complete (413s that close the connection included).`,
    '',
    '| Request kind | sent | as expected | unexpected statuses (negative: truncated body) |',
    '|---|--:|--:|---|',
  );
  for (const [kind, e] of [...soak.byKind].sort((a, b) => b[1].sent - a[1].sent)) {
    const unexpected = [...e.wrong].map(([status, n]) => `${status}×${n}`).join(', ');
    lines.push(`| \`${kind}\` | ${e.sent} | ${e.ok} | ${unexpected} |`);
  }
  if (errors > 0) {
    lines.push('', 'Connection-level failures:', '');
    for (const [key, n] of soak.errors) lines.push(`- ${key}: ${n}`);
  }
  const m = soak.memory;
  lines.push(
    '',
    '## Memory',
    '',
    `![RSS and heap over time](soak.svg)`,
    '',
    `- Verdict: **${m.verdict}**.`,
    `- RSS: ${mib(m.rssStart)} at the first sample, peak ${mib(m.rssPeak)}, ${mib(m.rssEnd)} at the end; ` +
      `second-half slope ${m.rssSlopeLateMibPerMin.toFixed(2)} MiB/min (limit ${RSS_SLOPE_LIMIT}).`,
    `- V8 heap after a forced GC: ${m.heapAfterGcWarmup === null ? 'n/a' : mib(m.heapAfterGcWarmup)} after warm-up, ` +
      `${mib(m.heapAfterGcEnd)} at the end (limit +${HEAP_GROWTH_LIMIT} MiB); heap-used slope over the second half ` +
      `${m.heapSlopeLateMibPerMin.toFixed(2)} MiB/min (sawtooth between collections, so only indicative).`,
    `- Answers per second while sampling: median ${thousands(median(soak.samples.map((s) => s.rps)))}.`,
  );
  if (shutdown) {
    lines.push(
      '',
      '## Graceful shutdown under load',
      '',
      `${settings.slow} requests of ${settings.slowMs} ms were put in flight and ${settings.concurrency} workers kept`,
      'sending; then the server process called `app.close()`. Each request carried an id, and the server',
      'recorded the ids it received, so "lost" below means: received by the server, never answered to the client.',
      '',
      `- \`close()\` resolved after ${shutdown.serverCloseMs.toFixed(0)} ms (${shutdown.inFlightAtClose} requests in flight when it was called); ` +
        `the slow requests: ${shutdown.slowOk}/${shutdown.slowSent} answered 200 with their full body.`,
      `- Requests during the phase: ${shutdown.sent}; answered as expected ${shutdown.ok}; lost ${shutdown.lost.length}; ` +
        `received but never answered (server side) ${shutdown.receivedButUnanswered}.`,
      `- Never reached the application (expected once the listener is closed): ${
        shutdown.neverReached.size === 0
          ? 'none'
          : [...shutdown.neverReached].map(([k, n]) => `${k} ×${n}`).join(', ')
      }. A reset here is the keep-alive race: the client wrote on an idle connection the server was closing;`,
      '  the request never arrived, so an idempotent request can be retried safely.',
      `- Server process exit: ${shutdown.exit.code ?? shutdown.exit.signal}${shutdown.exitedByItself ? ' (by itself)' : ' (had to be killed)'}.`,
    );
    for (const entry of shutdown.lost.slice(0, 20)) lines.push(`  - lost: ${entry}`);
    for (const [key, n] of shutdown.wrongAnswers) lines.push(`  - wrong answer: ${key} ×${n}`);
  }
  lines.push('');
  const svg = renderMemoryChart(
    soak.samples,
    `Reference server memory under load${short ? ' (short run)' : ''}`,
    `${environment.cpu}, ${environment.cores} cores, Node ${environment.serverNode.split(' ')[0]}; ` +
      `${settings.concurrency} workers, ${soak.seconds.toFixed(0)} s — ${m.plateau ? 'flat' : m.verdict.startsWith('too few') ? 'too short to judge' : 'still growing'}`,
    settings.warmup,
  );
  return { markdown: lines.join('\n'), svg, passed };
}

function sum(map: Map<string, number>): number {
  let total = 0;
  for (const n of map.values()) total += n;
  return total;
}

/** Verdicts and the `soak.md` / `soak.svg` report of the load run. */
import type { Environment } from '../http/environment.js';
import { max, median, slope, thousands } from '../http/stats.js';
import { type MemorySample, renderMemoryChart } from './memory-chart.js';

const MIB = 1024 * 1024;
/** Retained memory (heap, and `external` where wasm memory lives) may end this much above where it
 * started, after a full GC, floor against floor (see {@link floorGrowth}). */
const RETAINED_GROWTH_LIMIT = 5; // MiB
/** RSS may still creep this much per minute over the second half of the run and count as flat. */
const RSS_SLOPE_LIMIT = 2; // MiB/min
/** Below this, a rising RSS with flat retained memory is "still settling", not a failure. */
const SETTLE_SECONDS = 300;

/** Memory retained after a forced full GC. */
export interface Checkpoint {
  t: number;
  rss: number;
  heapUsed: number;
  external: number;
}

export type MemoryState = 'flat' | 'settling' | 'growing' | 'too-short';

export interface MemoryAnalysis {
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  /** MiB per minute, least squares over the second half of the per-second samples after warm-up. */
  rssSlopeLateMibPerMin: number;
  checkpoints: Checkpoint[];
  heapGrowth: number;
  externalGrowth: number;
  state: MemoryState;
  verdict: string;
}

export function analyseMemory(
  samples: readonly MemorySample[],
  checkpoints: readonly Checkpoint[],
  warmup: number,
  seconds: number,
): MemoryAnalysis {
  const steady = samples.filter((s) => s.t >= warmup);
  const late = steady.slice(Math.floor(steady.length / 2));
  const rssSlope =
    (slope(
      late.map((s) => s.t),
      late.map((s) => s.rss),
    ) *
      60) /
    MIB;
  const heapGrowth = floorGrowth(checkpoints.map((c) => c.heapUsed)) / MIB;
  const externalGrowth = floorGrowth(checkpoints.map((c) => c.external)) / MIB;
  const retainedFlat = heapGrowth <= RETAINED_GROWTH_LIMIT && externalGrowth <= RETAINED_GROWTH_LIMIT;
  const figures =
    `heap after GC ${signed(heapGrowth)} MiB and external (wasm memory included) ${signed(externalGrowth)} MiB ` +
    `from the first third of ${checkpoints.length} checkpoints to the last, lowest against lowest; RSS ${rssSlope.toFixed(2)} MiB/min over the second half`;
  let state: MemoryState;
  if (late.length < 10 || checkpoints.length < 2) state = 'too-short';
  else if (!retainedFlat) state = 'growing';
  else if (rssSlope <= RSS_SLOPE_LIMIT) state = 'flat';
  else state = seconds < SETTLE_SECONDS ? 'settling' : 'growing';
  const verdict = {
    'too-short': 'too few samples after warm-up to judge',
    flat: `stops growing (${figures})`,
    settling: `retained memory flat, RSS still settling — run longer (--duration 600) to see it level off (${figures})`,
    growing: `STILL GROWING (${figures})`,
  }[state];
  return {
    rssStart: samples[0]?.rss ?? 0,
    rssPeak: max(samples.map((s) => s.rss)),
    rssEnd: samples.at(-1)?.rss ?? 0,
    rssSlopeLateMibPerMin: rssSlope,
    checkpoints: [...checkpoints],
    heapGrowth,
    externalGrowth,
    state,
    verdict,
  };
}

/**
 * How much the floor of `values` (checkpoints in time order) rose: the lowest of the last third minus the
 * lowest of the first third. Memory live at a checkpoint, not garbage, is counted too: the buffers of the
 * requests in flight at that moment (tens of MiB of socket data under 32 busy connections) come and go from
 * one checkpoint to the next. A leak raises every later checkpoint, the lowest included; in-flight data
 * only adds spikes, which comparing first with last would read as growth or hide, by where they fell.
 */
export function floorGrowth(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const third = Math.max(1, Math.floor(values.length / 3));
  return Math.min(...values.slice(-third)) - Math.min(...values.slice(0, third));
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
  /** Responses closed before they were complete; `null` on Arbor's server, which does not tell. */
  abortedResponses: number | null;
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
    /** The server `run()` started: node:http's (the default), or Arbor's own (`server: 'arbor'`). */
    server: 'arbor' | 'node';
  };
  environment: Environment;
  soak: SoakResult;
  shutdown: ShutdownResult | null;
}

type Verdict = 'pass' | 'FAIL' | 'inconclusive' | 'note';

/** The oversized-body requests: the server answers 413 and closes while the client may still be sending. */
const OVERSIZED = '1 MiB+ body';

export function renderSoakReport({ settings, environment, soak, shutdown }: SoakReportInput) {
  const errors = sum(soak.errors);
  const wrong = [...soak.byKind.values()].reduce((a, e) => a + (e.sent - e.ok), 0) - errors;
  const oversizedErrors = sum(new Map([...soak.errors].filter(([key]) => key.includes(OVERSIZED))));
  const oversizedSent = [...soak.byKind]
    .filter(([kind]) => kind.includes(OVERSIZED))
    .reduce((a, [, e]) => a + e.sent, 0);
  const otherErrors = errors - oversizedErrors;
  const memoryVerdict: Verdict =
    soak.memory.state === 'flat' ? 'pass' : soak.memory.state === 'growing' ? 'FAIL' : 'inconclusive';
  const checks: [string, Verdict][] = [
    ['every answer had an expected status and a complete body', wrong === 0 ? 'pass' : 'FAIL'],
    [
      'no request failed at the connection level (reset, refused, timeout), oversized bodies apart',
      otherErrors === 0 ? 'pass' : 'FAIL',
    ],
    [
      'the application logged no error (no 500, no crash of a handler)',
      soak.loggedErrors === 0 ? 'pass' : 'FAIL',
    ],
    [`memory stops growing: ${soak.memory.state}`, memoryVerdict],
    [
      `oversized bodies: the client saw its 413 (${oversizedSent - oversizedErrors}/${oversizedSent}; the others got ` +
        'EPIPE/ECONNRESET while still sending, see below)',
      oversizedErrors === 0 ? 'pass' : 'note',
    ],
  ];
  if (shutdown) {
    checks.push(
      [
        `every slow request in flight at close() was answered (${shutdown.slowOk}/${shutdown.slowSent})`,
        shutdown.slowOk === shutdown.slowSent ? 'pass' : 'FAIL',
      ],
      [
        'no request the server had received was lost',
        shutdown.lost.length === 0 && shutdown.receivedButUnanswered === 0 ? 'pass' : 'FAIL',
      ],
      ['no wrong answer during shutdown', sum(shutdown.wrongAnswers) === 0 ? 'pass' : 'FAIL'],
      [
        'the process exited by itself after close() (no handle left open)',
        shutdown.exitedByItself && shutdown.exit.code === 0 ? 'pass' : 'FAIL',
      ],
    );
  }
  const passed = checks.every(([, v]) => v !== 'FAIL');
  const inconclusive = checks.some(([, v]) => v === 'inconclusive');
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
    `**${passed ? (inconclusive ? 'No check failed; some are inconclusive' : 'All checks passed') : 'SOME CHECKS FAILED'}.**`,
    '',
    '| Check | Result |',
    '|---|---|',
    ...checks.map(([text, v]) => `| ${text} | ${v === 'FAIL' ? '**FAIL**' : v} |`),
    '',
    '## Set-up',
    '',
    '- Server: the reference server (`ts/examples/server.ts`: tasks + products, logging and CORS middleware)',
    '  built by its own factory and started with `run()` in a child process (`benches/load/server.ts`), plus one',
    '  test route `GET /__load/slow`. Request log lines are discarded. ' +
      (settings.server === 'node'
        ? "On node:http's server (the default; `--server arbor` for Arbor's own)."
        : "On Arbor's own HTTP/1.1 server (`server: 'arbor'`, `--server arbor`)."),
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
    `- Not as expected: ${wrong} answers, ${errors} connection-level failures (${oversizedErrors} on oversized bodies), ` +
      `${soak.loggedErrors} errors logged by the ` +
      `application, ${soak.abortedResponses === null ? "responses closed before they were complete not counted (Arbor's server does not tell; the client-side check of complete bodies above stands for it)" : `${soak.abortedResponses} responses closed before they were complete (413s that close the connection included)`}.`,
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
  if (oversizedErrors > 0) {
    lines.push(
      '',
      `On ${oversizedErrors} of ${oversizedSent} oversized bodies the client never read the 413: the server answers as`,
      'soon as the declared length exceeds the limit and closes the connection without reading the rest (by',
      'design: draining a large body costs the server), so a client still writing gets EPIPE/ECONNRESET and,',
      'depending on timing, loses the response. A lingering close (keep reading and discarding for a short',
      'time or up to a few hundred KiB before closing, as RFC 9112 §9.6 suggests) would let more clients see',
      'the 413. No other request is affected.',
    );
  }
  const m = soak.memory;
  lines.push(
    '',
    '## Memory',
    '',
    '![RSS, heap and external memory over time](soak.svg)',
    '',
    `- Verdict: **${m.verdict}**.`,
    `- Rule: after a forced full GC, the V8 heap and \`external\` (where the WebAssembly memory is counted) must`,
    `  end within +${RETAINED_GROWTH_LIMIT} MiB of where they started, the lowest of the last third of checkpoints against`,
    '  the lowest of the first third (in-flight request buffers make single checkpoints jump by tens of MiB),',
    `  and RSS must rise by at most ${RSS_SLOPE_LIMIT} MiB/min over the second half;`,
    `  in a run shorter than ${SETTLE_SECONDS} s a rising RSS with flat retained memory is reported as settling.`,
    `- RSS: ${mib(m.rssStart)} at the first sample, peak ${mib(m.rssPeak)}, ${mib(m.rssEnd)} at the end.`,
    '',
    '| After GC at | heap used | external | RSS |',
    '|--:|--:|--:|--:|',
    ...m.checkpoints.map(
      (c) => `| ${c.t.toFixed(0)} s | ${mib(c.heapUsed)} | ${mib(c.external)} | ${mib(c.rss)} |`,
    ),
    '',
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
      `${settings.concurrency} workers, ${soak.seconds.toFixed(0)} s — memory ${m.state}`,
    settings.warmup,
  );
  return { markdown: lines.join('\n'), svg, passed, inconclusive };
}

function sum(map: Map<string, number>): number {
  let total = 0;
  for (const n of map.values()) total += n;
  return total;
}

/**
 * The load generator: autocannon in its own process, so that it never shares an event loop (or a V8
 * heap) with the server it measures. `run.ts` starts one driver and sends it one message per timed run:
 *
 *   → { type: 'run', url, requests, connections, pipelining, duration, warmup }
 *   ← { type: 'result', result: RunResult }   or   { type: 'error', message }
 */
import autocannon from 'autocannon';
import type { LoadRequest } from './mix.js';

export interface RunCommand {
  type: 'run';
  url: string;
  requests: LoadRequest[];
  connections: number;
  pipelining: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load sent and discarded first (JIT warm-up, connection set-up). */
  warmup: number;
}

export interface RunResult {
  /** Mean of the per-second request counts. */
  rps: number;
  total: number;
  latencyAvg: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

async function runOnce(command: RunCommand, duration: number) {
  return autocannon({
    url: command.url,
    connections: command.connections,
    pipelining: command.pipelining,
    duration,
    timeout: 10,
    requests: command.requests,
  });
}

async function handle(command: RunCommand): Promise<RunResult> {
  if (command.warmup > 0) await runOnce(command, command.warmup);
  const result = await runOnce(command, command.duration);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  return {
    rps: result.requests.average,
    total: result.requests.total,
    latencyAvg: result.latency.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

process.on('message', (message: RunCommand) => {
  if (message?.type !== 'run') return;
  handle(message).then(
    (result) => process.send?.({ type: 'result', result }),
    (error: unknown) => process.send?.({ type: 'error', message: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });

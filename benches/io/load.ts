/**
 * Request-rate load for the static and compress cases: autocannon (as benches/http/cost.ts uses it) from
 * the runner's process against one server, its CPU time read from /proc over the timed run only.
 */
import autocannon from 'autocannon';
import { cpuMicros, type Running } from './harness.js';

export interface LoadSettings {
  connections: number;
  /** Seconds timed. */
  duration: number;
  /** Seconds of the same load before the timed run (JIT, connection pools, caches). */
  warmup: number;
}

export interface LoadRun {
  requestsPerSecond: number;
  /** Response bytes per second as autocannon counts them (head and body, as sent on the wire). */
  bytesPerSecond: number;
  /** Server CPU µs (user + system) per answered request. */
  cpuPerRequest: number;
  /** Requests that failed: socket errors, timeouts, non-2xx answers. */
  failed: number;
}

export async function timedLoad(
  server: Running,
  path: string,
  headers: Record<string, string>,
  settings: LoadSettings,
): Promise<LoadRun> {
  const options = { url: `${server.url}${path}`, headers, connections: settings.connections };
  if (settings.warmup > 0) await autocannon({ ...options, duration: settings.warmup });
  const before = cpuMicros(server.pid);
  const result = await autocannon({ ...options, duration: settings.duration });
  const used = cpuMicros(server.pid) - before;
  const answered = result.requests.total;
  return {
    requestsPerSecond: answered / settings.duration,
    bytesPerSecond: result.throughput.total / settings.duration,
    cpuPerRequest: answered > 0 ? used / answered : Number.NaN,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

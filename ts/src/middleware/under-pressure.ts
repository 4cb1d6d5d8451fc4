/**
 * Load shedding, as `@fastify/under-pressure` does it: the process samples its event-loop delay
 * (`perf_hooks.monitorEventLoopDelay`), heap and resident memory on a period, and while any is past its
 * threshold every request is answered 503 with `Retry-After` before any work is done for it, so that a
 * saturated process recovers instead of queueing more. The sampling starts with the middleware and stops
 * when the application closes (its `onClose`), as `@fastify/under-pressure` stops with its Fastify instance.
 */
import type { monitorEventLoopDelay } from 'node:perf_hooks';
import { HttpError } from '../core/errors.js';
import type { Middleware } from '../core/middleware.js';

/** Options of {@link underPressure}; a threshold left out is not checked. */
export interface UnderPressureOptions {
  /** The mean event-loop delay over a sample period past which requests are refused, in milliseconds. */
  maxEventLoopDelay?: number;
  /** `process.memoryUsage().heapUsed` past which requests are refused, in bytes. */
  maxHeapUsedBytes?: number;
  /** `process.memoryUsage().rss` past which requests are refused, in bytes. */
  maxRssBytes?: number;
  /** The `Retry-After` sent with the 503, in seconds; default 10. */
  retryAfter?: number;
  /** How often the process is sampled, in milliseconds; default 1000. */
  sampleIntervalMs?: number;
}

/** What the sampler needs of the application: a hook run when it closes (an `Application` is one). */
export interface CloseSource {
  /** Runs `hook` when the application closes. */
  onClose(hook: () => void): unknown;
}

/** The event-loop delay monitor's resolution, in milliseconds (its own timer's delay is subtracted). */
const RESOLUTION_MS = 10;

type DelayHistogram = ReturnType<typeof monitorEventLoopDelay>;

/**
 * Answers 503 with `Retry-After` while the process is past a threshold. Register it first, and mount the
 * health routes before it if the probes must get through (a liveness probe refused under load would get
 * a busy process restarted). The sampling stops when `app` closes.
 *
 * @example
 * app.middleware(underPressure(app, { maxEventLoopDelay: 1_000, maxHeapUsedBytes: 1_000_000_000 }));
 */
export function underPressure(app: CloseSource, options: UnderPressureOptions = {}): Middleware {
  const { maxEventLoopDelay, maxHeapUsedBytes, maxRssBytes } = options;
  const retryAfter = String(options.retryAfter ?? 10);
  const interval = options.sampleIntervalMs ?? 1000;
  let histogram: DelayHistogram | null = null;
  if (maxEventLoopDelay !== undefined) {
    histogram = process
      .getBuiltinModule('node:perf_hooks')
      .monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  }
  let pressure: string | null = null;
  const sample = () => {
    pressure = null;
    if (histogram !== null && maxEventLoopDelay !== undefined) {
      const mean = histogram.mean / 1e6 - RESOLUTION_MS;
      histogram.reset();
      if (mean > maxEventLoopDelay) pressure = 'event loop delay';
    }
    if (maxHeapUsedBytes !== undefined || maxRssBytes !== undefined) {
      const memory = process.memoryUsage();
      if (maxHeapUsedBytes !== undefined && memory.heapUsed > maxHeapUsedBytes) pressure ??= 'heap';
      if (maxRssBytes !== undefined && memory.rss > maxRssBytes) pressure ??= 'resident memory';
    }
  };
  // Unref'd: sampling never keeps a process alive on its own. Stopped with the application, so that an
  // application closed (a test's, one replaced in a long-lived process) leaves no timer and no monitor.
  const timer = setInterval(sample, interval).unref();
  app.onClose(() => {
    clearInterval(timer);
    histogram?.disable();
    pressure = null;
  });
  return function underPressure(req, next) {
    if (pressure !== null)
      throw new HttpError(503, `Service Unavailable: under pressure (${pressure})`, {
        headers: { 'Retry-After': retryAfter },
      });
    return next.handle(req);
  };
}

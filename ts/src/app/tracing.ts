/**
 * The request pipeline's `diagnostics_channel` events, published as Node publishes its own (`http.client.*`,
 * undici's `tracing:undici.*`) and Fastify its handler (`tracing:fastify.request.handler`): a
 * `TracingChannel` per phase worth a span, so that a tracer (OpenTelemetry: `arbor-router/otel`), a metrics
 * collector or a profiler subscribes to what it needs and the framework names none of them.
 *
 * - `arbor.request` — the whole request, from its arrival at the kernel to its answer being known, with
 *   the matched route's pattern once routing found it;
 * - `arbor.request.handler` — the route's handler (or the fallback), its thrown error included.
 *
 * Each publishes `tracing:<name>:start`, `:end`, `:asyncStart`, `:asyncEnd` and `:error`, with one context
 * object per request (and per handler call) that the subscriber may extend. Whether the answer came at once
 * or later, `asyncEnd` marks the phase's end, with `result` (the `Response`) or `error` set: the pipeline
 * stays synchronous while every step is, and a subscriber need not know which way a request went.
 * `start` runs the context's bound stores (`start.bindStore`), so a tracer's context is the active one
 * while the phase runs.
 *
 * Nothing is published, and nothing is allocated, while a channel has no subscriber: the kernel asks
 * `hasSubscribers` once per request (and per handler call), and takes its plain path when it is false.
 */
import type { TracingChannel } from 'node:diagnostics_channel';
import type { Outcome } from '../core/outcome.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import type { IncomingInput } from '../http/dispatch.js';

const channels = process.getBuiltinModule('node:diagnostics_channel');

/** The context of an `arbor.request` event: the request as it arrived, then its route and its answer. */
export interface RequestTrace {
  /** The request as the transport handed it over: method, target, headers, the client's address. */
  readonly input: IncomingInput;
  /**
   * The matched route's pattern, group prefixes applied (`/tasks/:id`); `null` until routing matched, and
   * for a request no route matched (a 404, a 405, an automatic OPTIONS, the fallback, a redirect).
   */
  route: string | null;
  /** The application's `Request`, once built (a request refused before routing, a 414 say, has none). */
  request: Request | null;
  /** The answer (set at `asyncEnd`); errors are answers by then: a handler's throw is a 500 here. */
  result?: Response;
  /** Only a bug makes this set: the kernel turns every error into an answer. */
  error?: unknown;
}

/** The context of an `arbor.request.handler` event. */
export interface HandlerTrace {
  /** The request as the handler gets it. */
  readonly request: Request;
  /** The route's pattern; `null` for the fallback. */
  readonly route: string | null;
  /** What the handler answered (set at `asyncEnd`). */
  result?: Response;
  /** What the handler threw or rejected with (published on `error`, then `asyncEnd`). */
  error?: unknown;
}

/** `tracing:arbor.request:*`: the whole request, with its matched route. */
export const requestChannel: TracingChannel<object, RequestTrace> = channels.tracingChannel('arbor.request');

/** `tracing:arbor.request.handler:*`: the route's handler. */
export const handlerChannel: TracingChannel<object, HandlerTrace> =
  channels.tracingChannel('arbor.request.handler');

/** The names of the two channels, for `diagnostics_channel.tracingChannel(name)`. */
export const TRACING_CHANNELS = Object.freeze({
  request: 'arbor.request',
  handler: 'arbor.request.handler',
});

/** Serves `input` through `serve`, publishing the request's events around it. */
export function traceRequest(input: IncomingInput, serve: (trace: RequestTrace) => Outcome): Outcome {
  const trace: RequestTrace = { input, route: null, request: null };
  return traced(requestChannel, trace, () => serve(trace));
}

/** Notes what routing found: the matched route's pattern (or none) and the request built for it. */
export function routed(
  trace: RequestTrace,
  route: { route: { pattern: string } } | null,
  request: Request,
): void {
  trace.route = route === null ? null : route.route.pattern;
  trace.request = request;
}

/** Calls `call` (a handler) with its events published around it. */
export function traceHandler(request: Request, call: () => Outcome): Outcome {
  const trace: HandlerTrace = { request, route: request.route?.pattern ?? null };
  return traced(handlerChannel, trace, call);
}

/**
 * `run` inside `channel`'s events: `start` (with its stores bound), then `end` once `run` returned, then
 * `asyncStart` and `asyncEnd` once the answer is known, now or later; `error` before them when it threw or
 * rejected (and the error goes on). The same order as `TracingChannel.tracePromise`, for an outcome that
 * may be immediate.
 */
function traced<T extends { result?: Response; error?: unknown }>(
  channel: TracingChannel<object, T>,
  context: T,
  run: () => Outcome,
): Outcome {
  return channel.start.runStores(context, () => {
    let outcome: Outcome;
    try {
      outcome = run();
    } catch (error) {
      context.error = error;
      channel.error.publish(context);
      channel.end.publish(context);
      channel.asyncStart.publish(context);
      channel.asyncEnd.publish(context);
      throw error;
    }
    if (outcome instanceof Response) {
      context.result = outcome;
      channel.end.publish(context);
      channel.asyncStart.publish(context);
      channel.asyncEnd.publish(context);
      return outcome;
    }
    channel.end.publish(context);
    return outcome.then(
      (result) => {
        context.result = result;
        channel.asyncStart.publish(context);
        channel.asyncEnd.publish(context);
        return result;
      },
      (error: unknown) => {
        context.error = error;
        channel.error.publish(context);
        channel.asyncStart.publish(context);
        channel.asyncEnd.publish(context);
        throw error;
      },
    );
  });
}

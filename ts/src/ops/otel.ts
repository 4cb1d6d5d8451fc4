/**
 * `arbor-router/otel`: OpenTelemetry traces from the pipeline's tracing channels (app/tracing.ts), on
 * `@opentelemetry/api` alone, shaped as an OpenTelemetry instrumentation so that `@opentelemetry/sdk-node`
 * takes it in its `instrumentations` list, as it takes `@fastify/otel`.
 *
 * Two cases, told apart per request by what is active when the request arrives:
 *
 * - The HTTP instrumentation (`@opentelemetry/instrumentation-http`) made the server span (node:http and
 *   node:https). It leaves its RPC metadata in the active context, under a key any copy of the API names
 *   alike; the route is written there (the instrumentation then names its span `GET /tasks/:id` and sets
 *   `http.route` itself when the response closes), and on the span, with a 5xx's error.
 * - Nothing made one (Arbor's own server, HTTP/2, `app.fetch()`, node:http without the HTTP
 *   instrumentation): this module makes the server span, with the attributes of the HTTP semantic
 *   conventions the HTTP instrumentation sets, its parent taken from the request's `traceparent`.
 *
 * The span (the server span, then the handler span) is made the active context while the phase runs,
 * through the channels' bound stores, so that spans the handler starts (a database call, an outgoing
 * request) are its children.
 *
 * @module arbor-router/otel
 */

import type { AsyncLocalStorage } from 'node:async_hooks';
import type { TracingChannelSubscribers } from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { type HandlerTrace, handlerChannel, type RequestTrace, requestChannel } from '../app/tracing.js';
import { HttpError } from '../core/errors.js';
import type { HeaderSource } from '../core/request.js';
import { StreamBody } from '../core/response.js';
import { KNOWN_METHODS } from './http-methods.js';

/** The HTTP instrumentation's context key (`@opentelemetry/core`'s RPC metadata): a `Symbol.for` of its text. */
const RPC_METADATA = createContextKey('OpenTelemetry SDK Context Key RPC_METADATA');

/** What the HTTP instrumentation leaves under {@link RPC_METADATA}; `route` is read when its span ends. */
interface RpcMetadata {
  type: string;
  span: Span;
  route?: string;
}

/** Query parameters whose values never reach a span (signed URLs), as the HTTP instrumentation redacts them. */
const REDACTED_QUERY = new Set(['AWSAccessKeyId', 'Signature', 'sig', 'X-Goog-Signature']);

/** Options of {@link ArborInstrumentation}. */
export interface ArborInstrumentationConfig {
  /** `false` makes the instrumentation start disabled (`enable()` turns it on); default `true`. */
  enabled?: boolean;
  /** A span per handler call, child of the server span (`handler /tasks/:id`); default `true`. */
  handlerSpans?: boolean;
}

/** What this module keeps on a request's trace object (the channels let subscribers extend it). */
const STATE = Symbol('arbor.otel');

/** The same state in the request's context, where its handler's events find it. */
const REQUEST_STATE = createContextKey('arbor-router request');

interface RequestState {
  /** The server span: the HTTP instrumentation's, or the one made here. */
  span: Span;
  /** The HTTP instrumentation's metadata, when it made the span; `null` when the span is this module's. */
  rpc: RpcMetadata | null;
  /** What the handler threw, recorded on the server span when the answer is a 5xx. */
  thrown: unknown;
}

type Traced<T> = T & { [STATE]?: RequestState };
type TracedHandler = HandlerTrace & { [STATE]?: Span };

const headerGetter: TextMapGetter<HeaderSource> = {
  get: (headers, key) => headers.get(key),
  keys: (headers) => [...headers.all().keys()],
};

/**
 * Traces Arbor's requests with OpenTelemetry. Enabled once constructed (as OpenTelemetry's own
 * instrumentations are); give it to the SDK, or construct it after registering a tracer provider.
 *
 * @example
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
 * import { ArborInstrumentation } from 'arbor-router/otel';
 *
 * new NodeSDK({ instrumentations: [new HttpInstrumentation(), new ArborInstrumentation()] }).start();
 * // node:http: the HTTP instrumentation's span becomes `GET /tasks/:id`, with `http.route`;
 * // server: 'arbor', HTTP/2, app.fetch(): this instrumentation makes that server span itself.
 */
export class ArborInstrumentation {
  /** The instrumentation's name, as OpenTelemetry lists it (the tracer's name too). */
  readonly instrumentationName = 'arbor-router';
  /** The instrumentation's version. */
  readonly instrumentationVersion = '0.1.0';
  #config: ArborInstrumentationConfig;
  #provider: TracerProvider | null = null;
  #tracer: Tracer;
  #enabled = false;
  readonly #requestStore = contextStore();
  readonly #handlerStore = contextStore();
  // Only the phases listened to: node subscribes the handlers given, the types ask for all five.
  readonly #requestEvents = {
    asyncEnd: (trace: RequestTrace) => this.#requestEnded(trace),
  } as TracingChannelSubscribers<RequestTrace>;
  readonly #handlerEvents = {
    error: (trace: HandlerTrace) => this.#handlerFailed(trace),
    asyncEnd: (trace: HandlerTrace) => this.#handlerEnded(trace),
  } as TracingChannelSubscribers<HandlerTrace>;

  constructor(config: ArborInstrumentationConfig = {}) {
    this.#config = { ...config };
    this.#tracer = trace.getTracer(this.instrumentationName, this.instrumentationVersion);
    if (config.enabled !== false) this.enable();
  }

  /** Subscribes to Arbor's tracing channels (nothing is published, and nothing costs, until then). */
  enable(): void {
    if (this.#enabled) return;
    this.#enabled = true;
    requestChannel.start.bindStore(this.#requestStore, (trace) => this.#requestStarted(trace));
    requestChannel.subscribe(this.#requestEvents);
    if (this.#config.handlerSpans !== false) {
      handlerChannel.start.bindStore(this.#handlerStore, (trace) => this.#handlerStarted(trace));
      handlerChannel.subscribe(this.#handlerEvents);
    }
  }

  /** Unsubscribes: requests publish nothing again. */
  disable(): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    requestChannel.start.unbindStore(this.#requestStore);
    requestChannel.unsubscribe(this.#requestEvents);
    handlerChannel.start.unbindStore(this.#handlerStore);
    handlerChannel.unsubscribe(this.#handlerEvents);
  }

  /** The tracer provider to take spans from (the SDK calls it); the global one until then. */
  setTracerProvider(provider: TracerProvider): void {
    this.#provider = provider;
    this.#tracer = provider.getTracer(this.instrumentationName, this.instrumentationVersion);
  }

  /** Arbor records no metrics through OpenTelemetry (see `arbor-router/metrics` for Prometheus): ignored. */
  setMeterProvider(_provider: unknown): void {}

  /** The configuration, with `enabled` as it is now. */
  getConfig(): ArborInstrumentationConfig {
    return { ...this.#config, enabled: this.#enabled };
  }

  /** Replaces the configuration (`handlerSpans` applies from the next `enable()`). */
  setConfig(config: ArborInstrumentationConfig): void {
    const enabled = this.#enabled;
    if (enabled) this.disable();
    this.#config = { ...config };
    if (enabled) this.enable();
  }

  /** The tracer provider given by {@link setTracerProvider}, `null` while the global one is used. */
  get tracerProvider(): TracerProvider | null {
    return this.#provider;
  }

  /** `arbor.request` starts: find the HTTP instrumentation's span, or make the server span. */
  #requestStarted(request: Traced<RequestTrace>): Context {
    const active = context.active();
    const rpc = active.getValue(RPC_METADATA) as RpcMetadata | undefined;
    if (rpc !== undefined && rpc.type === 'http' && rpc.span !== undefined) {
      const state: RequestState = { span: rpc.span, rpc, thrown: undefined };
      request[STATE] = state;
      return active.setValue(REQUEST_STATE, state);
    }
    const { input } = request;
    const parent = propagation.extract(active, input.headers, headerGetter);
    const span = this.#tracer.startSpan(
      KNOWN_METHODS.has(input.method) ? input.method : 'HTTP',
      { kind: SpanKind.SERVER, attributes: requestAttributes(request) },
      parent,
    );
    const state: RequestState = { span, rpc: null, thrown: undefined };
    request[STATE] = state;
    return trace.setSpan(parent, span).setValue(REQUEST_STATE, state);
  }

  /** The answer is known: name the span after the route, set the status; end a span made here. */
  #requestEnded(request: Traced<RequestTrace>): void {
    const state = request[STATE];
    if (state === undefined) return;
    const { span, rpc } = state;
    const method = request.input.method;
    const route = request.route;
    if (route !== null) {
      if (rpc !== null) rpc.route = route;
      span.setAttribute('http.route', route);
      span.updateName(`${KNOWN_METHODS.has(method) ? method : 'HTTP'} ${route}`);
    }
    const result = request.result;
    const status = result === undefined ? 500 : result.getStatus();
    if (status >= 500) {
      const thrown = state.thrown ?? request.error;
      if (thrown instanceof Error) {
        span.recordException(thrown);
        span.setAttribute('error.type', thrown.name);
        span.setStatus({ code: SpanStatusCode.ERROR, message: thrown.message });
      } else {
        span.setAttribute('error.type', String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    // The HTTP instrumentation ends its own span when the response closes.
    if (rpc !== null) return;
    span.setAttribute('http.response.status_code', status);
    const client = request.request?.ip;
    if (client !== undefined && client !== '') span.setAttribute('client.address', client);
    const body = result?.getBody();
    if (body instanceof StreamBody && !body.readable.destroyed) {
      // A streamed answer ends when the server has read it all (or it was cut).
      body.readable.once('close', () => span.end());
    } else {
      span.end();
    }
  }

  #handlerStarted(handler: TracedHandler): Context {
    const active = context.active();
    const route = handler.route;
    const span = this.#tracer.startSpan(
      `handler ${route ?? 'fallback'}`,
      {
        kind: SpanKind.INTERNAL,
        attributes:
          route === null ? { 'arbor.type': 'handler' } : { 'arbor.type': 'handler', 'http.route': route },
      },
      active,
    );
    handler[STATE] = span;
    return trace.setSpan(active, span);
  }

  /** A handler threw: an error of its span, and of the server span if the answer is a 5xx. */
  #handlerFailed(handler: TracedHandler): void {
    const error = handler.error;
    // An HttpError below 500 is an answer the handler chose (a 404), not a failure.
    if (error instanceof HttpError && error.status < 500) return;
    const span = handler[STATE];
    if (span !== undefined && error instanceof Error) {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    const request = activeRequest();
    if (request !== undefined) request.thrown = error;
  }

  #handlerEnded(handler: TracedHandler): void {
    handler[STATE]?.end();
  }
}

/** The state of the request being served: in the context its start made active (the handler's inherits it). */
function activeRequest(): RequestState | undefined {
  return context.active().getValue(REQUEST_STATE) as RequestState | undefined;
}

/**
 * A store for a channel's `bindStore` that makes its value OpenTelemetry's active context, on whatever
 * context manager is registered: node asks a bound store for `run` or `withScope` only.
 */
function contextStore(): AsyncLocalStorage<object> {
  return { run: runIn, withScope: scopeOf } as unknown as AsyncLocalStorage<object>;
}

/** Node 22 and 24 run a bound store's `run(value, fn)`. */
function runIn<T>(value: Context, fn: () => T): T {
  return context.with(value, fn);
}

/**
 * Node 26 enters a bound store with `withScope(value)` and leaves it by disposing what it returned: the
 * API's `context.attach` (1.10 and later) does exactly that; an older API activates nothing.
 */
function scopeOf(value: Context): Disposable {
  const attach = (context as { attach?: (value: Context) => { dispose(): void } }).attach;
  if (attach === undefined) return { [Symbol.dispose]: () => {} };
  const token = attach.call(context, value);
  return { [Symbol.dispose]: () => token.dispose() };
}

/** The request's attributes as the HTTP semantic conventions name them (what is known before routing). */
function requestAttributes(request: RequestTrace): Attributes {
  const { input } = request;
  const headers = input.headers;
  const method = input.method;
  const attributes: Attributes = {
    'http.request.method': KNOWN_METHODS.has(method) ? method : '_OTHER',
    'url.scheme': headers.get(':scheme') ?? 'http',
  };
  if (!KNOWN_METHODS.has(method)) attributes['http.request.method_original'] = method;
  const target = input.target;
  const queryAt = target.indexOf('?');
  attributes['url.path'] = queryAt === -1 ? target : target.slice(0, queryAt);
  if (queryAt !== -1 && queryAt < target.length - 1)
    attributes['url.query'] = redact(target.slice(queryAt + 1));
  const host = headers.get('host');
  if (host !== undefined) {
    const { address, port } = splitHost(host);
    attributes['server.address'] = address;
    if (port !== null) attributes['server.port'] = port;
  }
  if (input.ip !== '') attributes['network.peer.address'] = input.ip;
  // Arbor's own server reads the peer's port off the socket (node:http's span is the HTTP
  // instrumentation's, which sets it from the same place).
  const peerPort = (input as { peerPort?: number }).peerPort;
  if (peerPort !== undefined) attributes['network.peer.port'] = peerPort;
  const version = protocolVersion(input, headers);
  if (version !== null) attributes['network.protocol.version'] = version;
  const agent = headers.get('user-agent');
  if (agent !== undefined) attributes['user_agent.original'] = agent;
  return attributes;
}

/** `1.1`, `1.0` (Arbor's own server reads it from the head) or `2` (HTTP/2's pseudo-headers); else unknown. */
function protocolVersion(input: RequestTrace['input'], headers: HeaderSource): string | null {
  const minor = (input as { head?: { minor?: number } }).head?.minor;
  if (typeof minor === 'number') return `1.${minor}`;
  return headers.get(':method') === undefined ? null : '2';
}

function splitHost(host: string): { address: string; port: number | null } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (match === null) return { address: host, port: null };
  return { address: match[1] ?? host, port: match[2] === undefined ? null : Number(match[2]) };
}

function redact(query: string): string {
  let redacted = false;
  const parts = query.split('&').map((part) => {
    const name = part.slice(0, part.indexOf('=') === -1 ? part.length : part.indexOf('='));
    if (!REDACTED_QUERY.has(name)) return part;
    redacted = true;
    return `${name}=REDACTED`;
  });
  return redacted ? parts.join('&') : query;
}

/**
 * `arbor-router/metrics`: Prometheus metrics on `prom-client` (an optional peer dependency, loaded with
 * this entry only). A middleware counts and times every request by method, route pattern and status
 * class, and counts those in flight; a handler serves the exposition where the application mounts it.
 *
 * Labels are bounded whatever clients send: the route is the matched pattern (`/tasks/:id`), never the
 * path, and `""` for a request no route matched (a 404, a 405, an automatic OPTIONS, the fallback), so a
 * scan of random paths adds no series; a method outside HTTP's registered ones is `_OTHER`; the status is
 * its class (`2xx`).
 *
 * Under `run({ workers })` each worker counts its own requests, and a scrape, whichever worker answers
 * it, reports the whole process group: the worker asks the primary, which gathers every worker's metrics
 * with prom-client's `AggregatorRegistry` (counters and histograms summed). The primary runs the same
 * program, so the `metrics()` call that makes the middleware there also makes it answer those requests.
 *
 * @module arbor-router/metrics
 */
import type { Cluster } from 'node:cluster';
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  register as globalRegistry,
  Histogram,
  type Registry,
} from 'prom-client';
import { nodeBuiltin } from '../builtins.js';
import type { Middleware } from '../core/middleware.js';
import type { Request } from '../core/request.js';
import { type Response, StreamBody } from '../core/response.js';
import { KNOWN_METHODS } from './http-methods.js';

/** Options of {@link metrics}. */
export interface MetricsOptions {
  /** Where the metrics are registered and read from; default prom-client's global `register`. */
  registry?: Registry;
  /** Put before every metric's name (`myapp_`); default none. */
  prefix?: string;
  /**
   * The duration histogram's bucket bounds, in seconds; default the HTTP semantic conventions' advice for
   * `http.server.request.duration`: 5 ms to 10 s.
   */
  buckets?: number[];
  /** prom-client's default process metrics (CPU, memory, event-loop lag, GC, handles); default `true`. */
  defaultMetrics?: boolean;
  /**
   * Under `run({ workers })`: `true` (the default) makes a scrape report every worker; `false` the worker
   * that answered it.
   */
  aggregateWorkers?: boolean;
}

/** What {@link metrics} returns: the middleware to register, the handler to mount, and their registry. */
export interface Metrics {
  /** Counts and times each request: register it first (`app.middleware(m.middleware)`). */
  readonly middleware: Middleware;
  /** Answers the exposition in Prometheus's text format: `app.get('/metrics', m.handler)`. */
  readonly handler: (req: Request, res: Response) => Promise<Response>;
  /** The registry the metrics are in (add your own metrics to it). */
  readonly registry: Registry;
}

/** The HTTP semantic conventions' advice for a server's request duration histogram, in seconds. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The messages a worker and the primary exchange for an aggregated scrape. */
const ASK = 'arbor-router:metrics?';
const ANSWER = 'arbor-router:metrics!';

type Labels = 'method' | 'route' | 'status';

/**
 * Prometheus metrics for an application: `http_request_duration_seconds` (histogram) and
 * `http_requests_total` (counter), both by `method`, `route` and `status` class, and
 * `http_requests_in_flight` (gauge), plus prom-client's default process metrics.
 *
 * @example
 * import { metrics } from 'arbor-router/metrics';
 * const m = metrics();
 * app.middleware(m.middleware);
 * app.get('/metrics', m.handler);
 */
export function metrics(options: MetricsOptions = {}): Metrics {
  const registry = options.registry ?? globalRegistry;
  const prefix = options.prefix ?? '';
  const cluster = nodeBuiltin<Cluster>('node:cluster');
  const aggregate = options.aggregateWorkers !== false;
  if (aggregate) answerWorkers(cluster, registry);
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix });

  const labelNames: Labels[] = ['method', 'route', 'status'];
  const duration = new Histogram<Labels>({
    name: `${prefix}http_request_duration_seconds`,
    help: 'Time from the request reaching the application to its answer sent (a stream: its end), in seconds',
    labelNames,
    buckets: options.buckets ?? DEFAULT_BUCKETS,
    registers: [registry],
  });
  const total = new Counter<Labels>({
    name: `${prefix}http_requests_total`,
    help: 'Requests answered',
    labelNames,
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: `${prefix}http_requests_in_flight`,
    help: 'Requests being served',
    registers: [registry],
  });

  const middleware: Middleware = async function metrics(req, next) {
    const started = performance.now();
    inFlight.inc();
    let res: Response;
    try {
      res = await next.handle(req);
    } catch (error) {
      // Only a bug gets here (the kernel turns errors into answers before the application middleware).
      inFlight.dec();
      throw error;
    }
    const labels = {
      method: KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
      route: req.route?.pattern ?? '',
      status: STATUS_CLASSES[Math.floor(res.getStatus() / 100) - 1] ?? 'other',
    };
    const done = () => {
      inFlight.dec();
      total.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    };
    const body = res.getBody();
    // A streamed answer is timed to its end (or its cut), as a client sees it.
    if (body instanceof StreamBody && !body.readable.destroyed) body.readable.once('close', done);
    else done();
    return res;
  };

  const handler = async (_req: Request, res: Response): Promise<Response> => {
    const text = aggregate && cluster.isWorker ? await askPrimary(registry) : await registry.metrics();
    return res.header('Content-Type', registry.contentType).send(text);
  };

  return { middleware, handler, registry };
}

/** Set once per process: the primary answers workers' scrapes for every registry asked of it. */
let answering = false;

/**
 * In the primary: answers a worker's request for the group's metrics with prom-client's aggregation. In a
 * worker: lets prom-client answer the primary's requests for this worker's own metrics, from `registry`.
 */
function answerWorkers(cluster: Cluster, registry: Registry): void {
  const aggregator = new AggregatorRegistry();
  if (cluster.isWorker) {
    AggregatorRegistry.setRegistries([registry]);
    return;
  }
  if (answering) return;
  answering = true;
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message === null || typeof message !== 'object' || message.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    );
  });
}

let asked = 0;

/** In a worker: the whole group's exposition, from the primary; this worker's own if the primary cannot say. */
function askPrimary(registry: Registry): Promise<string> {
  const id = `${process.pid}:${asked++}`;
  return new Promise((resolve) => {
    const listener = (message: { type?: unknown; id?: unknown; text?: unknown }) => {
      if (message === null || typeof message !== 'object' || message.type !== ANSWER || message.id !== id)
        return;
      finish(typeof message.text === 'string' ? message.text : null);
    };
    const finish = (text: string | null) => {
      clearTimeout(timer);
      process.off('message', listener);
      if (text !== null) resolve(text);
      else resolve(registry.metrics());
    };
    // prom-client's own aggregation gives up after 5 s; past that the worker answers for itself.
    const timer = setTimeout(() => finish(null), 6000);
    process.on('message', listener);
    process.send?.({ type: ASK, id });
  });
}

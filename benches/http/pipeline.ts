/**
 * Arbor's own share of a request, without sockets: the node:http listener (`app.listener`) called in a
 * loop with stand-ins for `IncomingMessage` and `ServerResponse`, for the by-id and github mixes. What it
 * times is everything `cost.ts` charges to Arbor beyond node:http — the listener's checks, the kernel,
 * `router.find`, the Request and Response objects, JSON, the header list handed to `writeHead` — in
 * nanoseconds and without the ±40 % of a shared machine's loopback. Sub-microsecond changes to the
 * serving path are measured here first, then confirmed (no regression) with `cost.ts`.
 *
 *   node --import tsx benches/http/pipeline.ts [--mix by-id,github] [--rounds 7] [--requests 200000]
 *   (ARBOR_BENCH_FROM=dist: tsc's output, as the HTTP benchmark loads it; build it first)
 */
import { parseArgs } from 'node:util';
import { githubRoutes } from './github.js';
import { buildMix, type LoadRequest } from './mix.js';
import { NOT_FOUND_BODY, TaskStore } from './model.js';

type AppModule = typeof import('../../ts/src/app/index.js');

const { values: args } = parseArgs({
  options: {
    mix: { type: 'string', default: 'by-id,github' },
    rounds: { type: 'string', default: '7' },
    requests: { type: 'string', default: '200000' },
  },
});
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const { Application } = (
  fromDist
    ? await import(new URL('../../dist/ts/src/bundle/index.js', import.meta.url).href)
    : await import('../../ts/src/app/index.js')
) as AppModule;
const quiet = { debug() {}, info() {}, warn() {}, error: console.error };

function byIdApp() {
  const store = new TaskStore();
  const app = new Application({ logger: quiet });
  app.get('/tasks/:id', (req, res) => {
    const task = store.get(req.param('id') ?? '');
    return task ? res.json(task) : res.status(404).json(NOT_FOUND_BODY);
  });
  return app;
}

function githubApp() {
  const app = new Application({ order: 'specificity', logger: quiet });
  for (const { method, pattern } of githubRoutes()) {
    app.match([method], pattern, (req, res) => res.json({ route: pattern, params: req.params() }));
  }
  return app;
}

/** What the load generator's requests look like to node: a Host header and nothing else. */
function incoming(request: LoadRequest) {
  return {
    method: request.method,
    url: request.path,
    httpVersionMajor: 1,
    httpVersion: '1.1',
    rawHeaders: ['Host', '127.0.0.1:3000'],
    headers: { host: '127.0.0.1:3000' },
    socket: { remoteAddress: '127.0.0.1' },
  };
}

let sink = 0;
let failures = 0;
const response = {
  destroyed: false,
  socket: null,
  writableEnded: false,
  headersSent: false,
  writeHead(status: number, headers: string[]) {
    if (status !== 200) failures++;
    sink += headers.length;
  },
  end(body?: string) {
    sink += body?.length ?? 0;
  },
};

function time(listener: (req: unknown, res: unknown) => void, requests: ReturnType<typeof incoming>[]) {
  const total = Number(args.requests);
  const start = process.hrtime.bigint();
  for (let i = 0; i < total; i++) listener(requests[i % requests.length], response);
  return Number(process.hrtime.bigint() - start) / total;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
for (const mix of args.mix.split(',')) {
  const app = mix === 'github' ? githubApp() : byIdApp();
  app.ready();
  const listener = app.listener as unknown as (req: unknown, res: unknown) => void;
  const requests = buildMix(mix as 'by-id' | 'github').map(incoming);
  time(listener, requests); // warm-up: compiled code, the route table's first lookups
  const ns: number[] = [];
  for (let round = 0; round < Number(args.rounds); round++) ns.push(time(listener, requests));
  if (failures > 0) throw new Error(`${failures} answers were not 200`);
  console.log(
    `${mix.padEnd(8)} ${median(ns).toFixed(0).padStart(5)} ns/request (median of ${ns.length}; ` +
      `${Math.min(...ns).toFixed(0)}–${Math.max(...ns).toFixed(0)})${sink < 0 ? '' : ''}`,
  );
}

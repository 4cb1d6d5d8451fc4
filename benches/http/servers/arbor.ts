/**
 * Arbor: the tasks API written with `Application`, the same handlers and JSON as every other server of
 * the benchmark. The reference application in `ts/examples/tasks` adds logging and CORS middleware;
 * they are left out here because no other server has them (the soak test runs the full
 * reference application instead).
 */
import { NOT_FOUND_BODY, TaskStore, TITLE_REQUIRED_BODY, WELCOME } from '../model.js';
import { summarise } from '../orders.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

type AppModule = typeof import('../../../ts/src/app/index.js');
type ReferenceModule = typeof import('../../../tests/support/reference-engine/index.js');

// `ARBOR_BENCH_FROM=dist` (what run.ts picks when dist/ is up to date) loads tsc's output, as users run
// it; otherwise the sources go through tsx, whose transform adds small per-closure helpers (`__name`)
// that the other frameworks, plain JavaScript in node_modules, never pay.
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const dist = (path: string) => new URL(`../../../dist/${path}`, import.meta.url).href;
const { Application, consoleLogger } = (
  fromDist ? await import(dist('ts/src/bundle/index.js')) : await import('../../../ts/src/app/index.js')
) as AppModule;
const { createReferenceEngine } = (
  fromDist
    ? await import(dist('tests/support/reference-engine/index.js'))
    : await import('../../../tests/support/reference-engine/index.js')
) as ReferenceModule;

const store = new TaskStore();
// `--arbor-engine reference` (env ARBOR_BENCH_ENGINE) swaps in the TypeScript reference engine, to see
// what the WebAssembly engine is worth at the HTTP level; the default is the product's wasm engine.
const engine = process.env.ARBOR_BENCH_ENGINE === 'reference' ? { engine: createReferenceEngine } : {};
// `ARBOR_BENCH_VALIDATE=1` (the `arbor-validated` contender) checks every request against the annotations
// below, as the tasks reference application does (issue 17: validation may cost at most 5 %).
const validate = process.env.ARBOR_BENCH_VALIDATE === '1';
// `ARBOR_BENCH_SERVER=arbor` (the `arbor-own` contender): the same application on Arbor's own HTTP/1.1
// server instead of node:http (the default), to see what each server is worth.
const serverChoice = process.env.ARBOR_BENCH_SERVER === 'arbor' ? { server: 'arbor' as const } : {};
const app = new Application({
  ...engine,
  ...serverChoice,
  validate,
  port: 0,
  host: HOST,
  bodyLimit: BODY_LIMIT,
  // `run()`'s banner is dropped (info); errors and warnings still reach stderr.
  logger: { ...consoleLogger, info: () => {} },
});

/**
 * @response 200 The name and version of the API
 */
app.get('/', (_req, res) => res.json(WELCOME));
/**
 * @param {integer} offset.query.optional - Tasks to skip
 * @param {integer} limit.query.optional - Page size
 * @response 200 {array<Task>} The tasks
 */
app.get('/tasks', (_req, res) => res.json(store.list()));
/**
 * @param {string} id.path.required - The task id
 * @response 200 {Task} The task
 * @response 404 {Error} No task has this id
 */
app.get('/tasks/:id', (req, res) => {
  const task = store.get(req.param('id') ?? '');
  return task ? res.json(task) : res.status(404).json(NOT_FOUND_BODY);
});
/**
 * @param {string} title.body.required - What to do
 * @response 201 {Task} The new task
 */
app.post('/tasks', (req, res) => {
  const task = store.create(req.json());
  return task ? res.status(201).json(task) : res.status(400).json(TITLE_REQUIRED_BODY);
});
/**
 * @param {string} id.path.required - The task id
 * @param {string} title.body.optional - New title
 * @param {boolean} completed.body.optional - New state
 * @response 200 {Task} The merged task
 */
app.put('/tasks/:id', (req, res) => {
  const task = store.update(req.param('id') ?? '', req.json());
  return task ? res.json(task) : res.status(404).json(NOT_FOUND_BODY);
});
/**
 * @param {string} id.path.required - The task id
 * @response 204 Deleted
 */
app.delete('/tasks/:id', (req, res) => {
  if (store.delete(req.param('id') ?? '')) return res.status(204).send();
  return res.status(404).json(NOT_FOUND_BODY);
});

// The write path (`--mix post`): no annotations, so nothing but the JSON parse stands between body and handler
// (opted out of validation explicitly: a validated route without a contract is refused, never unchecked).
app
  .post('/orders/:shop', (req, res) =>
    res.json(
      summarise(
        req.param('shop') ?? '',
        req.query('channel'),
        req.query('priority'),
        req.query('coupon'),
        req.json(),
      ),
    ),
  )
  .validate(false);

/**
 * @schema Task
 * @property {string} id.required - Id
 * @property {string} title.required - What to do
 * @property {boolean} completed.required - Done yet
 * @property {string} created_at.required - Creation time
 */

/**
 * @schema Error
 * @property {string} error.required - What went wrong
 */

const server = app.run();
server.once('listening', () => announce(server));

/**
 * What the typed client costs the type checker: `tsc --noEmit` (the project's strict configuration) on
 *
 * - the tasks reference application alone, then with its generated client and a module calling every
 *   route (the before and after of adopting the client);
 * - a synthetic application of 500 routes (250 patterns, GET and POST each, parameters, query, body and
 *   three answers each, every route named) with its generated client, and a caller making 100 calls
 *   spread over the table, by pattern and by name; and 1,000 routes, to see how the cost grows;
 * - the handler side: 100 handlers reading `req.valid()`, with casts and no declarations, then typed by
 *   the `types:export` declarations of 1,000 doc-comment routes.
 *
 * Each is run `ROUNDS` times; the median wall time and the checker's own figures (`--extendedDiagnostics`:
 * check time, types created, memory) are reported. Run under the benchmark lock:
 *
 *     flock /tmp/arbor-bench.lock node --import tsx benches/client/typecheck.ts
 *
 * Writes benches/results/client-typecheck.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { Application } from '../../ts/src/app/index.js';
import { exportClient, exportRouteTypes } from '../../ts/src/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CLIENT_MODULE = join(ROOT, 'ts/src/client/index.js');

/** An application of `patterns` × 2 routes with code-first JSON Schema contracts. */
function syntheticApp(patterns: number): Application {
  const app = new Application();
  const item = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      title: { type: 'string', minLength: 1 },
      done: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      size: { type: 'integer' },
    },
    required: ['id', 'title', 'done'],
  } as const;
  const error = {
    type: 'object',
    properties: { error: { type: 'string' }, code: { type: 'integer' } },
  } as const;
  for (let i = 0; i < patterns; i++) {
    const params = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
    const query = {
      type: 'object',
      properties: { limit: { type: 'integer', default: 20 }, sort: { enum: ['asc', 'desc'] } },
    } as const;
    app
      .get(`/r${i}/items/:id`, { schema: { params, query, response: { 200: item, 404: error } } }, (_q, s) =>
        s.json({}),
      )
      .name(`r${i}.show`);
    app
      .post(
        `/r${i}/items/:id`,
        { schema: { params, body: item, response: { 201: item, 409: error } } },
        (_q, s) => s.status(201).json({}),
      )
      .name(`r${i}.store`);
  }
  return app;
}

/** A module calling `calls` routes of the synthetic client, by pattern and by name, reading a typed answer. */
function syntheticCaller(patterns: number, calls: number): string {
  let out =
    "import { createApiClient } from './client.js';\n\nconst api = createApiClient({ baseUrl: '' });\n\n";
  out += 'export async function calls(): Promise<number> {\n  let n = 0;\n';
  for (let c = 0; c < calls; c++) {
    const i = Math.floor((c * patterns) / calls);
    out +=
      c % 2 === 0
        ? `  { const a = await api.get('/r${i}/items/:id', { params: { id: '${c}' }, query: { limit: ${c} } }); if (a.status === 200) n += a.data.title.length; }\n`
        : `  { const a = await api.route('r${i}.store', { params: { id: '${c}' }, body: { id: 'x', title: 't', done: false } }); if (a.status === 201) n += a.data.tags?.length ?? 0; }\n`;
  }
  return `${out}  return n;\n}\n`;
}

/** The tasks client called once per route. */
const TASKS_CALLER = `import { createApiClient } from './client.js';

const api = createApiClient({ baseUrl: '' });

export async function calls(): Promise<number> {
  const home = await api.route('home');
  const created = await api.post('/tasks', { body: { title: 'x' } });
  const page = await api.get('/tasks', { query: { limit: 5 } });
  const id = (created.status === 201 ? created.data.id : undefined) ?? 'none';
  const shown = await api.get('/tasks/:id', { params: { id } });
  const updated = await api.put('/tasks/:id', { params: { id }, body: { completed: true } });
  const deleted = await api.delete('/tasks/:id', { params: { id } });
  return [home, page, shown, updated, deleted].filter((a) => a.ok).length;
}
`;

/** A module registering `patterns` × 2 doc-comment routes (a validated query on GET, a body on POST). */
function annotatedApp(patterns: number): string {
  let out = `import { Application } from '${join(ROOT, 'ts/src/app/index.js')}';\n\n`;
  out +=
    'export function createAnnotatedApp(): Application {\n  const app = new Application({ validate: true });\n';
  for (let i = 0; i < patterns; i++) {
    out += `  /**
   * @param {string} id.path.required - The id
   * @param {integer minimum=1 maximum=100 default=20} limit.query.optional - Page size
   * @param {string enum=["asc","desc"]} sort.query.optional - Order
   * @response 200 {object} The item
   */
  app.get('/r${i}/items/:id', (_q, s) => s.json({}));
  /**
   * @param {string minLength=1} title.body.required - Title
   * @param {boolean} done.body.optional - Done
   * @param {array<string>} tags.body.optional - Tags
   * @response 201 {object} Created
   */
  app.post('/r${i}/items/:id', (_q, s) => s.status(201).json({}));
`;
  }
  return `${out}  return app;\n}\n`;
}

/** A module registering `count` handlers of the declared routes that read `req.valid()` (with `typed`, without a cast). */
function handlers(patterns: number, count: number, typed: boolean): string {
  let out = `import { Application } from '${join(ROOT, 'ts/src/index.js')}';\n\nconst app = new Application();\n`;
  for (let c = 0; c < count; c++) {
    const i = Math.floor((c * patterns) / count);
    out +=
      c % 2 === 0
        ? `app.get('/r${i}/items/:id', (req, res) => res.json({ n: ${typed ? "req.valid('query').limit" : "(req.valid('query') as { limit: number }).limit"} + 1 }));\n`
        : `app.post('/r${i}/items/:id', (req, res) => res.json({ t: ${typed ? "req.valid('body').title" : "(req.valid('body') as { title: string }).title"}.length }));\n`;
  }
  return out;
}

interface Figures {
  wallMs: number;
  checkS: string;
  types: string;
  memory: string;
}

/** `tsc -p` on `files` with the repository's compiler options: the median wall time and the checker's figures. */
function check(dir: string, files: string[]): Figures {
  const config = join(dir, `tsconfig-${files.length}-${Date.now()}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: { noEmit: true, rootDir: '/', typeRoots: [join(ROOT, 'node_modules', '@types')] },
      files,
      include: [],
    }),
  );
  const times: number[] = [];
  let diagnostics = '';
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    try {
      diagnostics = execFileSync(TSC, ['-p', config, '--extendedDiagnostics', '--pretty', 'false'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    } catch (error) {
      throw new Error(
        `tsc failed on ${files.join(', ')}:\n${(error as { stdout?: string }).stdout ?? error}`,
      );
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const figure = (label: RegExp) => label.exec(diagnostics)?.[1]?.trim() ?? 'n/a';
  return {
    wallMs: times[Math.floor(times.length / 2)] as number,
    checkS: figure(/^Check time:\s+(.+)$/m),
    types: figure(/^Types:\s+(.+)$/m),
    memory: figure(/^Memory used:\s+(.+)$/m),
  };
}

// Outside node_modules: the annotations are read from the files that register routes, never from a package.
const work = mkdtempSync(join(tmpdir(), 'arbor-client-typecheck-'));
writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
try {
  const rows: [string, Figures][] = [];
  const tasks = join(work, 'tasks');
  mkdirSync(tasks);
  const tasksApp = join(ROOT, 'ts/examples/tasks/app.ts');
  writeFileSync(join(tasks, 'client.ts'), exportClient(createTasksApp(), { clientModule: CLIENT_MODULE }));
  writeFileSync(join(tasks, 'calls.ts'), TASKS_CALLER);
  rows.push(['tasks application alone (before)', check(tasks, [tasksApp])]);
  rows.push([
    'tasks application + its client + a call per route (after)',
    check(tasks, [tasksApp, join(tasks, 'calls.ts')]),
  ]);
  for (const patterns of [250, 500]) {
    const dir = join(work, `synthetic-${patterns}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'client.ts'),
      exportClient(syntheticApp(patterns), { clientModule: CLIENT_MODULE }),
    );
    writeFileSync(join(dir, 'calls.ts'), syntheticCaller(patterns, 100));
    rows.push([`${patterns * 2}-route client module alone`, check(dir, [join(dir, 'client.ts')])]);
    rows.push([`${patterns * 2}-route client + 100 calls`, check(dir, [join(dir, 'calls.ts')])]);
  }
  // The handler side: RouteContracts entries from doc comments, read by every registration.
  for (const patterns of [500]) {
    const dir = join(work, `declared-${patterns}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'annotated.ts'), annotatedApp(patterns));
    const { createAnnotatedApp } = (await import(join(dir, 'annotated.ts'))) as {
      createAnnotatedApp(): Application;
    };
    writeFileSync(
      join(dir, 'routes.d.ts'),
      exportRouteTypes(createAnnotatedApp(), { module: join(ROOT, 'ts/src/index.js') }),
    );
    writeFileSync(join(dir, 'handlers.ts'), handlers(patterns, 100, false));
    writeFileSync(join(dir, 'handlers-typed.ts'), handlers(patterns, 100, true));
    rows.push(['100 handlers, no declarations', check(dir, [join(dir, 'handlers.ts')])]);
    rows.push([
      `100 handlers reading req.valid() typed by ${patterns * 2} declared routes`,
      check(dir, [join(dir, 'handlers-typed.ts'), join(dir, 'routes.d.ts')]),
    ]);
  }
  const tscVersion = execFileSync(TSC, ['--version'], { encoding: 'utf8' }).trim();
  const report = `# Typed client: type-check cost

Generated by \`benches/client/typecheck.ts\`: \`tsc --noEmit --extendedDiagnostics\` with the repository's
strict options, median wall time of ${ROUNDS} runs (the whole process: start, parse, bind, check); the checker's own figures are the last run's. The
synthetic applications have two routes per pattern (GET and POST), each with path, query or body and three
documented answers, every route named; their callers make 100 calls by pattern and by name. The handler
rows register 100 routes whose handlers read \`req.valid()\`: with casts and no declarations, then typed by
the \`types:export\` declarations of 1,000 doc-comment routes. ${tscVersion},
Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}.

| Program | wall ms (median) | check time | types | memory |
|---|--:|--:|--:|--:|
${rows.map(([label, f]) => `| ${label} | ${f.wallMs.toFixed(0)} | ${f.checkS} | ${f.types} | ${f.memory} |`).join('\n')}
`;
  mkdirSync(join(ROOT, 'benches/results'), { recursive: true });
  writeFileSync(join(ROOT, 'benches/results/client-typecheck.md'), report);
  process.stdout.write(report);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The tasks reference application (ts/examples/tasks) on Bun, Deno and workerd: bundled from its
 * TypeScript against the built package, given its compiled contracts (`arbor contracts:export`, written
 * from its doc comments on Node), served through `app.fetch`, and walked through its API — create, list
 * with pagination, show, update, delete, every refusal its contract and the framework answer, CORS, the
 * OpenAPI document and the docs page — as Node walks the same application in process, reading its
 * sources. Each step must hold on every runtime, and answer with Node's status and media type.
 *
 * Runs once per `npm test` (ARBOR_RUNTIMES=1), as runtimes.test.ts does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { assertPresent, prerequisitesRequired } from '../support/prerequisites.js';
import {
  missingRuntime,
  RUNTIMES,
  type RuntimeName,
  type RuntimeServer,
  type ServedApp,
  startRuntime,
  tasksApp,
} from './servers.js';

const enabled = process.env.ARBOR_RUNTIMES === '1';
const missing = missingRuntime();

interface Answer {
  status: number;
  type: string | null;
  headers: Headers;
  text: string;
}
type Send = (path: string, init?: RequestInit) => Promise<Answer>;

const JSON_TYPE = { 'content-type': 'application/json' };
const post = (body: string): RequestInit => ({ method: 'POST', headers: JSON_TYPE, body });
const put = (body: string): RequestInit => ({ method: 'PUT', headers: JSON_TYPE, body });
// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions, not by types.
const json = (answer: Answer): any => JSON.parse(answer.text);

/** One step of the walk: what to send (given what earlier steps answered) and what must hold. */
interface Step {
  name: string;
  send: (state: State) => [string, RequestInit?];
  expect: (answer: Answer, state: State) => void;
}
interface State {
  id: string;
  created: Record<string, unknown>;
}

const STEPS: Step[] = [
  {
    name: 'GET / → the name and version',
    send: () => ['/'],
    expect: (a) => expect(json(a)).toEqual({ message: expect.any(String), version: '1.0.0' }),
  },
  {
    name: 'GET /tasks → an empty list',
    send: () => ['/tasks'],
    expect: (a) => {
      expect(json(a)).toEqual([]);
      expect(a.headers.get('x-total-count')).toBe('0');
    },
  },
  {
    name: 'POST /tasks → 201, the task and its Location',
    send: () => ['/tasks', post('{"title":"Write the docs"}')],
    expect: (a, state) => {
      expect(a.status).toBe(201);
      const task = json(a);
      expect(task).toEqual({
        id: expect.any(String),
        title: 'Write the docs',
        completed: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
      expect(a.headers.get('location')).toBe(`/tasks/${task.id}`);
      state.id = task.id;
      state.created = task;
    },
  },
  {
    name: 'GET /tasks/:id → the task',
    send: (s) => [`/tasks/${s.id}`],
    expect: (a, s) => expect(json(a)).toEqual(s.created),
  },
  {
    name: 'PUT /tasks/:id → the merged task, id and created_at kept',
    send: (s) => [`/tasks/${s.id}`, put('{"completed":true,"id":"hijack","created_at":"yesterday"}')],
    expect: (a, s) => expect(json(a)).toEqual({ ...s.created, completed: true }),
  },
  {
    name: 'GET /tasks?limit=1&offset=0 → one task, the total in X-Total-Count',
    send: () => ['/tasks?limit=1&offset=0'],
    expect: (a) => {
      expect(json(a)).toHaveLength(1);
      expect(a.headers.get('x-total-count')).toBe('1');
    },
  },
  ...(['limit=0', 'limit=101', 'limit=x', 'offset=-1'] as const).map(
    (query): Step => ({
      name: `GET /tasks?${query} → 400 from the contract`,
      send: () => [`/tasks?${query}`],
      expect: (a) => {
        expect(a.status).toBe(400);
        expect(json(a)).toMatchObject({ code: 400, details: [expect.objectContaining({ in: 'query' })] });
      },
    }),
  ),
  {
    name: 'POST /tasks with a blank title → 400 naming the title',
    send: () => ['/tasks', post('{"title":"   "}')],
    expect: (a) => {
      expect(a.status).toBe(400);
      expect(json(a).error).toMatch(/title/);
    },
  },
  {
    name: 'POST /tasks with null → 400, the body must be an object',
    send: () => ['/tasks', post('null')],
    expect: (a) =>
      expect(json(a)).toEqual({
        error: 'The body must be a JSON object',
        code: 400,
        details: [{ in: 'body', name: '', pointer: '', keyword: 'type', message: 'must be object' }],
      }),
  },
  {
    name: 'POST /tasks with malformed JSON → 400',
    send: () => ['/tasks', post('{"title":')],
    expect: (a) => {
      expect(a.status).toBe(400);
      expect(json(a).error).toMatch(/Malformed JSON/);
    },
  },
  {
    name: 'PUT /tasks/:id with completed "yes" → 400',
    send: (s) => [`/tasks/${s.id}`, put('{"completed":"yes"}')],
    expect: (a) => expect(a.status).toBe(400),
  },
  {
    name: 'GET /tasks/nope → 404 Task not found',
    send: () => ['/tasks/nope'],
    expect: (a) => {
      expect(a.status).toBe(404);
      expect(json(a)).toMatchObject({ error: 'Task not found' });
    },
  },
  {
    name: 'PATCH /tasks → 405 with Allow',
    send: () => ['/tasks', { method: 'PATCH' }],
    expect: (a) => {
      expect(a.status).toBe(405);
      expect(a.headers.get('allow')).toMatch(/GET/);
    },
  },
  {
    name: 'CORS: the three headers on an answer',
    send: () => ['/tasks', { headers: { origin: 'https://app.example' } }],
    expect: (a) => {
      expect(a.headers.get('access-control-allow-origin')).toBe('*');
      expect(a.headers.get('access-control-allow-headers')).toBe('Content-Type');
    },
  },
  {
    name: 'DELETE /tasks/:id → 204, then 404',
    send: (s) => [`/tasks/${s.id}`, { method: 'DELETE' }],
    expect: (a) => expect([a.status, a.text]).toEqual([204, '']),
  },
  {
    name: 'GET /tasks/:id of the deleted task → 404',
    send: (s) => [`/tasks/${s.id}`],
    expect: (a) => expect(a.status).toBe(404),
  },
  {
    name: 'GET /api/docs.json → the OpenAPI document from the doc comments',
    send: () => ['/api/docs.json'],
    expect: (a) => {
      const document = json(a);
      expect(document.info.title).toBe('Tasks API');
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/tasks', '/tasks/{id}']));
      expect(document.paths['/tasks'].post.requestBody).toBeDefined();
      expect(document.components.schemas.Task.required).toEqual(['id', 'title', 'completed', 'created_at']);
    },
  },
  {
    name: 'GET /docs → the docs page',
    send: () => ['/docs'],
    expect: (a) => {
      expect(a.status).toBe(200);
      expect(a.type).toMatch(/^text\/html/);
      expect(a.text).toContain('Tasks API');
    },
  },
];

/** Walks every step with `send`, in order; returns each step's answer. */
async function walk(send: Send): Promise<Answer[]> {
  const state: State = { id: '', created: {} };
  const answers: Answer[] = [];
  for (const step of STEPS) {
    const [path, init] = step.send(state);
    const answer = await send(path, init);
    answers.push(answer);
    try {
      step.expect(answer, state);
    } catch {
      // Reported by the step's own test; the walk goes on, later steps needing what earlier ones created.
    }
  }
  return answers;
}

const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  type: response.headers.get('content-type'),
  headers: response.headers,
  text: await response.text(),
});

describe.skipIf(!enabled || (missing !== null && !prerequisitesRequired))(
  'the tasks reference application on Node, Bun, Deno and workerd',
  () => {
    let dir = '';
    let served: ServedApp;
    let node: Answer[] = [];
    afterAll(() => {
      if (dir !== '') rmSync(dir, { recursive: true, force: true });
    });

    beforeAll(async () => {
      assertPresent(missing);
      dir = mkdtempSync(join(tmpdir(), 'arbor-runtime-tasks-'));
      served = await tasksApp(dir);
      const app = createTasksApp({ requestLog: { info: () => {} } });
      node = await walk(async (path, init) =>
        answerOf(await app.fetch(new Request(`http://127.0.0.1${path}`, init))),
      );
    }, 60_000);

    test.each(STEPS.map((step, i) => ({ ...step, i })))('Node (app.fetch in process): $name', ({ i }) => {
      const step = STEPS[i] as Step;
      step.expect(node[i] as Answer, { id: 'x', created: json(node[2] as Answer) });
    });

    describe.each(Object.keys(RUNTIMES) as RuntimeName[])('%s', (runtime) => {
      let server: RuntimeServer;
      let answers: Answer[] = [];
      beforeAll(async () => {
        server = await startRuntime(runtime, served);
        answers = await walk(async (path, init) => answerOf(await fetch(new URL(path, server.origin), init)));
      }, 60_000);
      afterAll(() => server?.close());

      test.each(STEPS.map((step, i) => ({ ...step, i })))('$name', ({ i }) => {
        const step = STEPS[i] as Step;
        const answer = answers[i] as Answer;
        const created = json(answers[2] as Answer);
        step.expect(answer, { id: created.id, created });
        const reference = node[i] as Answer;
        expect({ status: answer.status, type: answer.type }).toEqual({
          status: reference.status,
          type: reference.type,
        });
      });
    });
  },
);

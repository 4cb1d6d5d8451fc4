/** The tasks reference application, route by route, over both transports. */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { MAX_TASKS, MAX_TITLE_LENGTH, TaskStore } from '../../ts/examples/tasks/store.js';
import { memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from '../app/support/engine.js';
import { type Client, transports } from '../app/support/transport.js';

const json = { 'Content-Type': 'application/json' };

describe.each(transports)('tasks API over $name (original 4.7)', (transport) => {
  let client: Client;
  let log: ReturnType<typeof memoryLogger>;
  beforeEach(async () => {
    log = memoryLogger();
    client = await transport.connect(createTasksApp({ config: withEngine(), requestLog: log }));
  });
  afterEach(() => client.close());
  const create = async (title: unknown) =>
    client.request('/tasks', { method: 'POST', headers: json, body: JSON.stringify({ title }) });

  test('GET / → 200 { message, version }', async () => {
    const reply = await client.request('/');
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ message: expect.any(String), version: '1.0.0' });
  });

  test('GET /tasks → 200 list of Task', async () => {
    expect((await client.request('/tasks')).json()).toEqual([]);
    const task = (await create('one')).json();
    const reply = await client.request('/tasks');
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual([task]);
  });

  test('POST /tasks → 201 Task with a generated id, completed false, created_at Y-m-d H:i:s', async () => {
    const reply = await create('Write the docs');
    expect(reply.status).toBe(201);
    const task = reply.json();
    expect(task).toEqual({
      id: expect.any(String),
      title: 'Write the docs',
      completed: false,
      created_at: expect.any(String),
    });
    expect(task.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(`${task.created_at.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
    expect(reply.headers.get('location')).toBe(`/tasks/${task.id}`);
    expect((await create('another')).json().id).not.toBe(task.id);
  });

  test.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['not a string', 42],
  ])('POST /tasks with the title %s → 400 { error }', async (_label, title) => {
    const reply = await create(title);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatch(/title/);
  });

  test.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['a string', '"title"'],
    ['a number', '123'],
  ])(
    'POST /tasks with the JSON body %s → 400 { error, code } (issue 16: null was a 500)',
    async (_label, body) => {
      const reply = await client.request('/tasks', { method: 'POST', headers: json, body });
      expect(reply.status).toBe(400);
      // Validation's answer (issue 17): the documented error and code, and the violation in `details`.
      expect(reply.json()).toEqual({
        error: 'The body must be a JSON object',
        code: 400,
        details: [{ in: 'body', name: '', pointer: '', keyword: 'type', message: 'must be object' }],
      });
      const put = await client.request(`/tasks/${(await create('x')).json().id}`, {
        method: 'PUT',
        headers: json,
        body,
      });
      expect(put.status).toBe(400);
    },
  );

  test(`a title over ${MAX_TITLE_LENGTH} characters → 400, on POST and PUT`, async () => {
    expect((await create('t'.repeat(MAX_TITLE_LENGTH))).status).toBe(201);
    const long = await create('t'.repeat(MAX_TITLE_LENGTH + 1));
    expect(long.status).toBe(400);
    expect(long.json().details).toEqual([
      {
        in: 'body',
        name: 'title',
        pointer: '/title',
        keyword: 'maxLength',
        message: 'must NOT have more than 200 characters',
      },
    ]);
    const task = (await create('short')).json();
    const put = await client.request(`/tasks/${task.id}`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ title: 'x'.repeat(1024 * 512) }),
    });
    expect(put.status).toBe(400);
  });

  test('GET /tasks is paginated: limit (default 20, at most 100) and offset; X-Total-Count', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await create(`task ${i}`)).json().id);
    const first = await client.request('/tasks');
    expect(first.json().map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 20));
    expect(first.headers.get('x-total-count')).toBe('25');
    const page = await client.request('/tasks?offset=20&limit=3');
    expect(page.json().map((t: { id: string }) => t.id)).toEqual(ids.slice(20, 23));
    expect((await client.request('/tasks?offset=25')).json()).toEqual([]);
    expect((await client.request('/tasks?limit=100')).json()).toHaveLength(25);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'offset=-1', 'offset=1.5']) {
      const bad = await client.request(`/tasks?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.json().code).toBe(400);
    }
  });

  test('GET /tasks/:id → 200 Task; unknown id → 404 { error }', async () => {
    const task = (await create('find me')).json();
    expect((await client.request(`/tasks/${task.id}`)).json()).toEqual(task);
    const missing = await client.request('/tasks/nope');
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Task not found' });
  });

  test('PUT /tasks/:id → 200 merged Task (id and created_at kept); unknown id → 404', async () => {
    const task = (await create('draft')).json();
    const reply = await client.request(`/tasks/${task.id}`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ completed: true, id: 'hijack', created_at: 'yesterday' }),
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ ...task, completed: true });
    expect((await client.request(`/tasks/${task.id}`)).json().completed).toBe(true);
    const renamed = await client.request(`/tasks/${task.id}`, {
      method: 'PUT',
      headers: json,
      body: '{"title":"final"}',
    });
    expect(renamed.json()).toEqual({ ...task, completed: true, title: 'final' });
    const missing = await client.request('/tasks/nope', { method: 'PUT', headers: json, body: '{}' });
    expect(missing.status).toBe(404);
    expect(missing.json().error).toBe('Task not found');
    const bad = await client.request(`/tasks/${task.id}`, {
      method: 'PUT',
      headers: json,
      body: '{"completed":"yes"}',
    });
    expect(bad.status).toBe(400);
  });

  test('DELETE /tasks/:id → 204 empty; unknown id → 404', async () => {
    const task = (await create('bye')).json();
    const reply = await client.request(`/tasks/${task.id}`, { method: 'DELETE' });
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect((await client.request(`/tasks/${task.id}`)).status).toBe(404);
    const again = await client.request(`/tasks/${task.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.json().error).toBe('Task not found');
  });

  test('logging middleware: one line per request with method, path and milliseconds', async () => {
    await client.request('/tasks');
    await client.request('/tasks/x');
    expect(log.lines).toHaveLength(2);
    expect(log.lines[0]).toMatch(/^GET \/tasks 200 \d+\.\dms$/);
    expect(log.lines[1]).toMatch(/^GET \/tasks\/x 404 \d+\.\dms$/);
  });

  test('CORS middleware: the three default headers on every answer', async () => {
    for (const reply of [
      await client.request('/tasks'),
      await create(''),
      await client.request('/tasks/x'),
    ]) {
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS');
      expect(reply.headers.get('access-control-allow-headers')).toBe('Content-Type');
    }
  });

  test('named routes generate their URLs', async () => {
    const app = createTasksApp({ config: withEngine() });
    expect(app.route('tasks.show', { id: 'a b' })).toBe('/tasks/a%20b');
  });
});

describe('the task store is bounded (issue 16)', () => {
  test(`the demo keeps at most ${MAX_TASKS} tasks: then 409 { error, code }, until one is deleted`, async () => {
    const store = new TaskStore({ capacity: 3 });
    const app = createTasksApp({ config: withEngine(), store });
    const post = (title: string) =>
      app.fetch(
        new Request('http://x/tasks', { method: 'POST', headers: json, body: JSON.stringify({ title }) }),
      );
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c']) ids.push(((await (await post(title)).json()) as { id: string }).id);
    const full = await post('d');
    expect(full.status).toBe(409);
    expect(await full.json()).toEqual({
      error: 'The task list is full (3 tasks): delete some first',
      code: 409,
    });
    expect((await app.fetch(new Request(`http://x/tasks/${ids[0]}`, { method: 'DELETE' }))).status).toBe(204);
    expect((await post('d')).status).toBe(201);
    expect(new TaskStore().capacity).toBe(MAX_TASKS);
  });
});

describe('the suite proves the document (issue 17: validate: { responses: true } throws under test)', () => {
  test('a task that breaks the documented Task schema is a 500 naming the route, not a passing test', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    class CorruptStore extends TaskStore {
      override get(id: string) {
        const task = super.get(id);
        return task === undefined ? undefined : { ...task, completed: 'yes' as unknown as boolean };
      }
    }
    const logger = memoryLogger();
    const app = createTasksApp({
      store: new CorruptStore(),
      config: withEngine({ logger }),
      requestLog: logger,
    });
    const created = await app.fetch(
      new Request('http://x/tasks', { method: 'POST', headers: json, body: '{"title":"t"}' }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await app.fetch(new Request(`http://x/tasks/${id}`))).status).toBe(500);
    expect(logger.errors.map((e) => e.message).join('\n')).toMatch(
      /GET \/tasks\/:id answered 200, which does not match its documented schema: completed must be boolean/,
    );
  });
});

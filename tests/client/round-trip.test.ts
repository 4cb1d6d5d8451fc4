/**
 * The generated clients against the running applications, on node:http, on Arbor's own server and
 * through `app.fetch`: every route of the tasks application called once through its client (parameters
 * that need percent-encoding among them), validation refusals coming back as typed 400 answers, and the
 * echo application showing that path values, wildcards, constrained values and repeated query keys reach
 * the handler as themselves — a property over arbitrary text, not a list of cases.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { createTasksApp } from '../../ts/examples/tasks/app.js';
import { type Application, memoryLogger } from '../../ts/src/app/index.js';
import { ClientError, type ClientOptions, encodePathValue } from '../../ts/src/client/index.js';
import { createEchoApp } from './echo-app.js';
import { createApiClient as echoClient } from './generated/echo-client.js';
import { createApiClient as tasksClient } from './generated/tasks-client.js';

interface Connection {
  options: ClientOptions;
  close(): Promise<void>;
}

type Server = 'node' | 'arbor';

interface Way {
  name: string;
  /** The application's config for this way (the server it listens with). */
  server: Server;
  connect(app: Application): Promise<Connection>;
}

/** The application (configured with its server) listening on a free loopback port. */
const listening = async (app: Application): Promise<Connection> => {
  const http = app.createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return { options: { baseUrl: `http://127.0.0.1:${port}` }, close: () => http.closeGracefully(1000) };
};

const WAYS: Way[] = [
  { name: 'node:http', server: 'node', connect: listening },
  { name: "Arbor's own server", server: 'arbor', connect: listening },
  {
    name: 'app.fetch',
    server: 'node',
    connect: async (app) => ({
      options: { baseUrl: 'http://arbor.test', fetch: (input, init) => app.fetch(new Request(input, init)) },
      close: async () => {},
    }),
  },
];

describe.each(WAYS)('the tasks client over $name', (way) => {
  let connection: Connection | undefined;
  afterEach(() => connection?.close());
  const connect = async () => {
    const app = createTasksApp({ config: { server: way.server }, requestLog: memoryLogger() });
    connection = await way.connect(app);
    return tasksClient(connection.options);
  };

  test('every route once, answers typed by status', async () => {
    const api = await connect();
    const home = await api.route('home');
    expect(home.status).toBe(200);

    const created = await api.post('/tasks', { body: { title: 'Write the docs' } });
    if (created.status !== 201) throw new Error(`expected 201, got ${created.status}`);
    const task = created.data; // a Task: no cast
    const id = task.id ?? '(the tasks schema leaves id optional)';
    expect(task).toEqual({
      id: expect.any(String),
      title: 'Write the docs',
      completed: false,
      created_at: expect.any(String),
    });
    expect(created.response.headers.get('location')).toBe(`/tasks/${id}`);

    const page = await api.get('/tasks', { query: { offset: 0, limit: 5 } });
    expect(page.status === 200 && page.data.map((t) => t.id)).toEqual([id]);

    const shown = await api.route('tasks.show', { params: { id } });
    expect(shown.status === 200 && shown.data.title).toBe('Write the docs');

    const updated = await api.put('/tasks/:id', { params: { id }, body: { completed: true } });
    expect(updated.status === 200 && updated.data.completed).toBe(true);

    const deleted = await api.delete('/tasks/:id', { params: { id } });
    expect(deleted).toMatchObject({ status: 204, ok: true, data: null });
  });

  test.each(['a b', 'a/b', 'x?y#z', '100%', 'café ☕', '..a', '+plus+'])(
    'the id %j reaches the route as itself (a 404 naming no other task)',
    async (id) => {
      const api = await connect();
      const answer = await api.get('/tasks/:id', { params: { id } });
      expect(answer.status).toBe(404);
      // The URL the client built is the one the router decodes back to the value.
      expect(
        decodeURIComponent(api.url('GET /tasks/:id', { params: { id } }).split('/tasks/')[1] ?? ''),
      ).toBe(id);
    },
  );

  test('validation refusals come back as typed 400 answers with every violation', async () => {
    const api = await connect();
    const blank = await api.post('/tasks', { body: { title: '' } });
    if (blank.status !== 400) throw new Error(`expected 400, got ${blank.status}`);
    expect(blank.ok).toBe(false);
    // Typed as the route documents its 400 (the tasks app's `Error`); the refusal's `details` come with it.
    const code: number | undefined = blank.data.code;
    expect(code).toBe(400);
    expect(blank.data).toMatchObject({
      details: expect.arrayContaining([expect.objectContaining({ in: 'body', name: 'title' })]),
    });

    const range = await api.get('/tasks', { query: { limit: 1000, offset: -1 } });
    if (range.status !== 400) throw new Error(`expected 400, got ${range.status}`);
    const error: string | undefined = range.data.error;
    expect(error).toMatch(/limit|offset/);
    const { details } = range.data as { details?: { name: string }[] };
    expect(details?.map((d) => d.name).sort()).toEqual(['limit', 'offset']);
  });
});

describe.each(WAYS)('the echo client over $name', (way) => {
  let connection: Connection | undefined;
  afterEach(() => connection?.close());
  const connect = async () => {
    connection = await way.connect(createEchoApp({ server: way.server, logger: memoryLogger() }));
    return echoClient(connection.options);
  };

  test('a path value of any text reaches the handler as itself, with the repeated query key', async () => {
    const api = await connect();
    // Any well-formed text but the three a URL cannot carry as a segment: '', '.', '..'.
    const value = fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => s !== '.' && s !== '..');
    const tags = fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(value, tags, async (text, tag) => {
        const answer = await api.route('echo', { params: { value: text }, query: { tag, page: 2 } });
        expect(answer.status).toBe(200);
        expect(answer.data).toEqual({ value: text, tag, page: 2 });
      }),
      { numRuns: way.name === 'app.fetch' ? 200 : 50 },
    );
  });

  test('defaults apply, a wildcard keeps its slashes, a constraint sees the characters it admits raw', async () => {
    const api = await connect();
    const echo = await api.get('/echo/:value', { params: { value: 'x' } });
    expect(echo.data).toEqual({ value: 'x', tag: [], page: 1 });
    const files = await api.route('files', { params: { '*': 'a b/c%d/é' } });
    expect(files.data).toEqual({ path: 'a b/c%d/é' });
    const spec = await api.get('/pkg/:spec<[\\w.@+~-]+>', { params: { spec: 'left-pad@1.3.0+build~1' } });
    expect(spec.status).toBe(200);
    expect(spec.data).toEqual({ spec: 'left-pad@1.3.0+build~1' });
    expect(encodePathValue('left-pad@1.3.0+build~1')).toBe('left-pad@1.3.0+build~1');
  });

  test('a code-first route: typed body and query, its refusal a typed 400', async () => {
    const api = await connect();
    const note = await api.route('notes.create', { body: { text: 'hello' }, query: { draft: 'yes' } });
    expect(note.status === 201 && note.data).toEqual({ text: 'hello', tags: [], draft: true });
    const empty = await api.post('/notes', { body: { text: '' } });
    expect(empty.status).toBe(400);
    expect(empty.status === 400 && 'details' in empty.data && empty.data.details[0]?.name).toBe('text');
  });

  test('an undocumented status is a ClientError carrying the answer, a bad parameter one before any fetch', async () => {
    const api = await connect();
    const teapot = await api.get('/teapot').then(
      () => null,
      (error: unknown) => error,
    );
    expect(teapot).toBeInstanceOf(ClientError);
    expect(teapot).toMatchObject({ code: 'UNDOCUMENTED_STATUS', status: 418, data: { code: 418 } });
    await expect(api.get('/echo/:value', { params: { value: '..' } })).rejects.toMatchObject({
      code: 'UNSENDABLE_PARAMETER',
    });
    await expect(api.get('/echo/:value', { params: { value: '' } })).rejects.toMatchObject({
      code: 'MISSING_PARAMETER',
    });
  });
});

test('a network failure rejects as fetch rejects it', async () => {
  const api = tasksClient({ baseUrl: 'http://127.0.0.1:9' });
  await expect(api.route('home')).rejects.toBeInstanceOf(TypeError);
});

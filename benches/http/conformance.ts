/**
 * Before anything is timed, every server must answer the tasks API correctly (same statuses, same JSON),
 * so that a broken or short-cutting server cannot "win". A server with failures is still measured but is
 * flagged in the report.
 */
import { isDeepStrictEqual } from 'node:util';
import { TaskStore, WELCOME } from './model.js';

interface Answer {
  status: number;
  type: string;
  body: unknown;
}

async function call(base: string, method: string, path: string, body?: string): Promise<Answer> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = body;
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: kept as text (only the status is checked on such answers).
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: parsed };
}

const hasError = (body: unknown) => typeof (body as { error?: unknown } | null)?.error === 'string';

/** Runs the checks against a fresh server; returns the failures (empty: conforming). */
export async function checkConformance(base: string): Promise<string[]> {
  const failures: string[] = [];
  const expect = (label: string, ok: boolean, got: Answer) => {
    if (!ok) failures.push(`${label}: got ${got.status} ${JSON.stringify(got.body)?.slice(0, 120)}`);
  };
  const json = (a: Answer) => a.type.startsWith('application/json');
  const seed = new TaskStore().list();
  const first = seed[0];
  if (first === undefined) throw new Error('empty seed');

  const root = await call(base, 'GET', '/');
  expect(
    'GET / → 200 welcome',
    root.status === 200 && json(root) && isDeepStrictEqual(root.body, WELCOME),
    root,
  );
  const list = await call(base, 'GET', '/tasks');
  expect(
    'GET /tasks → 200 seed list',
    list.status === 200 && json(list) && isDeepStrictEqual(list.body, seed),
    list,
  );
  const one = await call(base, 'GET', `/tasks/${first.id}`);
  expect(
    'GET /tasks/:id → 200 task',
    one.status === 200 && json(one) && isDeepStrictEqual(one.body, first),
    one,
  );
  const missing = await call(base, 'GET', '/tasks/no-such-task');
  expect('GET /tasks/unknown → 404 {error}', missing.status === 404 && hasError(missing.body), missing);

  const empty = await call(base, 'POST', '/tasks', '{}');
  expect('POST /tasks {} → 400 {error}', empty.status === 400 && hasError(empty.body), empty);
  const malformed = await call(base, 'POST', '/tasks', '{"title":');
  expect('POST /tasks malformed JSON → 400', malformed.status === 400, malformed);

  const created = await call(base, 'POST', '/tasks', JSON.stringify({ title: 'Write the benchmark' }));
  const task = created.body as { id?: unknown; title?: unknown; completed?: unknown; created_at?: unknown };
  const createdOk =
    created.status === 201 &&
    typeof task?.id === 'string' &&
    task.title === 'Write the benchmark' &&
    task.completed === false &&
    typeof task.created_at === 'string' &&
    /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(task.created_at);
  expect('POST /tasks → 201 task', createdOk, created);
  if (!createdOk) return failures;
  const id = task.id as string;

  const updated = await call(base, 'PUT', `/tasks/${id}`, JSON.stringify({ completed: true }));
  expect(
    'PUT /tasks/:id → 200 merged',
    updated.status === 200 && isDeepStrictEqual(updated.body, { ...task, completed: true }),
    updated,
  );
  const putMissing = await call(base, 'PUT', '/tasks/no-such-task', '{}');
  expect('PUT /tasks/unknown → 404', putMissing.status === 404 && hasError(putMissing.body), putMissing);
  const deleted = await call(base, 'DELETE', `/tasks/${id}`);
  expect('DELETE /tasks/:id → 204 empty', deleted.status === 204 && deleted.body === undefined, deleted);
  const gone = await call(base, 'GET', `/tasks/${id}`);
  expect('GET deleted task → 404', gone.status === 404, gone);
  const deleteMissing = await call(base, 'DELETE', `/tasks/${id}`);
  expect(
    'DELETE /tasks/unknown → 404',
    deleteMissing.status === 404 && hasError(deleteMissing.body),
    deleteMissing,
  );
  return failures;
}

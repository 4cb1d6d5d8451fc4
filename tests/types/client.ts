/**
 * The typed client of the tasks reference application (tests/client/generated/tasks-client.ts, written
 * by `arbor client:export`): answers typed by status without a cast, and the mistakes a caller makes —
 * a wrong body, a missing or mistyped parameter, an unknown route or name, a status the route does not
 * document — refused by the type checker. Compiled by tests/types/route-params.test.ts: every line must
 * compile, and every line under a `@ts-expect-error` must not.
 */
import { expectTypeOf } from 'vitest';
import { type Answer, ClientError } from '../../ts/src/client/index.js';
import { type Error as ApiError, createApiClient, type Task } from '../client/generated/tasks-client.js';

const api = createApiClient({ baseUrl: 'http://localhost:3000', init: { credentials: 'include' } });

export async function answersTypedByStatus(): Promise<void> {
  const shown = await api.get('/tasks/:id', { params: { id: 'a b' } }, { signal: AbortSignal.timeout(1000) });
  if (shown.status === 200) {
    expectTypeOf(shown.data).toEqualTypeOf<Task>();
    expectTypeOf(shown.ok).toEqualTypeOf<true>();
  } else {
    expectTypeOf(shown.status).toEqualTypeOf<404>();
    // The tasks app's `@schema Error` marks its properties required.
    expectTypeOf(shown.data.error).toEqualTypeOf<string>();
  }
  // @ts-expect-error GET /tasks/:id documents 200 and 404, not 500
  const never500 = shown.status === 500;

  const page = await api.get('/tasks', { query: { limit: 10 } });
  if (page.ok) expectTypeOf(page.data).toEqualTypeOf<Task[]>();
  else expectTypeOf(page).toEqualTypeOf<Answer<400, false, ApiError>>();

  const byName = await api.route('tasks.show', { params: { id: 'x' } });
  expectTypeOf(byName.status).toEqualTypeOf<200 | 404>();
  const deleted = await api.delete('/tasks/:id', { params: { id: '1' } });
  if (deleted.status === 204) expectTypeOf(deleted.data).toEqualTypeOf<null>();

  try {
    await api.route('home');
  } catch (error) {
    if (error instanceof ClientError) expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
  }
  return void never500;
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error the title is a string
  await api.post('/tasks', { body: { title: 42 } });
  // @ts-expect-error POST /tasks needs its body
  await api.post('/tasks');
  // @ts-expect-error the path parameter is missing
  await api.get('/tasks/:id', { params: {} });
  // @ts-expect-error the id is declared a string
  await api.get('/tasks/:id', { params: { id: 42 } });
  // @ts-expect-error limit is an integer, not text
  await api.get('/tasks', { query: { limit: 'ten' } });
  // @ts-expect-error no route has this pattern
  await api.get('/task');
  // @ts-expect-error no route answers PATCH /tasks/:id
  await api.patch('/tasks/:id', { params: { id: '1' } });
  // @ts-expect-error no route has this name
  await api.route('tasks.shwo', { params: { id: '1' } });
  // @ts-expect-error no such key
  await api.request('GET /nowhere');
}

/** Hono 4 on @hono/node-server (its default SmartRouter), defaults otherwise. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { NOT_FOUND_BODY, TaskStore, TITLE_REQUIRED_BODY, WELCOME } from '../model.js';
import { summarise } from '../orders.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const store = new TaskStore();
const app = new Hono();

async function readJson(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

app.use('/tasks/*', bodyLimit({ maxSize: BODY_LIMIT }));
app.use('/tasks', bodyLimit({ maxSize: BODY_LIMIT }));
app.get('/', (c) => c.json(WELCOME));
app.get('/tasks', (c) => c.json(store.list()));
app.get('/tasks/:id', (c) => {
  const task = store.get(c.req.param('id'));
  return task ? c.json(task) : c.json(NOT_FOUND_BODY, 404);
});
app.post('/tasks', async (c) => {
  const body = await readJson(c);
  if (body === undefined) return c.json({ error: 'Malformed JSON' }, 400);
  const task = store.create(body);
  return task ? c.json(task, 201) : c.json(TITLE_REQUIRED_BODY, 400);
});
app.put('/tasks/:id', async (c) => {
  const body = await readJson(c);
  if (body === undefined) return c.json({ error: 'Malformed JSON' }, 400);
  const task = store.update(c.req.param('id'), body);
  return task ? c.json(task) : c.json(NOT_FOUND_BODY, 404);
});
app.delete('/tasks/:id', (c) => {
  if (store.delete(c.req.param('id'))) return c.body(null, 204);
  return c.json(NOT_FOUND_BODY, 404);
});
// The write path (`--mix post`), under the same body limit as the other servers.
app.use('/orders/*', bodyLimit({ maxSize: BODY_LIMIT }));
app.post('/orders/:shop', async (c) => {
  const body = await readJson(c);
  if (body === undefined) return c.json({ error: 'Malformed JSON' }, 400);
  const { req } = c;
  return c.json(
    summarise(req.param('shop'), req.query('channel'), req.query('priority'), req.query('coupon'), body),
  );
});

const server = serve({ fetch: app.fetch, port: 0, hostname: HOST }, () => announce(server as Server));

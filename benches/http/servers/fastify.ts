/** Fastify 5 with its defaults (no logger, no response schema: the same JSON.stringify as the others). */
import Fastify from 'fastify';
import { NOT_FOUND_BODY, TaskStore, TITLE_REQUIRED_BODY, WELCOME } from '../model.js';
import { summarise } from '../orders.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const store = new TaskStore();
const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT });

type ById = { Params: { id: string } };

app.get('/', async () => WELCOME);
app.get('/tasks', async () => store.list());
app.get<ById>('/tasks/:id', async (req, reply) => {
  const task = store.get(req.params.id);
  return task ?? reply.code(404).send(NOT_FOUND_BODY);
});
app.post('/tasks', async (req, reply) => {
  const task = store.create(req.body);
  return task ? reply.code(201).send(task) : reply.code(400).send(TITLE_REQUIRED_BODY);
});
app.put<ById>('/tasks/:id', async (req, reply) => {
  const task = store.update(req.params.id, req.body);
  return task ?? reply.code(404).send(NOT_FOUND_BODY);
});
app.delete<ById>('/tasks/:id', async (req, reply) => {
  if (store.delete(req.params.id)) return reply.code(204).send();
  return reply.code(404).send(NOT_FOUND_BODY);
});
// The write path (`--mix post`): the body parsed by Fastify's default JSON parser (secure-json-parse).
type Order = { Params: { shop: string }; Querystring: Record<string, string | undefined> };
app.post<Order>('/orders/:shop', async (req) =>
  summarise(req.params.shop, req.query.channel, req.query.priority, req.query.coupon, req.body),
);

await app.listen({ port: 0, host: HOST });
announce(app.server);

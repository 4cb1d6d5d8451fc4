/** Express 5 with its defaults (weak ETags and `X-Powered-By` included: that is what users run). */
import { createServer } from 'node:http';
import express from 'express';
import { NOT_FOUND_BODY, TaskStore, TITLE_REQUIRED_BODY, WELCOME } from '../model.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const store = new TaskStore();
const app = express();
app.use(express.json({ limit: BODY_LIMIT }));

app.get('/', (_req, res) => {
  res.json(WELCOME);
});
app.get('/tasks', (_req, res) => {
  res.json(store.list());
});
app.get('/tasks/:id', (req, res) => {
  const task = store.get(req.params.id);
  if (task) res.json(task);
  else res.status(404).json(NOT_FOUND_BODY);
});
app.post('/tasks', (req, res) => {
  const task = store.create(req.body);
  if (task) res.status(201).json(task);
  else res.status(400).json(TITLE_REQUIRED_BODY);
});
app.put('/tasks/:id', (req, res) => {
  const task = store.update(req.params.id, req.body);
  if (task) res.json(task);
  else res.status(404).json(NOT_FOUND_BODY);
});
app.delete('/tasks/:id', (req, res) => {
  if (store.delete(req.params.id)) res.status(204).end();
  else res.status(404).json(NOT_FOUND_BODY);
});

// JSON errors (malformed bodies → 400, oversize → 413) instead of the default HTML page and stderr trace.
app.use(
  (error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = typeof error.status === 'number' ? error.status : 500;
    res.status(status).json({ error: status === 500 ? 'Internal Server Error' : 'Bad Request' });
  },
);

const server = createServer(app);
server.listen(0, HOST, () => announce(server));

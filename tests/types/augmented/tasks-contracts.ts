/**
 * `req.valid(part)` of doc-comment routes typed by the generated declarations of the tasks application
 * (`arbor types:export`, checked in beside this file): coerced types, a default making a key present, no
 * cast, in a closure and in a controller method (`RouteRequest`). Kept out of `tsconfig.check.json` with
 * the other augmentations (the declarations would type every other test's `/tasks` routes), compiled alone
 * by tests/types/route-params.test.ts: every line must compile, and every line under a
 * `@ts-expect-error` must not.
 */
import { expectTypeOf } from 'vitest';
import { Application, type Response, type RouteRequest } from '../../../ts/src/index.js';
// Importing the declarations (for `Task`) brings their augmentation into the program.
import type { Task } from './tasks-routes.js';

const app = new Application({ validate: true });

app.get('/tasks', (req, res) => {
  const { offset, limit } = req.valid('query');
  // Integers coerced from the query string, present once validated: their defaults apply.
  expectTypeOf(offset).toEqualTypeOf<number>();
  expectTypeOf(limit).toEqualTypeOf<number>();
  // @ts-expect-error the query declares no page
  const page = req.valid('query').page;
  return res.json({ offset, limit, page });
});

app.post('/tasks', (req, res) => {
  expectTypeOf(req.valid('body')).toEqualTypeOf<{ title: string }>();
  // @ts-expect-error the title is a string
  const title: number = req.valid('body').title;
  return res.status(201).json({ title });
});

app.put('/tasks/:id', (req, res) => {
  const changes = req.valid('body');
  expectTypeOf(changes).toEqualTypeOf<{ title?: string; completed?: boolean }>();
  return res.json({ id: req.param('id'), ...changes });
});

// A route the declarations do not name is as it was: nothing validated is known.
app.get('/elsewhere', (req, res) => {
  expectTypeOf(req.valid('query')).toBeUnknown();
  return res.json({});
});

// A route's own schema wins over its generated entry.
app.group('/v2', (v2) => {
  v2.get('/tasks', (req, res) => {
    // @ts-expect-error '/v2/tasks' is not '/tasks': no entry, nothing known
    const limit: number = req.valid('query').limit;
    return res.json({ limit });
  });
});
const hard = {
  type: 'object',
  properties: { hard: { enum: ['yes', 'no'] } },
  required: ['hard'],
} as const;
app.delete('/tasks/:id', { schema: { query: hard } }, (req, res) => {
  expectTypeOf(req.valid('query')).toEqualTypeOf<{ hard: 'yes' | 'no' }>();
  return res.status(204).send();
});

// A controller method, registered as `[controller, 'index']`, types its request by the route's key.
export class TaskController {
  index(req: RouteRequest<'GET /tasks'>, res: Response): Response {
    const { offset, limit } = req.valid('query');
    return res.json(list(offset, limit));
  }

  update(req: RouteRequest<'PUT /tasks/:id'>, res: Response): Response {
    const id: string = req.param('id');
    // @ts-expect-error completed is a boolean when given
    const done: string | undefined = req.valid('body').completed;
    return res.json({ id, done });
  }
}

// @ts-expect-error no route has this key
export type Nowhere = RouteRequest<'GET /nowhere'>;

declare function list(offset: number, limit: number): Task[];

/**
 * The tasks API handlers, as a controller registered with `[controller, 'method']` array callables. The
 * application validates requests against the annotations in `app.ts` (`validate`) before a handler runs:
 * types, a title that is not blank and at most 200 characters, `offset` and `limit` within their bounds
 * and defaulted. A handler reads what was validated (`req.valid(part)`) and checks nothing itself; its
 * types come from `routes.d.ts`, which `arbor types:export` writes from the same annotations
 * (`RouteRequest<'GET /tasks'>`: no cast).
 */
import type { Request, Response, RouteRequest } from '../../src/app/index.js';
import type { Task, TaskStore } from './store.js';
import { API_VERSION } from './version.js';

const notFound = (res: Response) => res.status(404).json({ error: 'Task not found', code: 404 });

export class TaskController {
  readonly #store: TaskStore;

  constructor(store: TaskStore) {
    this.#store = store;
  }

  home(_req: Request, res: Response): Response {
    return res.json({ message: 'Arbor tasks and products API', version: API_VERSION });
  }

  index(req: RouteRequest<'GET /tasks'>, res: Response): Response {
    const { offset, limit } = req.valid('query');
    return res.header('X-Total-Count', this.#store.size).json(this.#store.list(offset, limit));
  }

  show(req: Request, res: Response): Response {
    const task = this.#store.get(req.param('id', ''));
    return task === undefined ? notFound(res) : res.json(task);
  }

  store(req: RouteRequest<'POST /tasks'>, res: Response): Response {
    const body = req.valid('body');
    if (this.#store.full) {
      return res.status(409).json({
        error: `The task list is full (${this.#store.capacity} tasks): delete some first`,
        code: 409,
      });
    }
    const task = this.#store.create(body.title);
    return res.status(201).header('Location', `/tasks/${task.id}`).json(task);
  }

  /** Merges the given fields over the stored task; `id` and `created_at` are kept. */
  update(req: RouteRequest<'PUT /tasks/:id'>, res: Response): Response {
    const id = req.param('id', '');
    if (this.#store.get(id) === undefined) return notFound(res);
    const { title, completed } = req.valid('body');
    const changes: Partial<Pick<Task, 'title' | 'completed'>> = {};
    if (title !== undefined) changes.title = title;
    if (completed !== undefined) changes.completed = completed;
    return res.json(this.#store.update(id, changes));
  }

  destroy(req: Request, res: Response): Response {
    return this.#store.delete(req.param('id', '')) ? res.status(204).send() : notFound(res);
  }
}

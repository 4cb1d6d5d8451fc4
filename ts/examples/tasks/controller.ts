/** The tasks API handlers, as a controller registered with `[controller, 'method']` array callables. */
import type { Request, Response } from '../../src/app/index.js';
import type { Task, TaskStore } from './store.js';
import { API_VERSION } from './version.js';

const notFound = (res: Response) => res.status(404).json({ error: 'Task not found', code: 404 });
const invalid = (res: Response, error: string) => res.status(400).json({ error, code: 400 });

export class TaskController {
  readonly #store: TaskStore;

  constructor(store: TaskStore) {
    this.#store = store;
  }

  home(_req: Request, res: Response): Response {
    return res.json({ message: 'Arbor tasks and products API', version: API_VERSION });
  }

  index(_req: Request, res: Response): Response {
    return res.json(this.#store.list());
  }

  show(req: Request, res: Response): Response {
    const task = this.#store.get(req.param('id', ''));
    return task === undefined ? notFound(res) : res.json(task);
  }

  store(req: Request, res: Response): Response {
    const { title } = req.json<{ title?: unknown }>();
    if (typeof title !== 'string' || title.trim() === '') {
      return invalid(res, 'The field "title" is required and must be a non-empty string');
    }
    const task = this.#store.create(title);
    return res.status(201).header('Location', `/tasks/${task.id}`).json(task);
  }

  /** Merges the given fields over the stored task; `id` and `created_at` are kept. */
  update(req: Request, res: Response): Response {
    const id = req.param('id', '');
    if (this.#store.get(id) === undefined) return notFound(res);
    const body = req.json<unknown>();
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return invalid(res, 'The body must be a JSON object');
    const { title, completed } = body as Record<string, unknown>;
    const changes: Partial<Pick<Task, 'title' | 'completed'>> = {};
    if (title !== undefined) {
      if (typeof title !== 'string' || title.trim() === '')
        return invalid(res, 'The field "title" must be a non-empty string');
      changes.title = title;
    }
    if (completed !== undefined) {
      if (typeof completed !== 'boolean') return invalid(res, 'The field "completed" must be a boolean');
      changes.completed = completed;
    }
    return res.json(this.#store.update(id, changes));
  }

  destroy(req: Request, res: Response): Response {
    return this.#store.delete(req.param('id', '')) ? res.status(204).send() : notFound(res);
  }
}

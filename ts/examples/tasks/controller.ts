/**
 * The tasks API handlers, as a controller registered with `[controller, 'method']` array callables. The
 * application validates requests against the annotations in `app.ts` (`validate`), so a handler receives
 * an object body whose `title` is a string and `completed` a boolean when present, and integer `offset`
 * and `limit`: what is left here is what the annotations cannot say (a blank or long title, the bounds).
 */
import type { Request, Response } from '../../src/app/index.js';
import { MAX_TITLE_LENGTH, type Task, type TaskStore } from './store.js';
import { API_VERSION } from './version.js';

const notFound = (res: Response) => res.status(404).json({ error: 'Task not found', code: 404 });
const invalid = (res: Response, error: string) => res.status(400).json({ error, code: 400 });

/** `GET /tasks` page size: 20 unless `limit` says otherwise, at most 100 (as the products list). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The bodies the annotations of `POST /tasks` and `PUT /tasks/:id` admit. */
type TaskInput = { title: string };
type TaskChanges = { title?: string; completed?: boolean };

/** Why a title is refused, or `null` (validation has made it a string). */
function titleProblem(title: string): string | null {
  if (title.trim() === '') return 'must be a non-empty string';
  if (title.length > MAX_TITLE_LENGTH) return `must be at most ${MAX_TITLE_LENGTH} characters`;
  return null;
}

/** `?offset=` / `?limit=` (validated integers) within bounds, or `null`. */
function within(raw: string, min: number, max: number): number | null {
  const value = Number(raw);
  return value >= min && value <= max ? value : null;
}

export class TaskController {
  readonly #store: TaskStore;

  constructor(store: TaskStore) {
    this.#store = store;
  }

  home(_req: Request, res: Response): Response {
    return res.json({ message: 'Arbor tasks and products API', version: API_VERSION });
  }

  index(req: Request, res: Response): Response {
    const offset = within(req.query('offset', '0'), 0, Number.MAX_SAFE_INTEGER);
    const limit = within(req.query('limit', String(DEFAULT_PAGE_SIZE)), 1, MAX_PAGE_SIZE);
    if (offset === null) return invalid(res, 'offset must be a non-negative integer');
    if (limit === null) return invalid(res, `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    return res.header('X-Total-Count', this.#store.size).json(this.#store.list(offset, limit));
  }

  show(req: Request, res: Response): Response {
    const task = this.#store.get(req.param('id', ''));
    return task === undefined ? notFound(res) : res.json(task);
  }

  store(req: Request, res: Response): Response {
    const body = req.json<TaskInput>();
    const problem = titleProblem(body.title);
    if (problem !== null) return invalid(res, `The field "title" is required and ${problem}`);
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
  update(req: Request, res: Response): Response {
    const id = req.param('id', '');
    if (this.#store.get(id) === undefined) return notFound(res);
    const { title, completed } = req.json<TaskChanges>();
    const changes: Partial<Pick<Task, 'title' | 'completed'>> = {};
    if (title !== undefined) {
      const problem = titleProblem(title);
      if (problem !== null) return invalid(res, `The field "title" ${problem}`);
      changes.title = title;
    }
    if (completed !== undefined) changes.completed = completed;
    return res.json(this.#store.update(id, changes));
  }

  destroy(req: Request, res: Response): Response {
    return this.#store.delete(req.param('id', '')) ? res.status(204).send() : notFound(res);
  }
}

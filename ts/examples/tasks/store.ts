/** In-memory task storage of the tasks reference application. */
import { randomUUID } from 'node:crypto';

export interface Task {
  id: string;
  title: string;
  completed: boolean;
  /** `Y-m-d H:i:s`, UTC. */
  created_at: string;
}

/** `2026-11-22 09:05:03` (PHP's `Y-m-d H:i:s`), in UTC so tests do not depend on the machine's zone. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The demo's bounds: anyone may create tasks (no token), so the store is capped — a full store answers
 * 409 instead of growing until `GET /tasks` cannot be serialised — and so are titles (400 beyond).
 */
export const MAX_TASKS = 1000;
export const MAX_TITLE_LENGTH = 200;

export interface TaskStoreOptions {
  now?: () => Date;
  /** Most tasks kept (default {@link MAX_TASKS}). */
  capacity?: number;
}

export class TaskStore {
  readonly #tasks = new Map<string, Task>();
  readonly #now: () => Date;
  readonly capacity: number;

  constructor(options: TaskStoreOptions | (() => Date) = {}) {
    const { now = () => new Date(), capacity = MAX_TASKS } =
      typeof options === 'function' ? { now: options } : options;
    this.#now = now;
    this.capacity = capacity;
  }

  get size(): number {
    return this.#tasks.size;
  }

  get full(): boolean {
    return this.#tasks.size >= this.capacity;
  }

  /** The tasks from `offset`, at most `limit` of them, oldest first. */
  list(offset = 0, limit = Number.POSITIVE_INFINITY): Task[] {
    const out: Task[] = [];
    let index = 0;
    for (const task of this.#tasks.values()) {
      if (out.length >= limit) break;
      if (index++ >= offset) out.push(task);
    }
    return out;
  }

  get(id: string): Task | undefined {
    return this.#tasks.get(id);
  }

  create(title: string): Task {
    const task: Task = {
      id: randomUUID(),
      title,
      completed: false,
      created_at: formatTimestamp(this.#now()),
    };
    this.#tasks.set(task.id, task);
    return task;
  }

  /** Merges `changes` over the stored task; `id` and `created_at` stay as they were. */
  update(id: string, changes: Partial<Pick<Task, 'title' | 'completed'>>): Task | undefined {
    const task = this.#tasks.get(id);
    if (task === undefined) return undefined;
    const merged = { ...task, ...changes, id: task.id, created_at: task.created_at };
    this.#tasks.set(id, merged);
    return merged;
  }

  delete(id: string): boolean {
    return this.#tasks.delete(id);
  }
}

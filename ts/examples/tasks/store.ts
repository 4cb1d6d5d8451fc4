/** In-memory task storage of the tasks reference application (the original's §4.7). */
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

export class TaskStore {
  readonly #tasks = new Map<string, Task>();
  readonly #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  list(): Task[] {
    return [...this.#tasks.values()];
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

/** The tasks reference application as a CLI entry (`arbor types:export --app tests/client/tasks-entry.ts`). */
import { createTasksApp } from '../../ts/examples/tasks/app.js';

export default createTasksApp();

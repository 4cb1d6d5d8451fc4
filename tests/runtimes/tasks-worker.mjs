// Serves the tasks reference application as a Cloudflare Worker: its bundle (tasks-bundle.mjs, importing
// `arbor-router`, which the Worker's bundle resolves to the package's `workerd` entry) and its compiled
// contracts, both resolved by workerd-bundle.mjs to the files the test wrote.
import contracts from 'arbor-test-contracts';
import { createTasksApp } from 'arbor-test-tasks-app';

const app = createTasksApp({ config: { contracts } });
export default { fetch: app.fetch };

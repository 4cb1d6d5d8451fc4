// Serves the tasks reference application on Deno (`Deno.serve`), bundled by tasks-bundle.mjs
// (ARBOR_TASKS_APP) with its compiled contracts (ARBOR_CONTRACTS). Prints `{"port":N}` once listening.
const { createTasksApp } = await import(new URL(process.env.ARBOR_TASKS_APP, 'file:///').href);
const { default: contracts } = await import(new URL(process.env.ARBOR_CONTRACTS, 'file:///').href);

const app = createTasksApp({ config: { contracts } });
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    onListen: ({ port }) => console.log(JSON.stringify({ port })),
  },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

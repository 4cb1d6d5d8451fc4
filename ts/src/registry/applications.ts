/**
 * The one record of "the current application": the last one created and the last one started. The CLI
 * finds the application an entry module builds through it (even when the module exports nothing and just
 * calls `app.run()`), and `route()` / `Application.current()` read it.
 *
 * It lives on `globalThis` under a registered symbol, not in module scope, because the CLI and the
 * application may load two copies of Arbor in one process (the compiled CLI in `dist/` and a TypeScript
 * entry importing `ts/src` through tsx): both copies must see the same record.
 */

interface ApplicationRecord {
  /** The last application constructed. */
  created: object | null;
  /** The last application that called `run()`: the one an entry module means to serve. */
  running: object | null;
}

const KEY = Symbol.for('arbor.applications');

function record(): ApplicationRecord {
  const holder = globalThis as unknown as Record<symbol, ApplicationRecord | undefined>;
  let found = holder[KEY];
  if (found === undefined) {
    found = { created: null, running: null };
    Object.defineProperty(globalThis, KEY, { value: found, enumerable: false });
  }
  return found;
}

/** Called by `Application`: at construction (`'created'`) and in `run()` (`'running'`). */
export function registerApplication(app: object, event: 'created' | 'running'): void {
  record()[event] = app;
}

/** The application an entry module set up: the last one started, else the last one created. */
export function registeredApplication(): object | null {
  const { running, created } = record();
  return running ?? created;
}

/** Forgets both (tests that load several entry modules in one process). */
export function clearRegisteredApplications(): void {
  const found = record();
  found.created = null;
  found.running = null;
}

/**
 * The server side of the load and soak run: the reference server (`ts/examples/server.ts`: the tasks and
 * products applications with logging and CORS) started with `run()` in its own process, plus what the
 * run needs to observe it from outside:
 *
 * - one extra route, `GET /__load/slow?ms=N`, that answers after N ms (a request that is certainly in
 *   flight when `close()` is called);
 * - counters of requests received and answered, and of the `X-Load-Id` of each request received while
 *   tracking is on (so the runner can tell a request the server lost from one that never reached it);
 * - IPC commands: `memory`, `gc` (needs `--expose-gc`), `counters`, `track`, `close`.
 *
 * Request log lines and `run()`'s banner are dropped (they would cost more than the requests);
 * errors the application logs are counted and the first few printed.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { LogFields, Logger } from '../../ts/src/app/index.js';

interface Command {
  type: 'memory' | 'gc' | 'counters' | 'track' | 'close';
}

let loggedErrors = 0;
const logger: Logger = {
  info: () => {},
  warn: (first: LogFields | string, message?: string) =>
    console.warn(`[load server] ${typeof first === 'string' ? first : message}`),
  error: (first: LogFields | string, message?: string) => {
    loggedErrors++;
    if (loggedErrors > 5) return;
    if (typeof first === 'string') console.error(`[load server] ${first}`);
    else console.error(`[load server] ${message}`, first.err ?? '');
  },
};

// server.ts builds its app and calls run() at import; ARBOR_NO_LISTEN keeps that instance from listening
// (the CLI's mode), and a second instance built by the same factory is the one served here.
process.env.ARBOR_NO_LISTEN = '1';
const { createDemoApp } = await import('../../ts/examples/server.js');
delete process.env.ARBOR_NO_LISTEN;

// `ARBOR_LOAD_SERVER=arbor` (soak.ts --server arbor): the same application on Arbor's own server.
const serverChoice = process.env.ARBOR_LOAD_SERVER === 'arbor' ? { server: 'arbor' as const } : {};
const app = createDemoApp({ port: 0, host: '127.0.0.1', logger, ...serverChoice });
let slowInFlight = 0;
app.get('/__load/slow', async (req, res) => {
  const ms = Math.min(Number(req.query('ms', '1000')) || 0, 30_000);
  slowInFlight++;
  try {
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    slowInFlight--;
  }
  return res.json({ slept: ms, padding: 'x'.repeat(4096) });
});

/** `aborted`: responses closed before they were complete, which only node:http's server tells. */
const counters: { received: number; answered: number; aborted: number | null } = {
  received: 0,
  answered: 0,
  aborted: serverChoice.server === 'arbor' ? null : 0,
};
let tracking = false;
const receivedIds: number[] = [];
const answeredIds: number[] = [];

// The requests the application received and answered, by the id the runner sends: counted by a global
// middleware, so alike on either server (a request refused before routing, malformed or too long, is not
// counted; none of the tracked ones is).
app.middleware(async (req, next) => {
  counters.received++;
  const id = tracking ? Number(req.header('x-load-id')) : Number.NaN;
  if (!Number.isNaN(id)) receivedIds.push(id);
  try {
    return await next.handle(req);
  } finally {
    counters.answered++;
    if (!Number.isNaN(id)) answeredIds.push(id);
  }
});

const server = app.run();
if (server instanceof http.Server) {
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.on('close', () => {
      if (!res.writableFinished && counters.aborted !== null) counters.aborted++;
    });
  });
}

const memory = () => ({ type: 'memory', usage: process.memoryUsage(), at: Date.now() });

process.on('message', (command: Command) => {
  switch (command.type) {
    case 'memory':
      process.send?.(memory());
      break;
    case 'gc':
      (globalThis as { gc?: () => void }).gc?.();
      process.send?.(memory());
      break;
    case 'counters':
      process.send?.({ type: 'counters', ...counters, slowInFlight, loggedErrors });
      break;
    case 'track':
      tracking = true;
      process.send?.({ type: 'tracking' });
      break;
    case 'close': {
      const started = performance.now();
      const inFlightAtClose = counters.received - counters.answered;
      app.close().then(
        () => {
          process.send?.({
            type: 'closed',
            ms: performance.now() - started,
            inFlightAtClose,
            ...counters,
            loggedErrors,
            receivedIds,
            answeredIds,
          });
          // Nothing else should keep the process alive now: the runner checks that it exits by itself.
          process.disconnect();
        },
        (error: unknown) => process.send?.({ type: 'error', message: String(error) }),
      );
      break;
    }
  }
});

server.once('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.send?.({ type: 'listening', port, pid: process.pid });
});

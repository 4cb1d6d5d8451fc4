/**
 * The test process's side of the raw-socket client (raw-client-process.ts): one client process per test
 * process, started on first use, running any number of exchanges side by side. The servers stay here.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { FromClient, RunMessage, ScriptStep, ToClient } from './raw-client-process.js';

export type { ScriptStep };

export interface ClientRun {
  /** Everything received. */
  raw: Buffer;
  /** The server closed the connection (FIN or reset). */
  closed: boolean;
  /** It was a reset (ECONNRESET or EPIPE), not an orderly close. */
  reset: boolean;
}

interface Pending {
  resolve: (run: ClientRun) => void;
  reject: (error: Error) => void;
}

let child: ChildProcess | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function client(): ChildProcess {
  if (child !== undefined) return child;
  const started = fork(join(import.meta.dirname, 'raw-client-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  started.on('message', (message: FromClient) => {
    if (message.type === 'sync') {
      caughtUp().then(() => send({ type: 'synced', id: message.id }));
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    idle();
    if (message.type === 'done') {
      waiting?.resolve({
        raw: Buffer.from(message.raw, 'latin1'),
        closed: message.closed,
        reset: message.reset,
      });
    } else waiting?.reject(new Error(`raw client: ${message.message}`));
  });
  started.on('exit', (code, signal) => {
    child = undefined;
    for (const { reject } of pending.values()) reject(new Error(`the raw client exited (${code ?? signal})`));
    pending.clear();
  });
  child = started;
  idle();
  return started;
}

function send(message: ToClient): void {
  child?.send(message);
}

/** The client process keeps this one alive only while an exchange is under way. */
function idle(): void {
  if (child === undefined) return;
  if (pending.size === 0) {
    child.unref();
    child.channel?.unref();
  } else {
    child.ref();
    child.channel?.ref();
  }
}

/**
 * Resolves once this process's event loop has turned twice: whatever was due (a write's completion, the
 * close that follows it, a timer) has run. A pause of this process delays the answer by as much.
 */
async function caughtUp(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Plays `steps` against `127.0.0.1:port` in the client process; see raw-exchange.ts for the options. */
export function runScript(
  port: number,
  steps: ScriptStep[],
  options: { waitMs: number; quietMs: number; heads: number[] },
): Promise<ClientRun> {
  const running = client();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    idle();
    const message: RunMessage = { type: 'run', id, port, steps, ...options };
    running.send(message);
  });
}

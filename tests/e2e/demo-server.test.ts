/** The demo (ts/examples/server.ts) as a real process: both APIs on one port, PORT honoured, SIGTERM closes it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertPresent, skipWhenMissing, titled } from '../support/prerequisites.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The demo runs the default (WebAssembly) engine: it needs the built module.
const missing = existsSync(`${root}ts/src/engine/wasm-pkg/arbor_wasm.js`)
  ? null
  : 'the wasm build (npm run build)';

interface Demo {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/** Starts the demo on a free port and resolves once it prints its banner. */
async function startDemo(): Promise<Demo> {
  assertPresent(missing);
  let output = '';
  // node itself with tsx's loader, not the tsx binary: that one runs the server in a child of its own,
  // which outlived a SIGKILL of the binary (an orphaned demo per test run).
  const child = spawn(process.execPath, ['--import', 'tsx', 'ts/examples/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', ARBOR_NO_LISTEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner; output:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, base, output: () => output };
}

const stop = (demo: Demo | undefined) => {
  if (demo !== undefined && demo.child.exitCode === null) demo.child.kill('SIGKILL');
};

// Each test that ends the process starts its own, so the tests pass in any order and alone.
describe.skipIf(skipWhenMissing(missing))(titled('demo server process', missing), () => {
  let demo: Demo | undefined;
  let base = '';
  beforeAll(async () => {
    demo = await startDemo();
    base = demo.base;
  }, 60_000);
  afterAll(() => stop(demo));

  test('GET / answers { message, version }', async () => {
    const reply = await fetch(`${base}/`);
    expect(await reply.json()).toEqual({ message: expect.any(String), version: '1.0.0' });
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('the tasks and the products APIs share the server', async () => {
    const created = await fetch(`${base}/tasks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"title":"demo"}',
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${base}/tasks`)).status).toBe(200);
    expect((await (await fetch(`${base}/api/products?limit=1`)).json()).limit).toBe(1);
    const denied = await fetch(`${base}/api/products/1`, { method: 'DELETE' });
    expect(denied.status).toBe(401);
    expect(demo?.output()).toMatch(/GET \/tasks 200 \d+\.\dms/);
  });

  test('SIGTERM closes gracefully and exits 0', async () => {
    const own = await startDemo();
    try {
      expect((await fetch(`${own.base}/`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => own.child.on('exit', resolve));
      own.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      stop(own);
    }
  }, 60_000);
});

/** The demo (ts/examples/server.ts) as a real process: both APIs on one port, PORT honoured, SIGTERM closes it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The demo runs the default (WebAssembly) engine: it needs the built module.
const engineBuilt = existsSync(`${root}ts/src/engine/wasm-pkg/arbor_wasm.js`);

describe.skipIf(!engineBuilt)('demo server process (needs the wasm build: npm run build)', () => {
  let child: ChildProcess;
  let base = '';
  let output = '';
  beforeAll(async () => {
    child = spawn(`${root}node_modules/.bin/tsx`, ['ts/examples/server.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', ARBOR_NO_LISTEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    base = await new Promise<string>((resolve, reject) => {
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
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

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
    expect(output).toMatch(/GET \/tasks 200 \d+\.\dms/);
  });

  test('SIGTERM closes gracefully and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

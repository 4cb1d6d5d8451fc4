/**
 * `app.onClose(hook)`: hooks run when the application closes, after its server has closed (no request is
 * served by a closed pool), awaited, in the order they were added; one that fails is logged and the
 * others still run; closing twice runs them once. `run()`'s SIGTERM handling awaits them before the
 * process exits (a child process, below).
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';

const root = join(import.meta.dirname, '..', '..');

describe('onClose hooks', () => {
  test('run after the server closed, awaited, in order; a failing one is logged, the rest still run', async () => {
    const logger = memoryLogger();
    const app = new Application(withEngine({ port: 0, host: '127.0.0.1', logger }));
    app.get('/', (_q, res) => res.send('up'));
    const events: string[] = [];
    const server = app.run();
    await new Promise((resolve) => server.once('listening', resolve));
    app
      .onClose(async () => {
        events.push(`first (listening: ${server.listening})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        events.push('first done');
      })
      .onClose(() => {
        throw new Error('pool already gone');
      })
      .onClose(() => {
        events.push('third');
      });
    await Promise.all([app.close(500), app.close(500)]);
    expect(events).toEqual(['first (listening: false)', 'first done', 'third']);
    expect(logger.errors.map((e) => (e.error as Error).message)).toEqual(['pool already gone']);
  });

  test('app.close() closes open WebSockets (1001) alongside the server, then runs the hooks', async () => {
    const app = new Application(withEngine({ port: 0, host: '127.0.0.1' }));
    app.ws('/live', (socket) => socket.send('hello'));
    const events: string[] = [];
    app.onClose(() => {
      events.push(`hook (open sockets: ${app.webSockets.size})`);
    });
    const server = app.run();
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}/live`);
    await new Promise((resolve) => client.once('message', resolve));
    const closed = new Promise<number>((resolve) => client.once('close', resolve));
    await app.close(2_000);
    expect(await closed).toBe(1001);
    expect(events).toEqual(['hook (open sockets: 0)']);
    expect(server.listening).toBe(false);
  });

  test('SIGTERM to a process in run(): the hooks finish before it exits 0', async () => {
    const script = `
      import { Application } from ${JSON.stringify(join(root, 'ts/src/app/index.ts'))};
      const app = new Application({ port: 0, host: '127.0.0.1' });
      app.onClose(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        console.log('hook finished');
      });
      app.run().once('listening', () => console.log('ready'));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready') && !child.killed) child.kill('SIGTERM');
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toMatch(/ready[\s\S]*hook finished/);
  }, 60_000);
});

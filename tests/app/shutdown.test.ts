/**
 * docs/framework/servers.md: "`app.close(graceMs = 10000)` … lets in-flight requests finish … and cuts what is
 * left after `graceMs`" — over real HTTP, on the server `run()` started.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { Application, memoryLogger } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';

describe('close(graceMs)', () => {
  test('a request still running after graceMs has its connection cut, and close() resolves', async () => {
    const app = new Application(withEngine({ port: 0, host: '127.0.0.1', logger: memoryLogger() }));
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let handlerDone = false;
    app.get('/hang', async (_req, res) => {
      started();
      await gate;
      handlerDone = true;
      return res.send('too late');
    });
    app.get('/quick', (_req, res) => res.send('quick'));
    const server = app.run();
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/quick`)).text()).toBe('quick');

    const hanging = fetch(`${base}/hang`).then(
      async (response) => `answered ${response.status}: ${await response.text()}`,
      (error: Error) => `cut: ${error.message}`,
    );
    await running;
    const graceMs = 300;
    const closing = Date.now();
    await app.close(graceMs);
    const took = Date.now() - closing;
    try {
      expect(await hanging).toMatch(/^cut: /);
      // Not cut before the grace period (timers never fire early, and load only delays them)...
      expect(took).toBeGreaterThanOrEqual(graceMs - 5);
      // ...and not left waiting for the handler: close() resolved while it still hangs (it is released
      // below, after the checks), whatever the clock says.
      expect(handlerDone).toBe(false);
      expect(server.listening).toBe(false);
    } finally {
      release();
    }
  });
});

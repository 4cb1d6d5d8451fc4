/**
 * What one hostile client can cost the own server: a client that pipelines and never reads its answers
 * is paused once it is owed `OWED_LIMIT` bytes (nothing more of it is parsed or served, nothing more of
 * it is held), other clients are served meanwhile, and answers that stop moving for `requestTimeout` get
 * the connection cut. Assertions count requests served and bytes held, never time, and each waits for a
 * state of the server's socket (paused, drained), not for a quiet spell. The server is started directly,
 * so the default project runs this file (the arbor-server project would repeat it).
 */
import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { ArborServer, ServerOptions } from '../../ts/src/http/app-server.js';
import type { IncomingInput, OutgoingResponse } from '../../ts/src/http/dispatch.js';
import { createWireServer } from '../../ts/src/http/wire/server.js';
import { OWED_LIMIT } from '../../ts/src/http/wire/settings.js';
import { exchange } from './support/raw-exchange.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** More than the kernel's socket buffers on both sides can take (loopback: a few MiB). */
const KERNEL_SLACK = 16 * MiB;

let server: ArborServer | undefined;
afterEach(async () => {
  await server?.closeGracefully(100);
  server = undefined;
});

/** The own server answering `/big/<KiB>` with that many KiB, anything else with `ok`; counts requests. */
async function serve(options: ServerOptions = {}) {
  const counts = { served: 0 };
  const sockets: Socket[] = [];
  const bodies = new Map<number, string>();
  const dispatch = (input: IncomingInput): OutgoingResponse => {
    counts.served++;
    const size = /^\/big\/(\d+)$/.exec(input.target)?.[1];
    let body = 'ok';
    if (size !== undefined) {
      body = bodies.get(Number(size)) ?? 'x'.repeat(Number(size) * KiB);
      bodies.set(Number(size), body);
    }
    return { getStatus: () => 200, getHeaders: () => ({}), getBody: () => body };
  };
  server = createWireServer(dispatch, { error: () => {} }, options);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, counts, sockets };
}

/** Waits until `done()` (polling), at most `maxMs`: a bound on a stuck test, never what decides it. */
async function until(done: () => boolean, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Waits until the server has stopped serving `socket`'s client: answers owed past the limit, the socket
 * paused. Nothing more of it is served until those answers drain, so the count served is final.
 */
async function blocked(socket: () => Socket | undefined): Promise<void> {
  const isBlocked = () => {
    const held = socket();
    return held?.isPaused() === true && held.writableLength > OWED_LIMIT;
  };
  await until(isBlocked, 20_000);
  expect(isBlocked(), 'the server paused the client that does not read').toBe(true);
}

const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe.skipIf(process.env.ARBOR_TEST_SERVER !== undefined)('a client that never reads', () => {
  test('that pipelines for ever is paused once owed the limit: held bytes stay bounded, others are served', async () => {
    const { port, counts, sockets } = await serve();
    const size = 32;
    const one = request(`/big/${size}`);
    const hostile = connect({ port, host: '127.0.0.1' });
    await once(hostile, 'connect');
    hostile.pause();
    hostile.on('error', () => {});
    // 16 MiB of requests (half a million, 16 GiB of answers), written as fast as the socket takes them.
    const burst = one.repeat(Math.floor(MiB / one.length));
    for (let i = 0; i < 16; i++) hostile.write(burst);
    await blocked(() => sockets[0]);
    const served = counts.served;
    const [held] = sockets;
    // Served: what the kernel's buffers took, plus the limit, plus the answer that crossed it.
    expect(served * size * KiB).toBeLessThanOrEqual(KERNEL_SLACK + OWED_LIMIT + size * KiB);
    // Held in the process: at most the limit and one answer of output; of input, what the socket had
    // read when it paused (the rest waits in the kernel, or in the client).
    expect(held?.writableLength).toBeLessThanOrEqual(OWED_LIMIT + size * KiB);
    expect((held?.bytesRead ?? 0) - served * one.length).toBeLessThanOrEqual(256 * KiB);

    // Another client meanwhile: answered, and the paused one gets nothing more.
    const other = await exchange(port, request('/small'));
    expect(other.responses.map((r) => r.status)).toEqual([200]);
    expect(counts.served).toBe(served + 1);
    hostile.destroy();
  });

  test('is served again, in order and in full, once it reads', async () => {
    const { port, counts, sockets } = await serve();
    const size = 32;
    const pipelined = 1000;
    const hostile = connect({ port, host: '127.0.0.1' });
    await once(hostile, 'connect');
    hostile.pause();
    hostile.write(request(`/big/${size}`).repeat(pipelined));
    await blocked(() => sockets[0]);
    expect(counts.served).toBeLessThan(pipelined);
    let bytes = 0;
    hostile.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    hostile.resume();
    // Done when every request is served and the client has every byte the server wrote.
    const held = sockets[0];
    await until(() => counts.served === pipelined && bytes === held?.bytesWritten, 20_000);
    expect(counts.served).toBe(pipelined);
    expect(bytes).toBe(held?.bytesWritten);
    expect(bytes).toBeGreaterThan(pipelined * size * KiB);
    hostile.destroy();
  });

  test('answers that stop moving for requestTimeout get the connection cut', async () => {
    const { port, sockets } = await serve({ requestTimeout: 400 });
    const hostile = connect({ port, host: '127.0.0.1' });
    await once(hostile, 'connect');
    hostile.pause();
    // 16 MiB: more than the kernel's buffers take, so some of it waits in the process, going nowhere.
    hostile.write(request(`/big/${16 * 1024}`));
    // The client, paused, would not see the reset: the server's side is what is checked.
    await until(() => sockets[0]?.destroyed === true, 5_000);
    expect(sockets[0]?.destroyed).toBe(true);
    hostile.destroy();
  });

  test('a slow reader whose answers keep moving is not cut', async () => {
    const { port, sockets } = await serve({ requestTimeout: 600 });
    const reader = connect({ port, host: '127.0.0.1' });
    await once(reader, 'connect');
    // About 5 MB/s: 512 KiB per 100 ms, so 16 MiB take five times requestTimeout to read.
    let bytes = 0;
    let window = 0;
    reader.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      window += chunk.byteLength;
      if (window >= 512 * KiB) reader.pause();
    });
    const pace = setInterval(() => {
      window = 0;
      reader.resume();
    }, 100);
    reader.write(request(`/big/${16 * 1024}`));
    await until(() => bytes > 16 * MiB || reader.destroyed || sockets[0]?.destroyed === true, 10_000);
    clearInterval(pace);
    expect(sockets[0]?.destroyed).toBe(false);
    expect(bytes).toBeGreaterThan(16 * MiB);
    reader.destroy();
  });
});

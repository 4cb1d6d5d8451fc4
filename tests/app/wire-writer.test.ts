/**
 * The own server's writer never writes a malformed response: an answer it cannot frame (a body that is
 * neither a string nor bytes, a status that is no status) is the kernel's bug, logged and answered with
 * one bare 500 before a byte of it is written; the connection then closes. The server is started
 * directly, so the default project runs this file (the arbor-server project would repeat it).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import type { ArborServer } from '../../ts/src/http/app-server.js';
import type { OutgoingResponse } from '../../ts/src/http/dispatch.js';
import { createWireServer } from '../../ts/src/http/wire/server.js';
import { exchange } from './support/raw-exchange.js';

let server: ArborServer | undefined;
afterEach(async () => {
  await server?.closeGracefully(100);
  server = undefined;
});

const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe.skipIf(process.env.ARBOR_TEST_SERVER !== undefined)('an answer the writer cannot frame', () => {
  test.each([
    ['a Node Readable as the body', { getStatus: () => 200, getBody: () => Readable.from(['a']) }],
    ['a number as the body', { getStatus: () => 200, getBody: () => 42 }],
    ['a plain object as the body', { getStatus: () => 200, getBody: () => ({ a: 1 }) }],
    ['a status that is no status', { getStatus: () => Number.NaN, getBody: () => 'x' }],
  ])('%s: one logged 500, then the connection closes', async (_name, answer) => {
    const errors: unknown[] = [];
    const dispatch = (): OutgoingResponse =>
      ({
        getHeaders: () => ({ 'Content-Length': String(undefined) }),
        ...answer,
      }) as unknown as OutgoingResponse;
    server = createWireServer(dispatch, { error: (_message, error) => errors.push(error) });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const reply = await exchange((server.address() as AddressInfo).port, request('/a') + request('/b'));
    expect(reply.raw.toString('latin1')).not.toMatch(/undefined|NaN|\[object/);
    expect(reply.leftover.byteLength).toBe(0);
    expect(reply.responses.map((r) => [r.status, r.headers.connection])).toEqual([[500, 'close']]);
    expect(reply.closed).toBe(true);
    expect(errors).toHaveLength(1);
  });
});

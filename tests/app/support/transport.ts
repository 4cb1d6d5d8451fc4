/**
 * The two ways a suite reaches an application: real HTTP on a loopback port (node:http server from
 * `app.createServer()`, requests with fetch) and `app.fetch()` in-process. Suites run once per transport.
 */
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { Application, type ApplicationConfig, type ArborServer } from '../../../ts/src/app/index.js';
import { withEngine } from './engine.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws if it is not). */
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not types.
  json<T = any>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the body as a stream (chunked over HTTP, no Content-Length). */
  chunked?: boolean;
}

export interface Client {
  request(path: string, options?: RequestOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface Transport {
  name: 'http' | 'fetch';
  connect(app: Application): Promise<Client>;
}

async function toReply(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

function init(options: RequestOptions): RequestInit {
  let body: BodyInit | undefined = options.body as BodyInit | undefined;
  if (options.chunked === true && options.body !== undefined) {
    const bytes = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
    body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.byteLength; i += 64 * 1024)
          controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
  }
  return {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    redirect: 'manual',
    ...(body === undefined ? {} : { body, duplex: 'half' }),
  } as RequestInit;
}

/** Starts `app` on a free loopback port. */
export async function listen(app: Application): Promise<{ server: ArborServer; port: number; base: string }> {
  const server = app.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, base: `http://127.0.0.1:${port}` };
}

export const httpTransport: Transport = {
  name: 'http',
  async connect(app) {
    const { server, base } = await listen(app);
    return {
      request: async (path, options = {}) => toReply(await fetch(base + path, init(options))),
      close: () => server.closeGracefully(1000),
    };
  },
};

export const fetchTransport: Transport = {
  name: 'fetch',
  async connect(app) {
    return {
      request: async (path, options = {}) =>
        toReply(
          await app.fetch(new Request(`http://arbor.test${path}`, init(options)), {
            remoteAddress: '127.0.0.1',
          }),
        ),
      close: async () => {},
    };
  },
};

export const transports: Transport[] = [httpTransport, fetchTransport];

/**
 * Per-test application start for a suite running over `transport`: `start(setup, config)` builds an
 * application on the engine under test, connects a client, and closes it when the next one starts or
 * the test ends.
 */
export function appStarter(
  transport: Transport,
): (setup: (app: Application) => void, config?: ApplicationConfig) => Promise<Client> {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  return async (setup, config = {}) => {
    await client?.close();
    const app = new Application(withEngine(config));
    setup(app);
    client = await transport.connect(app);
    return client;
  };
}

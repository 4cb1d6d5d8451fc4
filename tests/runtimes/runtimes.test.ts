/**
 * One application, every runtime: tests/runtimes/app.mjs served through `app.fetch` by Bun
 * (`Bun.serve`), Deno (`Deno.serve`) and workerd (a Worker's `export default { fetch }`, bundled with the
 * package's `workerd` entry), each a real server on loopback, asked the same table of requests as Node
 * answers them in this process (`app.fetch` on the same bundle): routing, parameters, validation,
 * streaming, Server-Sent Events, cookies, the OpenAPI document and the docs page. Node reads the doc
 * comments from app.mjs and compiles its JSON Schemas with ajv; the three runtimes are given the compiled
 * contracts (`arbor contracts:export`, run here first), as a Worker must be (no sources, no code generation).
 *
 * Runs once per `npm test` (ARBOR_RUNTIMES=1, set by scripts/tasks.mjs), not on every Node line: the three
 * runtimes do not change with the Node that drives them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertPresent, prerequisitesRequired } from '../support/prerequisites.js';
import {
  missingRuntime,
  ROOT,
  RUNTIMES,
  type RuntimeName,
  type RuntimeServer,
  runtimeApp,
  type ServedApp,
  startRuntime,
} from './servers.js';

const enabled = process.env.ARBOR_RUNTIMES === '1';
const missing = missingRuntime();

/** One request of the table, and what must hold of the answer on every runtime. */
interface Check {
  name: string;
  path: string;
  init?: RequestInit;
  expect: (answer: Answer) => void;
}
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const json = (answer: Answer): unknown => JSON.parse(answer.text);

const CHECKS: Check[] = [
  {
    name: 'a static route',
    path: '/',
    expect: (a) => expect(a.status).toBe(200),
  },
  {
    name: 'a parameter with a constraint',
    path: '/users/42',
    expect: (a) => expect(json(a)).toEqual({ id: '42' }),
  },
  {
    name: 'a constraint that refuses the value → 404',
    path: '/users/abc',
    expect: (a) => expect(a.status).toBe(404),
  },
  {
    name: 'a wildcard',
    path: '/files/a/b%20c.txt',
    expect: (a) => expect(json(a)).toEqual({ path: 'a/b c.txt' }),
  },
  {
    name: 'a method the route lacks → 405 with Allow',
    path: '/users/7',
    init: { method: 'DELETE' },
    expect: (a) => {
      expect(a.status).toBe(405);
      expect(a.headers.get('allow')).toContain('GET');
    },
  },
  {
    name: 'a Standard Schema body (zod), valid',
    path: '/tasks',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Ship"}' },
    expect: (a) => {
      expect(a.status).toBe(201);
      expect(json(a)).toEqual({ title: 'Ship' });
    },
  },
  {
    name: 'a Standard Schema body (zod), invalid → 400 { error, code }',
    path: '/tasks',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":""}' },
    expect: (a) => {
      expect(a.status).toBe(400);
      expect(json(a)).toMatchObject({ error: expect.stringContaining('title'), code: 400 });
    },
  },
  {
    name: 'a JSON Schema query (ajv), coerced',
    path: '/pages?limit=5',
    expect: (a) => expect(json(a)).toEqual({ limit: 5 }),
  },
  {
    name: 'a JSON Schema query (ajv), out of range → 400',
    path: '/pages?limit=0',
    expect: (a) => expect(a.status).toBe(400),
  },
  {
    name: 'a doc-comment contract, valid: coerced values',
    path: '/reservations?show=hamlet',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seats":2,"email":"ada@example.com"}',
    },
    expect: (a) => {
      expect(a.status).toBe(201);
      expect(json(a)).toEqual({ show: 'hamlet', seats: 2, email: 'ada@example.com' });
    },
  },
  {
    name: 'a doc-comment contract, invalid: every violation with its keyword',
    path: '/reservations?show=Hamlet!',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seats":11,"email":"nobody"}',
    },
    expect: (a) => {
      expect(a.status).toBe(400);
      const { details } = json(a) as { details: { keyword: string; pointer: string }[] };
      expect(details.map((d) => [d.keyword, d.pointer]).sort()).toEqual([
        ['format', '/email'],
        ['maximum', '/seats'],
        ['pattern', '/show'],
      ]);
    },
  },
  {
    name: 'a streamed body',
    path: '/stream',
    expect: (a) => {
      expect(a.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(a.text).toBe('one two three');
    },
  },
  {
    name: 'Server-Sent Events',
    path: '/events',
    expect: (a) => {
      expect(a.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(a.text).toContain('event: tick\nid: 1\ndata: {"n":1}\n\n');
      expect(a.text).toContain('event: tick\nid: 2\ndata: two\ndata: lines\n\n');
    },
  },
  {
    name: 'cookies read and set',
    path: '/cookies',
    init: { headers: { cookie: 'flavour=rye' } },
    expect: (a) => {
      expect(json(a)).toEqual({ seen: 'rye' });
      expect(a.headers.get('set-cookie')).toMatch(/^flavour=oat; Path=\/; HttpOnly/);
    },
  },
  {
    name: 'the OpenAPI document',
    path: '/api/docs.json',
    expect: (a) => {
      const document = json(a) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(document.openapi).toMatch(/^3\./);
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/users/{id}', '/files/{wildcard}', '/tasks', '/pages', '/reservations']),
      );
      expect(document.paths['/tasks']?.post).toHaveProperty('requestBody');
      // The doc comment's operation, from the compiled contracts where the sources are not read.
      expect(document.paths['/reservations']?.post).toMatchObject({
        description: 'Reserve seats for a show.',
      });
    },
  },
  {
    name: 'the docs page',
    path: '/docs',
    expect: (a) => {
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toMatch(/^text\/html/);
      expect(a.text).toContain('Runtimes');
    },
  },
];

async function ask(origin: string, check: Check): Promise<Answer> {
  const response = await fetch(new URL(check.path, origin), check.init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** What Node answers through `app.fetch` on the same bundle: every runtime must answer the same. */
const nodeAnswers = new Map<string, Answer>();

describe.skipIf(!enabled || (missing !== null && !prerequisitesRequired))(
  'one application on Node, Bun, Deno and workerd',
  () => {
    /** The compiled contracts the Bun, Deno and workerd servers are given; Node reads the sources. */
    let served: ServedApp;
    let contractsDir = '';
    afterAll(() => {
      if (contractsDir !== '') rmSync(contractsDir, { recursive: true, force: true });
    });

    beforeAll(async () => {
      assertPresent(missing);
      contractsDir = mkdtempSync(join(tmpdir(), 'arbor-runtime-contracts-'));
      served = runtimeApp(contractsDir);
      const arbor = await import(`${ROOT}/dist/ts/src/bundle/index.js`);
      const { createRuntimeApp } = await import('./app.mjs');
      const app = createRuntimeApp(arbor);
      for (const check of CHECKS) {
        const response: Response = await app.fetch(
          new Request(new URL(check.path, 'http://127.0.0.1'), check.init),
        );
        nodeAnswers.set(check.name, {
          status: response.status,
          headers: response.headers,
          text: await response.text(),
        });
      }
    });

    test.each(CHECKS)('Node (app.fetch in process): $name', (check) => {
      const answer = nodeAnswers.get(check.name);
      if (answer === undefined) throw new Error('no answer');
      check.expect(answer);
    });

    describe.each(Object.keys(RUNTIMES) as RuntimeName[])('%s', (runtime) => {
      let server: RuntimeServer;
      beforeAll(async () => {
        server = await startRuntime(runtime, served);
      }, 60_000);
      afterAll(() => server?.close());

      test('identifies itself', async () => {
        expect(json(await ask(server.origin, CHECKS[0] as Check))).toEqual({ runtime });
      });

      test.each(CHECKS)('$name', async (check) => {
        const answer = await ask(server.origin, check);
        check.expect(answer);
        const node = nodeAnswers.get(check.name) as Answer;
        expect({ status: answer.status, type: answer.headers.get('content-type') }).toEqual({
          status: node.status,
          type: node.headers.get('content-type'),
        });
      });

      test('bindings reach req.bindings (Workers), waitUntil keeps work alive after the answer', async () => {
        const bindings = await (await fetch(`${server.origin}/bindings`)).json();
        expect(bindings).toEqual({ greeting: runtime === 'workerd' ? 'hello from env' : null });
        const before = (await (await fetch(`${server.origin}/later`, { method: 'POST' })).json()) as {
          finished: number;
        };
        await new Promise((resolve) => setTimeout(resolve, 200));
        const after = (await (await fetch(`${server.origin}/later`)).json()) as { finished: number };
        expect(after.finished).toBe(before.finished + 1);
      });

      test('the client address reaches req.ip', async () => {
        const answer = await fetch(`${server.origin}/ip`, { headers: { 'cf-connecting-ip': '203.0.113.7' } });
        // workerd under test has no edge in front: the Worker reads the header Cloudflare's edge sets.
        expect(await answer.json()).toEqual({ ip: runtime === 'workerd' ? '203.0.113.7' : '127.0.0.1' });
      });
    });
  },
);

/**
 * Streamed and file responses (issue 39) and tag descriptions: the annotation forms → the document they
 * write in 3.1.0 and in 3.0.3 (each document checked by the OpenAPI validator), and response validation,
 * which never reads a streamed body and checks no schema against a file or an event stream.
 */
import { Readable } from 'node:stream';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Application, memoryLogger, Response } from '../../ts/src/app/index.js';
import { contractDefinitions } from '../../ts/src/openapi/contract.js';
import { findDocBlocks } from '../../ts/src/openapi/grammar/comments.js';
import { parseBlock } from '../../ts/src/openapi/grammar/tags.js';
import {
  type DiagnosticCode,
  exportWithDiagnostics,
  type OpenApiDocument,
  type OpenApiVersion,
} from '../../ts/src/openapi/index.js';
import { ContractCompiler } from '../../ts/src/validation/validation.js';
import { documented, fixture, source, table } from './helpers.js';

vi.mock('../../ts/src/engine/wasm-engine.js', async (original) =>
  (await import('./engine-fallback.js')).wasmOrReference(original),
);

beforeEach(() => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const TASK = `
/**
 * @schema Task
 * @property {string} id - Id
 */`;

interface DocumentCase {
  name: string;
  block: string;
  extra?: string;
  /** The operation's `responses` (or what `pick` picks), per version; one value when both agree. */
  expected: unknown | Record<OpenApiVersion, unknown>;
  pick?: (doc: OpenApiDocument, op: Record<string, unknown>) => unknown;
  diagnostics?: { code: DiagnosticCode; at: string }[];
  perVersion?: true;
}

const octet31 = { contentMediaType: 'application/octet-stream' };
const binary30 = { type: 'string', format: 'binary' };

const documentCases: DocumentCase[] = [
  {
    name: '{file}: application/octet-stream, binary in 3.0.3, contentMediaType in 3.1',
    block: '@response 200 {file} - The attachment',
    perVersion: true,
    expected: {
      '3.1.0': {
        '200': {
          description: 'The attachment',
          content: { 'application/octet-stream': { schema: octet31 } },
        },
      },
      '3.0.3': {
        '200': {
          description: 'The attachment',
          content: { 'application/octet-stream': { schema: binary30 } },
        },
      },
    },
  },
  {
    name: '{file} with its media type on the line',
    block: '@response 200 {file} application/pdf - The invoice',
    perVersion: true,
    expected: {
      '3.1.0': {
        '200': {
          description: 'The invoice',
          content: { 'application/pdf': { schema: { contentMediaType: 'application/pdf' } } },
        },
      },
      '3.0.3': {
        '200': { description: 'The invoice', content: { 'application/pdf': { schema: binary30 } } },
      },
    },
  },
  {
    name: '{file} takes the non-JSON @produces types, and its 404 stays JSON',
    extra: TASK.replace('Task', 'Error'),
    block:
      '@produces application/json, image/png\n@response 200 {file} The picture\n@response 404 {Error} None',
    perVersion: true,
    expected: {
      '3.1.0': {
        '200': { content: { 'image/png': { schema: { contentMediaType: 'image/png' } } } },
        '404': {
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/Error' } },
            'image/png': { schema: { $ref: '#/components/schemas/Error' } },
          },
        },
      },
      '3.0.3': { '200': { content: { 'image/png': { schema: binary30 } } } },
    },
  },
  {
    name: '@produces text/event-stream: a string, its description names the data of each event',
    extra: TASK,
    block: '@produces text/event-stream\n@response 200 {Task} Task changes',
    expected: {
      '200': {
        description: 'Task changes',
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: "Server-Sent Events; each event's data: Task, as JSON" },
          },
        },
      },
    },
  },
  {
    name: 'an event stream on the @response line; the error beside it stays JSON',
    extra: `${TASK}${TASK.replace('Task', 'Error')}`,
    block: '@response 200 {Task} text/event-stream - Task changes\n@response 404 {Error} No such list',
    expected: {
      '200': { content: { 'text/event-stream': { schema: { type: 'string' } } } },
      '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  },
  {
    name: 'an event stream without a type, or of strings: a plain string schema',
    block: '@response 200 text/event-stream - Ticks\n@response 201 {string} text/event-stream - Lines',
    expected: {
      '200': { description: 'Ticks', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      '201': { description: 'Lines', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    },
  },
  {
    name: 'negotiated: JSON and an event stream for one status',
    extra: TASK,
    block: '@response 200 {Task} application/json, text/event-stream - The task, or its changes',
    expected: {
      '200': {
        description: 'The task, or its changes',
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Task' } },
          'text/event-stream': { schema: { type: 'string' } },
        },
      },
    },
  },
  {
    name: 'a media type without a type documents the body (no schema)',
    block: '@response 200 text/csv - The export',
    expected: { '200': { description: 'The export', content: { 'text/csv': {} } } },
  },
  {
    name: 'a description that starts with a slash word is not a media type',
    extra: TASK,
    block: '@response 200 {Task} and/or its parent',
    expected: {
      '200': {
        description: 'and/or its parent',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } },
      },
    },
  },
  {
    name: 'an undefined event type is reported like any $ref',
    block: '@response 200 {Ghost} text/event-stream - Boo',
    expected: { '200': { content: { 'text/event-stream': { schema: { type: 'string' } } } } },
    diagnostics: [{ code: 'UNDEFINED_SCHEMA', at: '{Ghost}' }],
  },
  // ── tag descriptions ──
  {
    name: '@tag describes a top-level tag, in a block of its own, over several lines',
    block: '@tags Tasks, Meta\n@response 200 OK',
    extra:
      '\n/**\n * @tag Tasks - The task list:\n * create and close tasks\n * @tag Unused - Not listed\n */\n',
    pick: (doc) => doc.tags,
    expected: [{ name: 'Tasks', description: 'The task list:\ncreate and close tasks' }, { name: 'Meta' }],
  },
  {
    name: "@tag takes the block's free text as its description",
    block: '@tags Tasks\n@response 200 OK',
    extra: '\n/**\n * The task list.\n * @tag Tasks\n */\n',
    pick: (doc) => doc.tags,
    expected: [{ name: 'Tasks', description: 'The task list.' }],
  },
  {
    name: '@tag without a description',
    block: '@tags Tasks\n@response 200 OK',
    extra: '\n/**\n * @tag Tasks\n */\n',
    pick: (doc) => doc.tags,
    expected: [{ name: 'Tasks' }],
    diagnostics: [{ code: 'MALFORMED_TAG', at: '@tag Tasks' }],
  },
  {
    name: 'a tag described twice, differently',
    block: '@tags Tasks\n@response 200 OK',
    extra: '\n/**\n * @tag Tasks - One\n */\n/**\n * @tag Tasks - Two\n */\n',
    pick: (doc) => doc.tags,
    expected: [{ name: 'Tasks', description: 'One' }],
    diagnostics: [{ code: 'DUPLICATE_TAG', at: '@tag Tasks - Two' }],
  },
];

describe.each(['3.1.0', '3.0.3'] as const)('annotations → OpenAPI %s', (version) => {
  it.each(documentCases)('$name', async (c) => {
    const fx = fixture(documented(c.block, '/tasks', 'get', c.extra ?? ''));
    const routes = table([{ pattern: '/tasks', callSite: { file: fx.file, line: fx.lineOf('app.get(') } }]);
    const { document, diagnostics } = exportWithDiagnostics(source(routes), { openapi: version });
    const op = document.paths['/tasks']?.get ?? {};
    const expected = c.perVersion ? (c.expected as Record<OpenApiVersion, unknown>)[version] : c.expected;
    const fragment = c.pick ? c.pick(document, op) : op.responses;
    if (Array.isArray(expected)) expect(fragment).toEqual(expected);
    else expect(fragment).toMatchObject(expected as object);
    expect(diagnostics.map((d) => ({ code: d.code, line: d.line }))).toEqual(
      (c.diagnostics ?? []).map((d) => ({ code: d.code, line: fx.lineOf(d.at) })),
    );
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe('security stated for public operations', () => {
  const bearer = { bearerAuth: { type: 'http', scheme: 'bearer' } };
  it.each([
    {
      name: 'beside a secured operation, a public one says security: []',
      blocks: ['@security bearerAuth\n@response 200 OK', '@response 200 OK'],
      expected: { root: undefined, ops: [[{ bearerAuth: [] }], []], schemes: ['bearerAuth'] },
    },
    {
      name: 'no operation names a scheme: the root says security: [] once, declared schemes are left out',
      blocks: ['@response 200 OK', '@response 200 OK'],
      expected: { root: [], ops: [undefined, undefined], schemes: undefined },
    },
  ])('$name', ({ blocks, expected }) => {
    const text = blocks.map((b, i) => documented(b, `/r${i}`)).join('\n');
    const fx = fixture(text);
    const routes = table(
      blocks.map((_, i) => ({ pattern: `/r${i}`, callSite: { file: fx.file, line: fx.lineOf(`'/r${i}'`) } })),
    );
    const document = exportWithDiagnostics(source(routes), { security: bearer }).document;
    expect(document.security).toEqual(expected.root);
    expect(blocks.map((_, i) => document.paths[`/r${i}`]?.get?.security)).toEqual(expected.ops);
    const components = document.components as { securitySchemes?: object } | undefined;
    expect(components?.securitySchemes && Object.keys(components.securitySchemes)).toEqual(expected.schemes);
  });
});

/** A route's response check, compiled from an annotation block as the application compiles it. */
function responseCheck(block: string): (res: Response) => Response {
  const text = `/**\n${block
    .split('\n')
    .map((l) => ` * ${l}`)
    .join('\n')}\n */`;
  const [doc, thing] = findDocBlocks(
    `${text}\n/**\n * @schema Thing\n * @property {integer} id.required - Id\n */`,
  );
  if (doc === undefined || thing === undefined) throw new Error('the blocks did not parse');
  const parsed = parseBlock(doc, 'app.ts');
  const schemas = parseBlock(thing, 'app.ts').schemas;
  const definitions = contractDefinitions({
    version: 1,
    operations: {},
    schemas: Object.fromEntries(schemas.map((s) => [s.name, s])),
    diagnostics: [],
  });
  const compiled = new ContractCompiler(definitions, memoryLogger()).compile(
    'GET /x',
    parsed.operation ?? undefined,
    [],
    { requests: false, responses: 'throw' },
  );
  const check = compiled?.checkResponse;
  if (!check) throw new Error('no response check compiled');
  return check;
}

async function* ticks() {
  yield { data: { id: 'x' } };
}

describe('response validation and streamed bodies', () => {
  it.each([
    {
      name: 'a streamed body under a JSON schema is not read',
      block: '@response 200 {Thing} The thing',
      res: () =>
        new Response().header('Content-Type', 'application/json').send(Readable.from(['{"id":"x"}'])),
      problem: null,
    },
    {
      name: 'res.sse() under an event-stream response',
      block: '@response 200 {Thing} text/event-stream - Changes',
      res: () => new Response().sse(ticks()),
      problem: null,
    },
    {
      name: 'a {file} answered as text is not checked against anything',
      block: '@response 200 {file} application/pdf - The invoice',
      res: () => new Response().header('Content-Type', 'application/pdf').send('%PDF-1.7'),
      problem: null,
    },
    {
      name: 'a documented non-JSON media type beside JSON is not checked as JSON',
      block: '@response 200 {Thing} application/json, text/csv - The thing',
      res: () => new Response().header('Content-Type', 'text/csv; charset=utf-8').send('id\nx'),
      problem: null,
    },
    {
      name: 'the status of a streamed answer is still checked',
      block: '@response 200 {Thing} text/event-stream - Changes',
      res: () => new Response().status(201).sse(ticks()),
      problem: /answered 201, which is not a documented status/,
    },
    {
      name: 'a JSON body held as bytes is checked',
      block: '@response 200 {Thing} The thing',
      res: () =>
        new Response()
          .header('Content-Type', 'application/json')
          .send(new TextEncoder().encode('{"id":"x"}')),
      problem: /does not match its documented schema: id must be integer/,
    },
    {
      name: 'a text body where only JSON is documented is still refused',
      block: '@response 200 {Thing} The thing',
      res: () => new Response().send('plain'),
      problem: /has a documented schema but no JSON body/,
    },
    {
      name: 'a status range (4XX) is checked for the statuses it covers',
      block: '@response 200 {Thing} The thing\n@response 4XX {Thing} Refused',
      res: () => new Response().status(413).json({ error: 'too large' }),
      problem: /answered 413, which does not match its documented schema: id is required/,
    },
  ])('$name', ({ block, res, problem }) => {
    const check = responseCheck(block);
    const response = res();
    if (problem === null) expect(check(response)).toBe(response);
    else expect(() => check(response)).toThrow(problem);
  });

  it('an application with response validation streams an event-stream and a file route unchanged', async () => {
    const app = new Application({ logger: memoryLogger(), validate: { responses: 'throw' } });
    /**
     * @response 200 {Thing} text/event-stream - Changes
     */
    app.get('/changes', (_req, res) => res.sse(ticks()));
    /**
     * @response 200 {file} text/plain - The notes
     */
    app.get('/notes.txt', (_req, res) =>
      res.header('Content-Type', 'text/plain').send(Readable.from(['a', 'b'])),
    );
    const events = await app.fetch(new Request('http://localhost/changes'));
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await events.text()).toContain('data: {"id":"x"}');
    const file = await app.fetch(new Request('http://localhost/notes.txt'));
    expect([file.status, await file.text()]).toEqual([200, 'ab']);
  });
});

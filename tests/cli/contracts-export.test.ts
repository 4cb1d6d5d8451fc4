/**
 * `arbor contracts:export` and `new Application({ contracts })`: validation with neither the sources nor
 * code generation. An application written with doc comments (bounds, formats, patterns, enums, defaults,
 * `@schema` references, a form, a response schema) and a code-first JSON Schema is exported by the
 * compiled CLI from its sources; then its minified bundle (no comments left) runs under
 * `node --disallow-code-generation-from-strings` (which refuses `new Function` as Cloudflare Workers do)
 * with the module, and must answer a table of good and bad requests exactly as the unbundled application
 * answers it reading its sources and compiling with ajv. Each run is a real process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arbor, bundleLikeADeployment, compiledCliAvailable, PACKAGE, spawnNode } from './support.js';

const NO_CODE_GENERATION = '--disallow-code-generation-from-strings';

const APP = `import { Application } from ${JSON.stringify(PACKAGE)};

/**
 * @schema Item
 * @property {string pattern=^[A-Z]{3}-[0-9]{2}$} sku.required - Stock unit
 * @property {integer minimum=1 maximum=9} quantity.required - How many
 */

/** The application; \`contracts\`: the compiled contracts, when the process cannot read its sources. */
export function createApp(contracts) {
  const app = new Application({
    validate: { responses: 'throw' },
    ...(contracts === undefined ? {} : { contracts }),
  });

  /**
   * @api POST /orders/:shop
   * @param {string pattern=^shop-[0-9]+$} shop.path - The shop
   * @param {string enum=["web","store"]} channel.query.required - Where it was placed
   * @param {integer minimum=1 maximum=5 default=3} priority.query - Urgency
   * @body {{email: string format=email, placedAt: string format=date-time, note?: string maxLength=20, items: array<Item> minItems=1 maxItems=3}} - The order
   * @response 201 {{shop: string, channel: string, priority: integer, items: integer}} The order's summary
   */
  app.post('/orders/:shop', (req, res) => {
    const query = req.valid('query');
    const body = req.valid('body');
    if (body.note === 'break the response') return res.status(201).json({ shop: 1 });
    return res.status(201).json({
      shop: req.valid('params').shop,
      channel: query.channel,
      priority: query.priority,
      items: body.items.length,
    });
  });

  /**
   * @api POST /profiles
   * @param {string minLength=2 maxLength=10} name.formData.required - Display name
   * @param {integer minimum=13} age.formData - Age in years
   */
  app.post('/profiles', (req, res) => res.json(req.valid('body')));

  app.get(
    '/pages',
    {
      schema: {
        query: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          additionalProperties: false,
        },
      },
    },
    (req, res) => res.json(req.valid('query')),
  );
  return app;
}

export const app = createApp();
`;

const ITEM = { sku: 'ABC-12', quantity: 2 };
const FORM = 'multipart/form-data; boundary=arbor';
/** A multipart form of plain fields. */
const form = (fields: Record<string, string>): string =>
  `${Object.entries(fields)
    .map(([name, value]) => `--arbor\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('')}--arbor--\r\n`;
/** A good order's body, with `change` made to it. */
const good = (change: Record<string, unknown> = {}): string =>
  JSON.stringify({ email: 'ada@example.com', placedAt: '2026-12-07T10:00:00Z', items: [ITEM], ...change });

/** The table: every request, as `app.fetch` is sent it. */
const REQUESTS: { name: string; method: string; path: string; type?: string; body?: string }[] = [
  ...(
    [
      ['a good order', '/orders/shop-1?channel=web', good()],
      ['priority given', '/orders/shop-1?channel=store&priority=5', good()],
      ['shop against its pattern', '/orders/mall-1?channel=web', good()],
      ['channel not in the enum', '/orders/shop-1?channel=phone', good()],
      ['channel missing', '/orders/shop-1', good()],
      ['priority past its maximum', '/orders/shop-1?channel=web&priority=6', good()],
      ['priority not an integer', '/orders/shop-1?channel=web&priority=2.5', good()],
      ['an e-mail that is not one', '/orders/shop-1?channel=web', good({ email: 'nobody' })],
      ['a date-time that is not one', '/orders/shop-1?channel=web', good({ placedAt: '2026-13-01' })],
      ['a note too long', '/orders/shop-1?channel=web', good({ note: 'x'.repeat(21) })],
      ['no items', '/orders/shop-1?channel=web', good({ items: [] })],
      ['too many items', '/orders/shop-1?channel=web', good({ items: Array(4).fill(ITEM) })],
      [
        'an item against the referenced schema',
        '/orders/shop-1?channel=web',
        good({ items: [{ sku: 'abc', quantity: 0 }] }),
      ],
      ['a body that is not an object', '/orders/shop-1?channel=web', '[1,2]'],
      ['a response against its schema', '/orders/shop-1?channel=web', good({ note: 'break the response' })],
    ] as const
  ).map(([name, path, body]) => ({ name, method: 'POST', path, type: 'application/json', body })),
  {
    name: 'a good form',
    method: 'POST',
    path: '/profiles',
    type: FORM,
    body: form({ name: 'Ada', age: '36' }),
  },
  {
    name: 'a form field too short',
    method: 'POST',
    path: '/profiles',
    type: FORM,
    body: form({ name: 'A', age: '36' }),
  },
  {
    name: 'a form field not an integer',
    method: 'POST',
    path: '/profiles',
    type: FORM,
    body: form({ name: 'Ada', age: 'old' }),
  },
  { name: 'a code-first query, default', method: 'GET', path: '/pages' },
  { name: 'a code-first query, coerced', method: 'GET', path: '/pages?limit=7' },
  { name: 'a code-first query, out of range', method: 'GET', path: '/pages?limit=0' },
  { name: 'a code-first query, unknown key', method: 'GET', path: '/pages?page=2' },
];

/**
 * Imports `entry`, builds the app (with the module at `contracts`, when given), compiles its checks as
 * `run()` does (`compile`), and prints each answer of the table as JSON.
 */
const PROBE = (
  entry: string,
  contracts: string | null,
  compile: boolean,
) => `process.env.ARBOR_NO_LISTEN = '1';
const { createApp } = await import(${JSON.stringify(entry)});
${contracts === null ? 'const contracts = undefined;' : `const { default: contracts } = await import(${JSON.stringify(contracts)});`}
const app = createApp(contracts);
${compile ? 'app.compileValidation();' : ''}
const answers = [];
for (const r of ${JSON.stringify(REQUESTS)}) {
  const init = { method: r.method, headers: r.type ? { 'content-type': r.type } : {}, body: r.body };
  const res = await app.fetch(new Request('http://localhost' + r.path, init));
  answers.push({ name: r.name, status: res.status, body: await res.json() });
}
console.log(JSON.stringify(answers));
`;

interface Answer {
  name: string;
  status: number;
  body: { code?: number; details?: { keyword: string; pointer: string }[] } & Record<string, unknown>;
}

const answersOf = (stdout: string): Answer[] => JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]');

describe.skipIf(!compiledCliAvailable())('contracts compiled ahead of time (arbor contracts:export)', () => {
  let dir = '';
  let reference: Answer[] = [];

  const probe = (name: string, entry: string, contracts: string | null, compile = true) => {
    writeFileSync(join(dir, name), PROBE(entry, contracts, compile));
    return name;
  };
  const run = (script: string, flags: string[] = [NO_CODE_GENERATION]) =>
    spawnNode([...flags, join(dir, script)], {
      cwd: dir,
      env: { ARBOR_NO_LISTEN: '1', NODE_ENV: 'production' },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-contracts-'));
    writeFileSync(join(dir, 'package.json'), '{ "name": "contracts", "private": true, "type": "module" }\n');
    writeFileSync(join(dir, 'app.mjs'), APP);
    await bundleLikeADeployment(dir, 'app.mjs');
    const exported = await arbor(['contracts:export', '--app', 'app.mjs', '--output', 'arbor.contracts.js'], {
      cwd: dir,
      compiled: true,
    });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/Written: arbor\.contracts\.js \(2 operations, 5 checks\)/);
    // The reference: the unbundled application, reading its sources and compiling with ajv.
    const answered = await run(probe('reference.mjs', './app.mjs', null), []);
    expect(answered.code, answered.stderr).toBe(0);
    reference = answersOf(answered.stdout);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the reference answers the table as the contracts say', () => {
    const byName = new Map(reference.map((a) => [a.name, a]));
    const answer = (name: string) => byName.get(name) as Answer;
    expect(answer('a good order')).toMatchObject({
      status: 201,
      body: { shop: 'shop-1', channel: 'web', priority: 3, items: 1 },
    });
    expect(answer('priority given').body).toMatchObject({ priority: 5 });
    const refusals: [string, string, string][] = [
      ['shop against its pattern', 'pattern', '/shop'],
      ['channel not in the enum', 'enum', '/channel'],
      ['channel missing', 'required', '/channel'],
      ['priority past its maximum', 'maximum', '/priority'],
      ['priority not an integer', 'type', '/priority'],
      ['an e-mail that is not one', 'format', '/email'],
      ['a date-time that is not one', 'format', '/placedAt'],
      ['a note too long', 'maxLength', '/note'],
      ['no items', 'minItems', '/items'],
      ['too many items', 'maxItems', '/items'],
      ['a body that is not an object', 'type', ''],
      ['a form field too short', 'minLength', '/name'],
      ['a form field not an integer', 'type', '/age'],
      ['a code-first query, out of range', 'minimum', '/limit'],
      ['a code-first query, unknown key', 'additionalProperties', ''],
    ];
    for (const [name, keyword, pointer] of refusals) {
      const refused = answer(name);
      expect(refused.status, name).toBe(400);
      expect(refused.body.details, name).toContainEqual(expect.objectContaining({ keyword, pointer }));
    }
    const item = answer('an item against the referenced schema').body.details ?? [];
    expect(item.map((d) => [d.keyword, d.pointer])).toEqual(
      expect.arrayContaining([
        ['pattern', '/items/0/sku'],
        ['minimum', '/items/0/quantity'],
      ]),
    );
    expect(answer('a response against its schema').status).toBe(500);
    expect(answer('a good form')).toMatchObject({ status: 200, body: { name: 'Ada', age: 36 } });
    expect(answer('a code-first query, default').body).toEqual({ limit: 20 });
    expect(answer('a code-first query, coerced').body).toEqual({ limit: 7 });
  });

  it('without code generation, the bundled app with the module answers exactly as the reference', async () => {
    const answered = await run(probe('precompiled.mjs', './dist/app.mjs', './arbor.contracts.js'));
    expect(answered.code, answered.stderr).toBe(0);
    expect(answersOf(answered.stdout)).toEqual(reference);
  }, 60_000);

  it('the module imports nothing, and its validators are plain functions', () => {
    const text = readFileSync(join(dir, 'arbor.contracts.js'), 'utf8');
    expect(text).not.toMatch(/^\s*import\b/m);
    expect(text).not.toMatch(/new Function|eval\(/);
    expect(text).toMatch(/^export default \{$/m);
  });

  it('without the module and without code generation, the sources are not enough: CODE_GENERATION_REFUSED', async () => {
    const answered = await run(probe('refused.mjs', './app.mjs', null));
    expect(answered.code).not.toBe(0);
    expect(answered.stderr).toMatch(/CODE_GENERATION_REFUSED|CodeGenerationRefusedError/);
    expect(answered.stderr).toMatch(/arbor contracts:export/);
  }, 60_000);

  it('a module that no longer matches a route refuses to start, naming the route', async () => {
    const text = readFileSync(join(dir, 'arbor.contracts.js'), 'utf8');
    // The route's pattern annotation changed after the export: its key is no longer found.
    writeFileSync(join(dir, 'stale.contracts.js'), text.replace('"params:', '"params:stale'));
    const answered = await run(probe('stale.mjs', './dist/app.mjs', './stale.contracts.js'));
    expect(answered.code).not.toBe(0);
    expect(answered.stderr).toMatch(/CONTRACTS_STALE/);
    expect(answered.stderr).toMatch(
      /route POST \/orders\/:shop: its contract is not among the compiled contracts/,
    );
  }, 60_000);

  it('without a start-up compile, a stale route answers 500 on each request: never unchecked', async () => {
    const text = readFileSync(join(dir, 'arbor.contracts.js'), 'utf8');
    writeFileSync(join(dir, 'stale.contracts.js'), text.replace(/"json:[^"]+"/g, '"json:stale"'));
    const answered = await run(probe('stale-lazy.mjs', './dist/app.mjs', './stale.contracts.js', false));
    expect(answered.code, answered.stderr).toBe(0);
    const byName = new Map(answersOf(answered.stdout).map((a) => [a.name, a.status]));
    expect(byName.get('a good order')).toBe(500);
    expect(byName.get('a note too long')).toBe(500);
    expect(answered.stderr).toMatch(/CONTRACTS_STALE/);
  }, 60_000);

  it('a module of another format is refused when the application is created', async () => {
    const text = readFileSync(join(dir, 'arbor.contracts.js'), 'utf8');
    writeFileSync(join(dir, 'old.contracts.js'), text.replace(/^ {2}format: \d+,$/m, '  format: 0,'));
    const answered = await run(probe('old.mjs', './dist/app.mjs', './old.contracts.js'));
    expect(answered.code).not.toBe(0);
    expect(answered.stderr).toMatch(/CONTRACTS_STALE[\s\S]*format 0/);
  }, 60_000);

  it('--check passes on the module just written and fails once the routes change', async () => {
    const args = ['contracts:export', '--app', 'app.mjs', '--output', 'arbor.contracts.js', '--check'];
    const current = await arbor(args, { cwd: dir, compiled: true });
    expect(current.code, current.stderr).toBe(0);
    expect(current.stdout).toMatch(/Up to date/);
    writeFileSync(join(dir, 'app.mjs'), APP.replace('maximum=5 default=3', 'maximum=7 default=3'));
    const changed = await arbor(args, { cwd: dir, compiled: true });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/arbor\.contracts\.js is out of date: run `arbor contracts:export/);
    writeFileSync(join(dir, 'app.mjs'), APP);
  }, 60_000);
});

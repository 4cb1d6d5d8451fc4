/** The lexer that finds doc blocks, and the `{type}` language, as tables. */
import { describe, expect, it } from 'vitest';
import { findDocBlocks } from '../../ts/src/openapi/grammar/comments.js';
import { parseBlock } from '../../ts/src/openapi/grammar/tags.js';
import { parseType, typeToSchema } from '../../ts/src/openapi/grammar/type-expr.js';

describe('findDocBlocks', () => {
  it.each([
    ['/** @summary a */\nx();', [[1, 1, '@summary a']]],
    ['/**\n * @summary a\n * @tags b\n */', [[1, 4, '@summary a|@tags b']]],
    ['const s = "/** not a block */";\n/** @summary real */', [[2, 2, '@summary real']]],
    ["const s = '/**';\n/** @summary real */", [[2, 2, '@summary real']]],
    ['const t = `\n/** in a template */\n`;\n/** @x */', [[4, 4, '@x']]],
    ['// /** in a line comment */\n/** @x */', [[2, 2, '@x']]],
    ['/* plain comment */\n/**/\n/** @x */', [[3, 3, '@x']]],
  ])('%j', (source, expected) => {
    const blocks = findDocBlocks(source).map((b) => [
      b.startLine,
      b.endLine,
      b.lines
        .map((l) => l.text.trim())
        .filter(Boolean)
        .join('|'),
    ]);
    expect(blocks).toEqual(expected);
  });
});

describe('type expressions', () => {
  it.each([
    ['integer', { type: 'integer' }, { type: 'integer' }],
    ['int', { type: 'integer' }, { type: 'integer' }],
    ['array', { type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'string' } }],
    [
      'array<array<number>>',
      { type: 'array', items: { type: 'array', items: { type: 'number' } } },
      { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    ],
    ['?string', { type: ['string', 'null'] }, { type: 'string', nullable: true }],
    [
      'Product|null',
      { oneOf: [{ $ref: '#/components/schemas/Product' }, { type: 'null' }] },
      { allOf: [{ $ref: '#/components/schemas/Product' }], nullable: true },
    ],
    [
      'array<Product>',
      { type: 'array', items: { $ref: '#/components/schemas/Product' } },
      { type: 'array', items: { $ref: '#/components/schemas/Product' } },
    ],
  ])('{%s}', (text, v31, v30) => {
    const type = parseType(text);
    expect(type).not.toBeNull();
    if (type === null) return;
    expect(typeToSchema(type, '3.1.0')).toEqual(v31);
    expect(typeToSchema(type, '3.0.3')).toEqual(v30);
  });

  it.each(['', 'array<', 'array<>', '1abc', 'a b', '{x}'])('rejects %j', (text) =>
    expect(parseType(text)).toBeNull(),
  );
});

describe('@response lines', () => {
  it.each([
    ['200 {Task} The task', { type: 'Task', description: 'The task' }],
    ['200 {file} - The attachment', { type: 'file', description: 'The attachment' }],
    [
      '200 {file} application/pdf - The invoice',
      { type: 'file', media: ['application/pdf'], description: 'The invoice' },
    ],
    [
      '200 {Task} text/event-stream, application/json - Changes',
      { type: 'Task', media: ['text/event-stream', 'application/json'], description: 'Changes' },
    ],
    ['200 Text/Event-Stream', { type: null, media: ['text/event-stream'], description: '' }],
    ['200 image/* Any picture', { type: null, media: ['image/*'], description: 'Any picture' }],
    ['200 {Task} and/or its parent', { type: 'Task', description: 'and/or its parent' }],
    ['200 {Task} text/csv, and more', { type: 'Task', media: ['text/csv'], description: 'and more' }],
    ['4XX {Error} Refused', { status: '4XX', type: 'Error', description: 'Refused' }],
  ])('@response %s', (line, expected) => {
    const [block] = findDocBlocks(`/** @response ${line} */`);
    if (block === undefined) throw new Error('no block');
    const { operation, diagnostics } = parseBlock(block, 'app.ts');
    expect(diagnostics).toEqual([]);
    const [response] = operation?.responses ?? [];
    expect(response).toEqual({ status: '200', line: 1, ...expected });
  });
});

describe('@tag blocks', () => {
  it.each([
    ['/** @tag Tasks - The list */', [['Tasks', 'The list']], false],
    [
      '/**\n * @tag Admin Tools - For admins,\n * and nobody else\n */',
      [['Admin Tools', 'For admins,\nand nobody else']],
      false,
    ],
    // Free text describes the tag, as it does a @schema: the block is no operation's description.
    ['/**\n * The list.\n * @tag Tasks\n */', [['Tasks', 'The list.']], false],
    ['/**\n * @summary List\n * @tag Tasks - The list\n */', [['Tasks', 'The list']], true],
  ])('%j', (text, tags, operation) => {
    const [block] = findDocBlocks(text);
    if (block === undefined) throw new Error('no block');
    const parsed = parseBlock(block, 'app.ts');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.tags.map((t) => [t.name, t.description])).toEqual(tags);
    expect(parsed.operation !== null).toBe(operation);
  });
});

/** The lexer that finds doc blocks, and the `{type}` language, as tables. */
import { describe, expect, it } from 'vitest';
import { findDocBlocks } from '../../ts/src/openapi/comments.js';
import { parseType, typeToSchema } from '../../ts/src/openapi/type-expr.js';

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

/**
 * The JSON Schema → TypeScript emitter of the generated declarations, as a table: each schema, the
 * reading (as sent, or as validated: a key with a default present), and the type written.
 */
import { describe, expect, test } from 'vitest';
import { type Schema, schemaType, type View } from '../../ts/src/client/emit/schema-type.js';

const refs = (ref: string, view: View) => {
  const name = /^#\/definitions\/(.+)$/.exec(ref)?.[1];
  return name === undefined ? null : view === 'output' ? `Valid.${name}` : name;
};
const flat = (type: string) => type.replace(/\s*\n\s*/g, ' ');

const TABLE: [label: string, schema: Schema, view: View, type: string][] = [
  ['anything', true, 'input', 'unknown'],
  ['nothing', false, 'input', 'never'],
  ['integer', { type: 'integer' }, 'input', 'number'],
  ['a type list with null', { type: ['string', 'null'] }, 'input', 'string | null'],
  ["OpenAPI 3.0's nullable", { type: 'integer', nullable: true }, 'input', 'number | null'],
  ['const', { const: 'a"b' }, 'input', '"a\\"b"'],
  ['enum', { enum: ['asc', 'desc', 1, null] }, 'input', '"asc" | "desc" | 1 | null'],
  [
    'array of a union',
    { type: 'array', items: { type: ['string', 'number'] } },
    'input',
    '(string | number)[]',
  ],
  [
    'tuple',
    { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    'input',
    '[string, number]',
  ],
  ['anyOf', { anyOf: [{ type: 'string' }, { $ref: '#/definitions/Task' }] }, 'input', 'string | Task'],
  [
    'allOf',
    { allOf: [{ $ref: '#/definitions/Task' }, { type: 'object', properties: { x: { type: 'boolean' } } }] },
    'input',
    'Task & { x?: boolean; }',
  ],
  ['a reference, validated', { $ref: '#/definitions/Task' }, 'output', 'Valid.Task'],
  ['an unknown reference', { $ref: 'https://example.com/x' }, 'input', 'unknown'],
  ['a map', { type: 'object', additionalProperties: { type: 'integer' } }, 'input', 'Record<string, number>'],
  [
    'an empty closed object',
    { type: 'object', additionalProperties: false },
    'input',
    'Record<string, never>',
  ],
  [
    'keys quoted when they are no identifier, a description as a doc comment',
    {
      type: 'object',
      properties: { 'x-id': { type: 'string', description: 'An id */ here' } },
      required: ['x-id'],
    },
    'input',
    '{ /** An id *\\/ here */ "x-id": string; }',
  ],
  [
    'a default: optional as sent',
    { type: 'object', properties: { limit: { type: 'integer', default: 20 }, q: { type: 'string' } } },
    'input',
    '{ limit?: number; q?: string; }',
  ],
  [
    'a default: present once validated',
    { type: 'object', properties: { limit: { type: 'integer', default: 20 }, q: { type: 'string' } } },
    'output',
    '{ limit: number; q?: string; }',
  ],
];

describe('schemaType', () => {
  test.each(TABLE)('%s', (_label, schema, view, type) => {
    expect(flat(schemaType(schema, view, refs))).toBe(type);
  });
});

/**
 * Registration errors (SPEC §2 last paragraph, §3 rule 4): code and byte position in the pattern.
 * Positions: the `:` or `{` of a parameter, the `<` of an unclosed constraint, the first character
 * inside `<…>` of a bad constraint, the `{` of a bad regex block, the offending character otherwise.
 */
import type { ErrorCase } from './harness.js';

export const errorCases: ErrorCase[] = [
  { add: '/a/{id', code: 'INVALID_PATTERN', position: 3, why: "unclosed '{'" },
  { add: '/a/{id-x}', code: 'INVALID_PATTERN', position: 6, why: "unexpected character inside '{…}'" },
  { add: '/a/:id<\\d+', code: 'INVALID_PATTERN', position: 6, why: "unclosed '<'" },
  { add: '/a/{^\\d+$', code: 'INVALID_PATTERN', position: 3, why: 'unclosed regex block' },
  { add: '/a}', code: 'INVALID_PATTERN', position: 2, why: "unmatched '}'" },
  { add: '/a/:', code: 'INVALID_PATTERN', position: 3, why: 'empty name after :' },
  { add: '/a/:/b', code: 'INVALID_PATTERN', position: 3, why: 'empty name after : mid-pattern' },
  { add: '/a/{}', code: 'INVALID_PATTERN', position: 3, why: 'empty brace name' },
  { add: '/café/{id', code: 'INVALID_PATTERN', position: 7, why: 'positions are bytes, not characters' },
  { add: '/a/*/b', code: 'INVALID_PATTERN', position: 3, why: "'*' not at the end" },
  {
    add: '/a/:x*',
    code: 'INVALID_PATTERN',
    position: 5,
    why: 'a wildcard cannot share a segment with a parameter',
  },
  { add: '/a/{^\\d+$}/b', code: 'INVALID_PATTERN', position: 10, why: 'a regex block must end the pattern' },
  { add: '/a?b', code: 'INVALID_PATTERN', position: 2, why: "'?' outside a parameter" },
  { add: 'users', code: 'INVALID_PATTERN', position: 0, why: "a pattern starts with '/'" },
  { add: '', code: 'INVALID_PATTERN', position: 0, why: 'empty pattern' },
  { add: `/${'a'.repeat(2048)}`, code: 'INVALID_PATTERN', position: 2048, why: 'longer than 2048 bytes' },
  { add: '/:id/:id', code: 'DUPLICATE_PARAM', position: 5, why: 'same name twice' },
  {
    add: '/a/{id}/b/:id<int>',
    code: 'DUPLICATE_PARAM',
    position: 10,
    why: 'same name, brace and colon forms',
  },
  {
    add: '/y/:year/{^(?P<year>\\d+)$}',
    code: 'DUPLICATE_PARAM',
    position: 9,
    why: 'a named group reuses a name',
  },
  { add: '/a/:b?/c', code: 'INVALID_OPTIONAL', position: 3, why: 'optional not last' },
  { add: '/a-:b?', code: 'INVALID_OPTIONAL', position: 3, why: 'optional not the whole segment' },
  { add: '/a/:b?/:c?', code: 'INVALID_OPTIONAL', position: 3, why: 'two optionals' },
  { add: '/a/:id<>', code: 'INVALID_CONSTRAINT', position: 7, why: 'empty constraint' },
  { add: '/a/:id<*>', code: 'INVALID_CONSTRAINT', position: 7, why: 'repetition without an expression' },
  { add: '/a/:id<a)>', code: 'INVALID_CONSTRAINT', position: 7, why: 'unopened group' },
  { add: '/a/:id<x{2,1}>', code: 'INVALID_CONSTRAINT', position: 7, why: 'invalid repetition range' },
  {
    add: '/a/:id<(?=x)x>',
    code: 'INVALID_CONSTRAINT',
    position: 7,
    why: 'look-around is not in the Rust dialect',
  },
  {
    add: '/a/:id<(a)\\1>',
    code: 'INVALID_CONSTRAINT',
    position: 7,
    why: 'back-references are not in the Rust dialect',
  },
  { add: '/a/{^x{2,1}$}', code: 'INVALID_CONSTRAINT', position: 3, why: 'invalid regex block' },
  {
    before: ['/users/:id'],
    add: '/users/:id',
    code: 'ROUTE_CONFLICT',
    conflictsWith: '/users/:id',
    why: 'same method, same pattern',
  },
  {
    before: ['/users/:id'],
    add: '/users/{name}',
    code: 'ROUTE_CONFLICT',
    conflictsWith: '/users/:id',
    why: 'same shape: parameter names do not change what matches',
  },
  {
    before: ['/n/:id<int>'],
    add: '/n/:id<\\d+>',
    code: 'ROUTE_CONFLICT',
    conflictsWith: '/n/:id<int>',
    why: 'a shortcut and its expansion are the same constraint',
  },
  {
    before: [[['GET', 'POST'], '/x']],
    add: [['PUT', 'POST'], '/x'],
    code: 'ROUTE_CONFLICT',
    conflictsWith: '/x',
    why: 'one shared method is enough',
  },
  {
    before: ['/café'],
    add: '/caf%C3%A9',
    code: 'ROUTE_CONFLICT',
    conflictsWith: '/café',
    why: 'same encoded path',
  },
];
